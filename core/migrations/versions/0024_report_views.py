"""saved report views, and the report sorted by duration, cost or payout (issue 37)

Revision ID: 0024
Revises: 0023

`report_view` keeps a person's named views of the call report (filters, columns, sort, grouping).
The sort indexes let a sorted report read its first page, and each page after a keyset anchor, off
an index: all calls and a customer's, by duration, payout and cost (an unrated call's null cost as
0). Built on the partitioned table: PostgreSQL builds each month's own.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SCOPES: dict[str, list[str | sa.TextClause]] = {"": [], "_user": ["user_id"]}
_KEYS: dict[str, str | sa.TextClause] = {
    "duration": "duration",
    "payout": "payout",
    "cost": sa.text("coalesce(cost, 0)"),
}


def upgrade() -> None:
    op.create_table(
        "report_view",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("filters", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False),
        sa.Column("columns", postgresql.JSONB(astext_type=sa.Text()), server_default="[]", nullable=False),
        sa.Column("sort", sa.String(length=16), server_default="started_at", nullable=False),
        sa.Column("direction", sa.String(length=4), server_default="desc", nullable=False),
        sa.Column("group_by", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_report_view_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_view")),
        sa.UniqueConstraint("user_id", "name", name=op.f("uq_report_view_user_id_name")),
    )
    for scope, columns in _SCOPES.items():
        for name, key in _KEYS.items():
            op.create_index(f"ix_call{scope}_{name}", "call", [*columns, key, "id"])


def downgrade() -> None:
    for scope in _SCOPES:
        for name in _KEYS:
            op.drop_index(f"ix_call{scope}_{name}", table_name="call")
    op.drop_table("report_view")
