"""The dashboard's rollups of the call rows, hourly (core.models.CallRollup) and daily
(CallRollupDay, the hourly ones of a UTC day summed), docs/reports.md; and those by caller origin,
at both levels too (core/reporting/region_rollups.py).

A rated call is final for the dashboard, so rating (core.billing.rating) and re-rating
(core.billing.rerate) hand the calls they wrote to `refresh`, in their own transaction: the hours
those calls started in are summed again from the call rows, then their days from the hours. Each
day is locked while its hours and itself are summed, and every refresh reads after taking the
lock, so two workers rating calls of the same hour or day leave the sum of both. `rebuild`, run
nightly by the workers, sums every hour and day again, one day per transaction: rating waits only
while the day it writes is summed, never for the whole rebuild.
Calls not rated yet (still talking, or rated seconds from now) are not in any rollup: the dashboard
reads them from the call rows.
"""

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from sqlmodel import Session

from core.infra.names import ROLLUP_LOCK
from core.reporting import region_rollups
from core.values.enums import Disposition

# Disposition -> its count column (the member's name in lower case).
DISPOSITION_COLUMNS = {d.value: d.name.lower() for d in Disposition}
_COUNTS = ", ".join(f"count(*) FILTER (WHERE disposition = '{d}')" for d in DISPOSITION_COLUMNS)
_FILL = f"""
INSERT INTO call_rollup (hour, user_id, campaign_id, target_id, buyer_id, source_id, calls,
                         {", ".join(DISPOSITION_COLUMNS.values())}, talk_seconds, converted, spend, payout,
                         publisher_payout, profit)
SELECT date_trunc('hour', started_at, 'UTC') AS hour, user_id, campaign_id, target_id, buyer_id, source_id,
       count(*), {_COUNTS}, coalesce(sum(talk_seconds), 0), count(*) FILTER (WHERE converted),
       coalesce(sum(cost), 0), coalesce(sum(payout), 0), coalesce(sum(publisher_payout), 0),
       coalesce(sum(profit), 0)
FROM call
WHERE rating_status <> 'pending' AND {{window}}
GROUP BY 1, 2, 3, 4, 5, 6
ORDER BY 1
"""
_HOURS_WINDOW = (
    "started_at >= (SELECT min(h) FROM unnest(CAST(:hours AS timestamptz[])) h)"
    " AND started_at < (SELECT max(h) FROM unnest(CAST(:hours AS timestamptz[])) h) + interval '1 hour'"
    " AND date_trunc('hour', started_at, 'UTC') = ANY(CAST(:hours AS timestamptz[]))"
)
# The columns a rollup sums, the same at both levels.
MEASURES = [
    "calls",
    *DISPOSITION_COLUMNS.values(),
    "talk_seconds",
    "converted",
    "spend",
    "payout",
    "publisher_payout",
    "profit",
]
_DAYS = f"""
INSERT INTO call_rollup_day (day, user_id, campaign_id, target_id, buyer_id, source_id, {", ".join(MEASURES)})
SELECT date_trunc('day', hour, 'UTC') AS day, user_id, campaign_id, target_id, buyer_id, source_id,
       {", ".join(f"sum({c})" for c in MEASURES)}
FROM call_rollup
WHERE {{window}}
GROUP BY 1, 2, 3, 4, 5, 6
ORDER BY 1
"""
_DAYS_WINDOW = (
    "hour >= (SELECT min(d) FROM unnest(CAST(:days AS timestamptz[])) d)"
    " AND hour < (SELECT max(d) FROM unnest(CAST(:days AS timestamptz[])) d) + interval '1 day'"
    " AND date_trunc('day', hour, 'UTC') = ANY(CAST(:days AS timestamptz[]))"
)
# Advisory lock keys (ROLLUP_LOCK, n): the UTC day n days after 1970-01-01 (its hours and itself).
DAY = 86400
# The UTC days any call or rollup row is of, what a rebuild walks: each table's days found by
# one index probe per day (a skip scan), so a day without a call costs nothing.
_DAYS_OF = """
SELECT day FROM (
    WITH RECURSIVE walk(day) AS (
        SELECT date_trunc('day', min({column}), 'UTC') FROM {table}
        UNION ALL
        SELECT (SELECT date_trunc('day', min({column}), 'UTC') FROM {table}
                WHERE {column} >= walk.day + interval '1 day')
        FROM walk WHERE walk.day IS NOT NULL
    )
    SELECT day FROM walk
) AS days WHERE day IS NOT NULL
"""
_REBUILT_DAYS = text(
    " UNION ".join(
        _DAYS_OF.format(table=table, column=column)
        for table, column in (
            ("call", "started_at"),
            ("call_rollup", "hour"),
            ("call_rollup_day", "day"),
            ("call_region_rollup", "hour"),
            ("call_region_rollup_day", "day"),
        )
    )
    + " ORDER BY 1"
)


