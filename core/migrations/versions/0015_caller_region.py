"""caller-region routing: the call's caller origin, targets' and campaigns' region rules, and the
dashboard's rollup by region (issue 22, part 3)

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ORIGIN = [("caller_country", 8), ("caller_region", 500), ("caller_line_type", 8)]


def upgrade() -> None:
    # Nullable without a default: adding them rewrites nothing, however many calls there are.
    for name, length in _ORIGIN:
        op.add_column("call", sa.Column(name, sa.String(length), nullable=True))
    op.create_check_constraint(
        "caller_line_type", "call", "caller_line_type IN ('mobile', 'fixed', 'other', 'unknown')"
    )
    op.create_index("ix_call_caller_origin", "call", ["caller_country", "caller_region", "started_at"])
    for table in ("target", "campaign"):
        op.add_column(table, sa.Column("region_rules", JSONB(), server_default="{}", nullable=False))
    op.create_table(
        "call_region_rollup",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("hour", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("campaign_id", sa.Integer(), nullable=True),
        *[sa.Column(name, sa.String(length), nullable=True) for name, length in _ORIGIN],
        *[
            sa.Column(name, sa.Integer(), server_default="0", nullable=False)
            for name in ("calls", "answered", "converted")
        ],
        sa.Column("talk_seconds", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("spend", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.Column("payout", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_region_rollup")),
    )
    op.create_index("ix_call_region_rollup_hour", "call_region_rollup", ["hour"])
    op.create_index("ix_call_region_rollup_user_hour", "call_region_rollup", ["user_id", "hour"])
    # Calls rated before have no origin: one row per hour and campaign with null origin keys, as
    # the nightly rebuild would write them.
    op.execute("""
INSERT INTO call_region_rollup (hour, user_id, campaign_id, calls, answered, converted, talk_seconds, spend, payout)
SELECT date_trunc('hour', started_at, 'UTC'), user_id, campaign_id, count(*),
       count(*) FILTER (WHERE disposition = 'ANSWERED'), count(*) FILTER (WHERE converted),
       coalesce(sum(talk_seconds), 0), coalesce(sum(cost), 0), coalesce(sum(payout), 0)
FROM call WHERE rating_status <> 'pending'
GROUP BY 1, 2, 3
""")


def downgrade() -> None:
    op.drop_table("call_region_rollup")
    for table in ("campaign", "target"):
        op.drop_column(table, "region_rules")
    op.drop_index("ix_call_caller_origin", table_name="call")
    op.drop_constraint("caller_line_type", "call", type_="check")
    for name, _ in reversed(_ORIGIN):
        op.drop_column("call", name)
