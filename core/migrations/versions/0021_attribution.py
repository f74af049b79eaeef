"""attribution: traffic sources, a number's and a call's source, publisher payout and profit, the
call's attribution (issue 33)

Revision ID: 0021
Revises: 0020

`call.publisher_payout` has a constant default and `call.profit` none: adding them rewrites nothing.
Calls rated before owe no publisher anything, so their profit is filled in as payout - cost (one pass
over the rated calls), and the rollups' profit as payout - spend. The rollups gain the source as a
key (null for every call before).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ROLLUPS = ("call_rollup", "call_rollup_day")
_MONEY = sa.Numeric(precision=18, scale=4)


def upgrade() -> None:
    op.create_table(
        "traffic_source",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("utm_source", sa.String(length=128), nullable=True),
        sa.Column("payout_kind", sa.String(length=16), server_default="none", nullable=False),
        sa.Column("payout_amount", _MONEY, server_default="0", nullable=False),
        sa.Column("payout_share", sa.Numeric(precision=7, scale=4), server_default="0", nullable=False),
        sa.Column("status", sa.String(length=16), server_default="active", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('active', 'inactive')", name=op.f("ck_traffic_source_status")),
        sa.CheckConstraint(
            "payout_kind IN ('none', 'fixed', 'share')", name=op.f("ck_traffic_source_payout_kind")
        ),
        sa.CheckConstraint("payout_amount >= 0", name=op.f("ck_traffic_source_payout_amount")),
        sa.CheckConstraint("payout_share BETWEEN 0 AND 100", name=op.f("ck_traffic_source_payout_share")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_traffic_source_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_traffic_source")),
    )
    op.create_index(
        "uq_traffic_source_user_name", "traffic_source", ["user_id", sa.text("lower(name)")], unique=True
    )

    op.add_column("number", sa.Column("source_id", sa.Integer(), nullable=True))
    op.create_foreign_key(
        op.f("fk_number_source_id_traffic_source"),
        "number",
        "traffic_source",
        ["source_id"],
        ["id"],
        ondelete="SET NULL",
    )
    op.create_index(op.f("ix_number_source_id"), "number", ["source_id"])

    op.add_column("call", sa.Column("source_id", sa.Integer(), nullable=True))
    op.add_column("call", sa.Column("publisher_payout", _MONEY, server_default="0", nullable=False))
    op.add_column("call", sa.Column("profit", _MONEY, nullable=True))
    op.create_foreign_key(
        op.f("fk_call_source_id_traffic_source"),
        "call",
        "traffic_source",
        ["source_id"],
        ["id"],
        ondelete="RESTRICT",
    )
    op.create_index(
        "ix_call_source_started",
        "call",
        ["source_id", "started_at"],
        postgresql_where="source_id IS NOT NULL",
    )
    op.execute("UPDATE call SET profit = payout - cost WHERE rating_status = 'rated' AND cost IS NOT NULL")

    for table in _ROLLUPS:
        op.add_column(table, sa.Column("source_id", sa.Integer(), nullable=True))
        op.add_column(table, sa.Column("publisher_payout", _MONEY, server_default="0", nullable=False))
        op.add_column(table, sa.Column("profit", _MONEY, server_default="0", nullable=False))
        op.execute(f"UPDATE {table} SET profit = payout - spend")

    op.create_table(
        "call_attribution",
        sa.Column("call_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("call_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("visitor_id", sa.String(length=64), nullable=True),
        sa.Column("source", sa.String(length=128), nullable=False),
        sa.Column("medium", sa.String(length=128), nullable=True),
        sa.Column("campaign", sa.String(length=256), nullable=True),
        sa.Column("keyword", sa.String(length=256), nullable=True),
        sa.Column("content", sa.String(length=256), nullable=True),
        sa.Column("landing_page", sa.String(length=2048), nullable=True),
        sa.Column("referrer", sa.String(length=2048), nullable=True),
        sa.Column("click_id", sa.String(length=256), nullable=True),
        sa.Column("click_id_kind", sa.String(length=16), nullable=True),
        sa.Column("pages", postgresql.JSONB(), server_default="[]", nullable=False),
        sa.Column("candidates", postgresql.JSONB(), server_default="[]", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint(
            "status IN ('matched', 'ambiguous', 'static')", name=op.f("ck_call_attribution_status")
        ),
        sa.CheckConstraint(
            "click_id_kind IS NULL OR click_id_kind IN ('gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid')",
            name=op.f("ck_call_attribution_click_id_kind"),
        ),
        sa.PrimaryKeyConstraint("call_id", name=op.f("pk_call_attribution")),
    )
    op.create_index("ix_call_attribution_user_started", "call_attribution", ["user_id", "call_started_at"])
    op.create_index("ix_call_attribution_user_campaign", "call_attribution", ["user_id", "campaign"])
    op.create_index("ix_call_attribution_user_source", "call_attribution", ["user_id", "source"])
    op.create_index(
        "ix_call_attribution_click_id",
        "call_attribution",
        ["click_id"],
        postgresql_where="click_id IS NOT NULL",
    )


def downgrade() -> None:
    op.drop_table("call_attribution")
    for table in _ROLLUPS:
        for column in ("profit", "publisher_payout", "source_id"):
            op.drop_column(table, column)
    op.drop_index("ix_call_source_started", table_name="call")
    op.drop_constraint(op.f("fk_call_source_id_traffic_source"), "call", type_="foreignkey")
    for column in ("profit", "publisher_payout", "source_id"):
        op.drop_column("call", column)
    op.drop_index(op.f("ix_number_source_id"), table_name="number")
    op.drop_constraint(op.f("fk_number_source_id_traffic_source"), "number", type_="foreignkey")
    op.drop_column("number", "source_id")
    op.drop_table("traffic_source")
