"""index of calls left open

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_call_open", "call", ["started_at"], postgresql_where="ended_at IS NULL")


def downgrade() -> None:
    op.drop_index("ix_call_open", table_name="call", postgresql_where="ended_at IS NULL")
