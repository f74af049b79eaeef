"""The dashboard's rollups, hourly, daily and by caller region, stay equal to the call rows they sum:
as calls are rated one by one or in batches, by two workers at once, after re-rating, after the nightly
rebuild; and the dashboard adds the calls no rollup holds yet (the current hour, calls not rated)."""

import random
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlmodel import Session

from core.billing import rating
from core.billing.rerate import rerate_period
from core.infra.db import get_engine, session_scope
from core.models import Call, Target
from core.reporting import rollups
from core.values.enums import Disposition
from testkit.actors import Actor
from testkit.rows import call as ended_call
from testkit.rows import campaign_with_target, change, customer_id, get, rate, tariff
from testkit.waiting import eventually

# The rollups as a fresh aggregate of the call rows would write them: each written independently
# of core/reporting/rollups.py, so a mistake there shows here. {unit} is hour or day.
FRESH = """
SELECT date_trunc('{unit}', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', user_id, campaign_id,
       target_id, buyer_id, count(*), count(*) FILTER (WHERE disposition = 'ANSWERED'),
       count(*) FILTER (WHERE disposition = 'BUSY'), count(*) FILTER (WHERE disposition = 'NO ANSWER'),
       sum(talk_seconds), count(*) FILTER (WHERE converted), coalesce(sum(cost), 0), sum(payout)
FROM call WHERE rating_status <> 'pending' GROUP BY 1, 2, 3, 4, 5
"""
ROLLED = """
SELECT {unit}, user_id, campaign_id, target_id, buyer_id, sum(calls), sum(answered), sum(busy),
       sum(no_answer), sum(talk_seconds), sum(converted), sum(spend), sum(payout)
FROM {table} GROUP BY 1, 2, 3, 4, 5
"""
# The same for the rollup by caller origin, written independently of core/reporting/region_rollups.py.
REGION_FRESH = """
SELECT date_trunc('{unit}', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', user_id,
       caller_country, caller_region, caller_line_type, count(*),
       count(*) FILTER (WHERE disposition = 'ANSWERED'), count(*) FILTER (WHERE converted),
       sum(talk_seconds), coalesce(sum(cost), 0), sum(payout)
FROM call WHERE rating_status <> 'pending' GROUP BY 1, 2, 3, 4, 5
"""
REGION_ROLLED = """
SELECT {unit}, user_id, caller_country, caller_region, caller_line_type, sum(calls), sum(answered),
       sum(converted), sum(talk_seconds), sum(spend), sum(payout)
FROM {table} GROUP BY 1, 2, 3, 4, 5
"""
ORIGINS = [
    ("GB", "London", "fixed"),
    ("US", "California", "unknown"),
    ("GB", "unknown", "mobile"),
    ("unknown", "unknown", "unknown"),
    (None, None, None),  # a row from before origins were read
]


def rows(sql: str) -> set[tuple[Any, ...]]:
    with get_engine().connect() as conn:
        return {tuple(r) for r in conn.execute(text(sql))}


def assert_rollups_exact() -> None:
    for unit, table in (("hour", "call_rollup"), ("day", "call_rollup_day")):
        fresh = rows(FRESH.format(unit=unit))
        assert fresh and rows(ROLLED.format(unit=unit, table=table)) == fresh, unit
    for unit, table in (("hour", "call_region_rollup"), ("day", "call_region_rollup_day")):
        fresh = rows(REGION_FRESH.format(unit=unit))
        assert fresh and rows(REGION_ROLLED.format(unit=unit, table=table)) == fresh, f"region {unit}"


def random_calls(rng: random.Random, now: datetime, n: int) -> list[int]:
    """`n` calls of two customers over the last two days (and this hour), a few of nobody's, from
    callers of random origins."""
    tariff_id = tariff(("44", "0.1000"), ("1", "0.0200"))
    lines = []
    for _ in range(2):
        user = customer_id("1000", tariff_id)
        campaign, target = campaign_with_target(user, payout="3")
        lines.append((user, campaign, target, get(Target, target).buyer_id))
    ids = []
    for k in range(n):
        user, campaign, target, buyer = rng.choice(lines)
        billsec = rng.choice([0, 0, rng.randrange(1, 600)])
        started = now - timedelta(seconds=rng.randrange(0, 2 * 86400)) if k % 7 else now
        fields: dict[str, Any] = {"campaign_id": campaign, "target_id": target, "buyer_id": buyer}
        if k % 23 == 0:
            user, fields = None, {}
        country, region, line_type = rng.choice(ORIGINS)
        call_id = ended_call(
            user,
            billsec,
            rng.choice(["447911123456", "14155550100"]),
            started_at=started,
            caller_country=country,
            caller_region=region,
            caller_line_type=line_type,
            **fields,
        )
        if not billsec and rng.random() < 0.4:
            change(Call, call_id, disposition=Disposition.BUSY.value)
        ids.append(call_id)
    return ids


