"""the dashboard's rollup by caller origin keyed by hour, customer and origin, no campaign (issue 38)

Revision ID: 0029
Revises: 0028

Keyed by campaign too, it held nearly a row per call (8.53 M rows for 10 M calls); the dashboard
never groups it by campaign. The rows are merged from the old ones (the same sums, read from the
rollup, not the calls).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYS = "hour, user_id, caller_country, caller_region, caller_line_type"
_MEASURES = ("calls", "answered", "converted", "talk_seconds", "spend", "payout")


def upgrade() -> None:
    sums = ", ".join(f"sum({m}) AS {m}" for m in _MEASURES)
    op.execute(
        f"CREATE TEMPORARY TABLE region_merged AS SELECT {_KEYS}, {sums} FROM call_region_rollup GROUP BY {_KEYS}"
    )
    op.execute("TRUNCATE call_region_rollup")
    op.drop_column("call_region_rollup", "campaign_id")
    measures = ", ".join(_MEASURES)
    op.execute(
        f"INSERT INTO call_region_rollup ({_KEYS}, {measures})"
        f" SELECT {_KEYS}, {measures} FROM region_merged ORDER BY hour"
    )
    op.execute("DROP TABLE region_merged")


def downgrade() -> None:
    op.add_column("call_region_rollup", sa.Column("campaign_id", sa.Integer(), nullable=True))
    # Summed again per campaign from the calls, as revision 0026's rollup held them.
    op.execute("TRUNCATE call_region_rollup")
    op.execute("""
INSERT INTO call_region_rollup (hour, user_id, campaign_id, caller_country, caller_region, caller_line_type,
                                calls, answered, converted, talk_seconds, spend, payout)
SELECT date_trunc('hour', started_at, 'UTC'), user_id, campaign_id, caller_country, caller_region,
       caller_line_type, count(*), count(*) FILTER (WHERE disposition = 'ANSWERED'),
       count(*) FILTER (WHERE converted), coalesce(sum(talk_seconds), 0), coalesce(sum(cost), 0),
       coalesce(sum(payout), 0)
FROM call WHERE rating_status <> 'pending'
GROUP BY 1, 2, 3, 4, 5, 6
ORDER BY 1
""")