def hours_of(session: Session, call_ids: Iterable[int]) -> list[datetime]:
    ids = list(call_ids)
    if not ids:
        return []
    stmt = text(
        "SELECT DISTINCT date_trunc('hour', started_at, 'UTC') FROM call"
        " WHERE id = ANY(CAST(:ids AS bigint[]))"
    )
    return sorted(session.scalars(stmt, {"ids": ids}))


def hours_started(started: Iterable[datetime]) -> list[datetime]:
    """The UTC hours these start times fall in, as `hours_of` reads them from the call rows: for a
    batch job that has read its calls' start already."""
    return sorted({moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0) for moment in started})


def lock_days(session: Session, hours: Iterable[datetime]) -> list[int]:
    """Lock the UTC days of these hours until the transaction ends; their keys (days since 1970)."""
    # The day, not the hour, is what is locked: two workers summing different hours of one day
    # would each sum the day without the other's hour.
    days = sorted({int(hour.timestamp()) // DAY for hour in hours})
    for key in days:  # one order for every worker: no deadlock between two of them
        session.execute(text("SELECT pg_advisory_xact_lock(:ns, :key)"), {"ns": ROLLUP_LOCK, "key": key})
    return days


def refresh(session: Session, call_ids: Iterable[int]) -> None:
    """Sum again the hours the calls `call_ids` started in (the caller's transaction, which wrote
    them, commits)."""
    refresh_hours(session, hours_of(session, call_ids))


def refresh_hours(session: Session, hours: Sequence[datetime]) -> int:
    """Sum again these UTC hours and their days (`hours_of`, `hours_started`); the caller commits.
    Returns the hourly rows written."""
    if not hours:
        return 0
    days = lock_days(session, hours)
    # Each statement reads the calls as committed now, after the locks: a worker that summed the
    # hour or day before has committed, and its calls are counted again here.
    params = {"hours": list(hours)}
    session.execute(text("DELETE FROM call_rollup WHERE hour = ANY(CAST(:hours AS timestamptz[]))"), params)
    # An INSERT's result is a CursorResult, which Session.execute's annotation does not say.
    written: int = session.execute(text(_FILL.format(window=_HOURS_WINDOW)), params).rowcount  # type: ignore[attr-defined]
    by_day = {"days": [datetime.fromtimestamp(key * DAY, UTC) for key in days]}
    # The breakdown by region, alike.
    region_rollups.refresh_hours(session, _HOURS_WINDOW, params, _DAYS_WINDOW, by_day)
    session.execute(text("DELETE FROM call_rollup_day WHERE day = ANY(CAST(:days AS timestamptz[]))"), by_day)
    session.execute(text(_DAYS.format(window=_DAYS_WINDOW)), by_day)
    return written


def rebuild(session: Session) -> int:
    """Every rollup summed again from the call rows, the days from the hours, a UTC day at a time,
    committing each (rating waits for the day being summed only); returns the hourly rows written."""
    days = list(session.scalars(_REBUILT_DAYS))
    session.commit()
    written = 0
    for day in days:
        written += refresh_hours(session, [day + timedelta(hours=h) for h in range(24)])
        session.commit()
    return written
