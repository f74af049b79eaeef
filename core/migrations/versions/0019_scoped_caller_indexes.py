"""a customer's and a buyer's calls by caller number (issue 24)

Revision ID: 0019
Revises: 0018

The report's caller filter (a whole number or how it starts) in a customer's or a buyer's scope read
every customer's calls from that number's index and dropped the others': the biggest customer's
prefix matched a quarter of every call before its own were kept. One index per scope reads only the
scope's calls, newest first within a number. Built on the partitioned table: PostgreSQL builds each
month's own.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SCOPES = {"ix_call_user_caller": "user_id", "ix_call_buyer_caller": "buyer_id"}


def upgrade() -> None:
    for name, scope in _SCOPES.items():
        op.create_index(
            name, "call", [scope, "caller", "started_at", "id"], postgresql_ops={"caller": "text_pattern_ops"}
        )


def downgrade() -> None:
    for name in _SCOPES:
        op.drop_index(name, table_name="call")
