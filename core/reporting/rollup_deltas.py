"""The rollups moved by what a batch changed, not summed again (issue 38): rating adds the calls it
took out of `pending`, re-rating the difference its new prices made; each of the four rollups
(hourly and daily, by call and by caller origin) gets one upsert per batch, whatever the hour's
calls, where summing again read every call of the batch's hours (and a day of hours per day).

Both run under the same day locks as `rollups.refresh_hours` (core/reporting/rollups.py), which
still sums whole hours again where a call's earlier state is not known here (a call set aside, a
retried `no_rate`, a conversion changed) and in the nightly rebuild: a refresh reads the calls
committed when it has the lock, so it holds a batch's calls either with the batch's delta or
without it, never half. The rollups' keys are unique, nulls included, which is what the upserts
find their row by.
"""

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from sqlalchemy import text
from sqlmodel import Session

from core.models.rollups import KEYS
from core.reporting import region_rollups, rollups

_KEYS = ", ".join(KEYS)
_REGION_KEYS = region_rollups.KEYS
# Both keys' columns once (the customer is in both).
_COLUMNS = ", ".join(f"c.{k}" for k in dict.fromkeys(f"{_KEYS}, {_REGION_KEYS}".split(", ")))
# What each call adds, one row per call: its keys at both levels and its measures. No condition on
# the status: the caller has just rated these calls, and the planner, its statistics taken while
# they were pending, would expect none left and hash the whole table instead of probing each key.
# The batch's span of start times (:first, :last) bounds whatever plan it picks to those months
# and that stretch of the time index.
_CALL_MEASURES = ", ".join(
    [
        "1 AS calls",
        *(f"(c.disposition = '{d}')::int AS {column}" for d, column in rollups.DISPOSITION_COLUMNS.items()),
        "c.talk_seconds",
        "c.converted::int AS converted",
        "coalesce(c.cost, 0) AS spend",
        "c.payout",
        "c.publisher_payout",
        "coalesce(c.profit, 0) AS profit",
    ]
)


def _per_call(measures: str, arrays: str, names: str) -> str:
    """One row per call of the batch: its keys at both levels and `measures`, the batch given as
    parallel arrays (`arrays`, named `names`, the call's id and start time first)."""
    return f"""
SELECT date_trunc('hour', c.started_at, 'UTC') AS hour, {_COLUMNS}, {measures}
FROM unnest({arrays}) AS d({names})
JOIN call c ON c.id = d.id AND c.started_at = d.started_at AND c.started_at BETWEEN :first AND :last
"""


_ADDED = _per_call(
    _CALL_MEASURES, "CAST(:ids AS bigint[]), CAST(:started AS timestamptz[])", "id, started_at"
)
# A price's difference: the money measures move, the counts stay.
_MOVED_MEASURES = ", ".join(
    [
        *(f"0 AS {m}" for m in rollups.MEASURES[:-4]),
        "d.spend",
        "0 AS payout",
        "d.publisher_payout",
        "d.profit",
    ]
)
_MOVED = _per_call(
    _MOVED_MEASURES,
    "CAST(:ids AS bigint[]), CAST(:started AS timestamptz[]), CAST(:spend AS numeric[]),"
    " CAST(:publisher AS numeric[]), CAST(:profit AS numeric[])",
    "id, started_at, spend, publisher_payout, profit",
)


def _upsert(table: str, at: str, keys: str, measures: Sequence[str], source: str) -> str:
    """One level's rows of `source` (the changes) summed by its key and added to `table`."""
    columns = f"{at.split(' AS ')[-1]}, {keys}"
    listed = ", ".join(measures)
    return f"""INSERT INTO {table} ({columns}, {listed})
SELECT {at}, {keys}, {", ".join(f"sum({m})" for m in measures)} FROM {source}
GROUP BY 1, {keys} ORDER BY 1, {keys}
ON CONFLICT ({columns}) DO UPDATE SET {", ".join(f"{m} = {table}.{m} + excluded.{m}" for m in measures)}"""


def _statement(changes: str) -> str:
    """Every rollup moved by `changes` (one row per call, as _ADDED's columns) in one statement."""
    day = "date_trunc('day', hour, 'UTC') AS day"
    levels = [
        _upsert("call_rollup", "hour", _KEYS, rollups.MEASURES, "changes"),
        _upsert("call_rollup_day", day, _KEYS, rollups.MEASURES, "changes"),
        _upsert("call_region_rollup", "hour", _REGION_KEYS, region_rollups.MEASURES, "changes"),
        _upsert("call_region_rollup_day", day, _REGION_KEYS, region_rollups.MEASURES, "changes"),
    ]
    written = ",\n".join(f"level{n} AS ({sql})" for n, sql in enumerate(levels))
    return f"WITH changes AS MATERIALIZED ({changes}),\n{written}\nSELECT 1"


_ADD_CALLS = text(_statement(_ADDED))
_MOVE_MONEY = text(_statement(_MOVED))
# A call whose price moved: (id, started_at, spend, publisher payout, profit), each the difference.
Moved = tuple[int, datetime, Decimal, Decimal, Decimal]


def add_calls(session: Session, calls: Sequence[tuple[int, datetime]]) -> None:
    """Add the calls (id, started_at) the caller's transaction took out of `pending` (rated, left
    without a rate) to every rollup; the caller commits."""
    if not calls:
        return
    rollups.lock_days(session, rollups.hours_started(started for _, started in calls))
    ids, started = (list(column) for column in zip(*calls, strict=True))
    session.execute(_ADD_CALLS, {"ids": ids, "started": started, "first": min(started), "last": max(started)})


def move_money(session: Session, moved: Sequence[Moved]) -> None:
    """Add the differences re-rating made to the calls' money to every rollup; the caller commits."""
    if not moved:
        return
    rollups.lock_days(session, rollups.hours_started(change[1] for change in moved))
    ids, started, spend, publisher, profit = (list(column) for column in zip(*moved, strict=True))
    session.execute(
        _MOVE_MONEY,
        {
            "ids": ids,
            "started": started,
            "first": min(started),
            "last": max(started),
            "spend": spend,
            "publisher": publisher,
            "profit": profit,
        },
    )
