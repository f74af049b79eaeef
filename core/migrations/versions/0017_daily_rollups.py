"""daily call rollups for the dashboard (issue 24): the hourly ones of each UTC day summed

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COUNTS = [
    "calls", "answered", "no_answer", "busy", "failed", "no_route", "blocked", "no_balance", "duplicate",
    "ivr_failed",
]  # fmt: skip
_SUMMED = [*_COUNTS, "talk_seconds", "converted", "spend", "payout"]


def upgrade() -> None:
    op.create_table(
        "call_rollup_day",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("day", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("campaign_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("buyer_id", sa.Integer(), nullable=True),
        *[sa.Column(name, sa.Integer(), server_default="0", nullable=False) for name in _COUNTS],
        sa.Column("talk_seconds", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("converted", sa.Integer(), server_default="0", nullable=False),
        sa.Column("spend", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.Column("payout", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_rollup_day")),
    )
    # The hourly rollups there are, summed once per day here (the nightly job keeps both exact).
    op.execute(f"""
INSERT INTO call_rollup_day (day, user_id, campaign_id, target_id, buyer_id, {", ".join(_SUMMED)})
SELECT date_trunc('day', hour, 'UTC'), user_id, campaign_id, target_id, buyer_id,
       {", ".join(f"sum({c})" for c in _SUMMED)}
FROM call_rollup
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1
""")
    op.create_index("ix_call_rollup_day_day", "call_rollup_day", ["day"])
    op.create_index("ix_call_rollup_day_user_day", "call_rollup_day", ["user_id", "day"])
    op.create_index("ix_call_rollup_day_buyer_day", "call_rollup_day", ["buyer_id", "day"])


def downgrade() -> None:
    op.drop_table("call_rollup_day")
