"""The dashboard's hourly rollups by caller origin (core.models.CallRegionRollup, docs/regions.md).

Kept by core/reporting/rollups.py in the same transaction and under the same advisory locks as
`call_rollup`: `refresh_hours` sums the hours again when rating or re-rating wrote calls of them
(the nightly rebuild too, a day at a time). Only rated calls are in it; the dashboard reads the
rest from the rows. Its key is the hour, the customer and the origin, no campaign: the dashboard
groups by nothing else, and a key per campaign made it nearly a row per call.
"""

from collections.abc import Mapping

from sqlalchemy import text
from sqlmodel import Session

from core.values.enums import Disposition

_FILL = f"""
INSERT INTO call_region_rollup (hour, user_id, caller_country, caller_region, caller_line_type,
                                calls, answered, converted, talk_seconds, spend, payout)
SELECT date_trunc('hour', started_at, 'UTC'), user_id, caller_country, caller_region,
       caller_line_type, count(*), count(*) FILTER (WHERE disposition = '{Disposition.ANSWERED.value}'),
       count(*) FILTER (WHERE converted), coalesce(sum(talk_seconds), 0), coalesce(sum(cost), 0),
       coalesce(sum(payout), 0)
FROM call
WHERE rating_status <> 'pending' AND {{window}}
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1
"""


def refresh_hours(session: Session, window: str, params: Mapping[str, object]) -> None:
    """Sum again the hours `window` (core.reporting.rollups' SQL condition over `params`) selects; the caller
    holds their locks."""
    session.execute(
        text("DELETE FROM call_region_rollup WHERE hour = ANY(CAST(:hours AS timestamptz[]))"), params
    )
    session.execute(text(_FILL.format(window=window)), params)
