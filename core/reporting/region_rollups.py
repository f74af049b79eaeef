"""The dashboard's rollups by caller origin (core.models.CallRegionRollup, hourly, and
CallRegionRollupDay, the hourly ones of a UTC day summed; docs/regions.md).

Kept by core/reporting/rollups.py in the same transaction and under the same advisory locks as
`call_rollup`: `refresh_hours` sums the hours again when rating or re-rating wrote calls of them,
then their days from the hours (the nightly rebuild too, a day at a time). Only rated calls are in
them; the dashboard reads the rest from the rows. Their key is the time, the customer and the
origin, no campaign: the dashboard groups by nothing else, and a key per campaign made it nearly a
row per call. The breakdown reads the days for the whole UTC days of its period, the hours at its
edges: by the hour, a customer's origins still spread a small customer's calls one or two to a row.
"""

from collections.abc import Mapping

from sqlalchemy import text
from sqlmodel import Session

from core.models.rollups import REGION_KEYS
from core.values.enums import Disposition

KEYS = ", ".join(REGION_KEYS)
MEASURES = ("calls", "answered", "converted", "talk_seconds", "spend", "payout")
_FILL = f"""
INSERT INTO call_region_rollup (hour, {KEYS}, {", ".join(MEASURES)})
SELECT date_trunc('hour', started_at, 'UTC'), {KEYS}, count(*),
       count(*) FILTER (WHERE disposition = '{Disposition.ANSWERED.value}'),
       count(*) FILTER (WHERE converted), coalesce(sum(talk_seconds), 0), coalesce(sum(cost), 0),
       coalesce(sum(payout), 0)
FROM call
WHERE rating_status <> 'pending' AND {{window}}
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1
"""
_DAYS = f"""
INSERT INTO call_region_rollup_day (day, {KEYS}, {", ".join(MEASURES)})
SELECT date_trunc('day', hour, 'UTC'), {KEYS}, {", ".join(f"sum({m})" for m in MEASURES)}
FROM call_region_rollup
WHERE {{window}}
GROUP BY 1, 2, 3, 4, 5
ORDER BY 1
"""


def refresh_hours(
    session: Session, window: str, params: Mapping[str, object], days_window: str, days: Mapping[str, object]
) -> None:
    """Sum again the hours `window` selects (core.reporting.rollups' SQL condition over `params`),
    then the days `days_window` selects from their hours; the caller holds their locks."""
    session.execute(
        text("DELETE FROM call_region_rollup WHERE hour = ANY(CAST(:hours AS timestamptz[]))"), params
    )
    session.execute(text(_FILL.format(window=window)), params)
    session.execute(
        text("DELETE FROM call_region_rollup_day WHERE day = ANY(CAST(:days AS timestamptz[]))"), days
    )
    session.execute(text(_DAYS.format(window=days_window)), days)
