"""hourly call rollups for the dashboard (issue 24)

Revision ID: 0014_rollups
Revises: 0013_report_indexes
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_rollups"
down_revision: str | None = "0013_report_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COUNTS = [
    "calls", "answered", "no_answer", "busy", "failed", "no_route", "blocked", "no_balance", "duplicate",
    "ivr_failed",
]  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "call_rollup",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("hour", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("campaign_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("buyer_id", sa.Integer(), nullable=True),
        *[sa.Column(name, sa.Integer(), server_default="0", nullable=False) for name in _COUNTS],
        sa.Column("talk_seconds", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("converted", sa.Integer(), server_default="0", nullable=False),
        sa.Column("spend", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.Column("payout", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_rollup")),
    )
    op.create_index("ix_call_rollup_hour", "call_rollup", ["hour"])
    op.create_index("ix_call_rollup_user_hour", "call_rollup", ["user_id", "hour"])
    op.create_index("ix_call_rollup_buyer_hour", "call_rollup", ["buyer_id", "hour"])
    # The calls rated before this migration, rolled up once here (the nightly job keeps it exact).
    dispositions = {
        "answered": "ANSWERED", "no_answer": "NO ANSWER", "busy": "BUSY", "failed": "FAILED",
        "no_route": "NO_ROUTE", "blocked": "BLOCKED", "no_balance": "NO_BALANCE", "duplicate": "DUPLICATE",
        "ivr_failed": "IVR_FAILED",
    }  # fmt: skip
    counts = ", ".join(f"count(*) FILTER (WHERE disposition = '{d}')" for d in dispositions.values())
    op.execute(f"""
INSERT INTO call_rollup (hour, user_id, campaign_id, target_id, buyer_id, calls, {", ".join(dispositions)},
                         talk_seconds, converted, spend, payout)
SELECT date_trunc('hour', started_at, 'UTC'), user_id, campaign_id, target_id, buyer_id, count(*), {counts},
       coalesce(sum(talk_seconds), 0), count(*) FILTER (WHERE converted), coalesce(sum(cost), 0),
       coalesce(sum(payout), 0)
FROM call WHERE rating_status <> 'pending'
GROUP BY 1, 2, 3, 4, 5
""")


def downgrade() -> None:
    op.drop_table("call_rollup")