def test_rollups_equal_the_call_rows_through_rating_rerating_and_rebuild() -> None:
    rng = random.Random(24)
    now = datetime.now(UTC)
    ids = random_calls(rng, now, 120)
    with session_scope() as s:  # the bridge's hand-off at hangup, one call at a time
        for call_id in ids[:15]:
            rating.rate_call(s, call_id)
    assert_rollups_exact()
    rating.rate_pending(batch=40)  # the worker's batches
    assert_rollups_exact()

    # Every price changes, earlier than the calls: re-rating moves each answered call's cost.
    tariff_id = int(rows("SELECT tariff_id FROM users WHERE tariff_id IS NOT NULL").pop()[0])
    rate(tariff_id, "44", "0.3000", effective_from=now - timedelta(days=10))
    spend = "SELECT (SELECT sum(spend) FROM call_rollup), (SELECT sum(spend) FROM call_region_rollup)"
    before = rows(spend).pop()
    result = rerate_period(now - timedelta(days=3), now + timedelta(hours=1), tariff_id=tariff_id)
    after = rows(spend).pop()
    assert result.adjusted and after[0] != before[0] and after[1] != before[1]
    assert_rollups_exact()

    with session_scope() as s:
        s.execute(text("UPDATE call_rollup SET calls = calls + 5"))  # drifted, however it happened
        s.execute(text("DELETE FROM call_rollup_day WHERE id IN (SELECT min(id) FROM call_rollup_day)"))
        s.execute(text("UPDATE call_region_rollup SET calls = calls + 3, caller_region = 'Mars'"))
        s.execute(text("UPDATE call_region_rollup_day SET spend = spend + 1"))
        rollups.rebuild(s)
    assert_rollups_exact()


def test_the_daily_region_rollup_rolls_a_days_hours_up() -> None:
    """A customer's calls from one origin over a day's hours are one daily row, whose sums are the
    calls' (issue 38: by the hour the rollup held nearly a row per call)."""
    day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=2)
    user = customer_id("1000", tariff(("44", "0.1000")))
    for hour in range(24):
        for minute in (5, 35):
            ended_call(
                user,
                60 + minute,
                started_at=day + timedelta(hours=hour, minutes=minute),
                caller_country="GB",
                caller_region="London",
                caller_line_type="fixed",
            )
    rating.rate_pending(batch=10)
    assert rows("SELECT count(*), sum(calls) FROM call_region_rollup") == {(24, 48)}
    assert rows("SELECT count(*), sum(calls), sum(talk_seconds) FROM call_region_rollup_day") == {
        (1, 48, 24 * (65 + 95))
    }
    assert_rollups_exact()


def test_two_workers_rating_calls_of_one_day_leave_the_sum_of_both() -> None:
    """Each worker sums its hour, then the whole day from the hours: the second waits for the first
    to commit, or its day would miss the first one's hour."""
    yesterday = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=1)
    user = customer_id("1000", tariff(("44", "0.1000")))
    early, late = (ended_call(user, 0, started_at=yesterday + timedelta(hours=h)) for h in (3, 15))
    second = threading.Thread(target=lambda: _rate_and_commit(late))
    with Session(get_engine(), expire_on_commit=False) as first:
        rating.rate_call(first, early)  # its day locked, not committed yet
        second.start()
        eventually(_waiting_for_the_rollup_lock, what="the second worker waits for the day's lock")
        first.commit()
    second.join(timeout=30)
    assert not second.is_alive()
    assert rows("SELECT calls FROM call_rollup_day") == {(2,)}
    assert_rollups_exact()


def test_rating_goes_on_while_the_rollups_are_rebuilt() -> None:
    """The rebuild takes one day at a time: waiting on a day a worker holds, it lets a call of
    another day be rated (a rebuild under one lock of both tables held every rating back)."""
    midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    user = customer_id("1000", tariff(("44", "0.1000")))
    held, other = (ended_call(user, 0, started_at=midnight - timedelta(days=d, hours=-5)) for d in (1, 3))
    rebuilding = threading.Thread(target=_rebuild)
    rating_other = threading.Thread(target=lambda: _rate_and_commit(other))
    with Session(get_engine(), expire_on_commit=False) as first:
        rating.rate_call(first, held)  # its day locked, not committed yet
        rebuilding.start()
        eventually(_waiting_for_the_rollup_lock, what="the rebuild waits for the held day")
        rating_other.start()
        rating_other.join(timeout=30)
        assert not rating_other.is_alive(), "rating waited for the rebuild"
        first.commit()
    rebuilding.join(timeout=60)
    assert not rebuilding.is_alive()
    assert rows("SELECT sum(calls) FROM call_rollup_day") == {(2,)}
    assert_rollups_exact()


def _rebuild() -> None:
    with session_scope() as s:
        rollups.rebuild(s)


def _rate_and_commit(call_id: int) -> None:
    with session_scope() as s:
        rating.rate_call(s, call_id)


def _waiting_for_the_rollup_lock() -> bool:
    return bool(
        rows("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'")
    )


def test_the_dashboard_adds_what_no_rollup_holds_yet(client: Any, admin: Actor) -> None:
    now = datetime.now(UTC)
    random_calls(random.Random(7), now, 60)  # a seventh of them in the current hour
    rating.rate_pending()
    ended_call(None, 30, started_at=now - timedelta(hours=5))  # ended, not rated yet
    talking = ended_call(None, 0, started_at=now - timedelta(hours=3))
    change(Call, talking, ended_at=None)
    r = client.get("/api/dashboard/call", headers=admin.headers, params={"type": "week"})
    assert r.status_code == 200, r.text
    shown = r.json()["data"]
    raw = rows(
        "SELECT count(*), count(*) FILTER (WHERE disposition = 'ANSWERED'), sum(talk_seconds),"
        " coalesce(sum(cost), 0) FROM call WHERE started_at >= :start AND started_at < :end".replace(
            ":start", f"'{shown['start']}'"
        ).replace(":end", f"'{shown['end']}'")
    ).pop()
    assert (shown["calls"], shown["answered"], shown["talk_seconds"]) == raw[:3]
    assert shown["calls"] == 62 and shown["spend"] == f"{raw[3]:.4f}"
