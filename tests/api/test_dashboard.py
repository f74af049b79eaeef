"""The dashboard: a period's counts in the caller's time zone, where calls went, and per-party totals,
equal to the call rows whichever rollups (daily, hourly) or rows they are read from."""

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from core.infra import names
from core.infra.db import get_engine, session_scope
from core.infra.redis_client import get_redis
from core.reporting import rollups
from testkit.actors import Actor, make_actor
from testkit.rows import seed_calls

NOW = datetime.now(UTC)


def local_midnight(tz: str) -> datetime:
    return datetime.combine(NOW.astimezone(ZoneInfo(tz)).date(), datetime.min.time(), ZoneInfo(tz))


def dashboard(client: Any, who: Actor, path: str, **params: Any) -> Any:
    r = client.get(f"/api/dashboard/{path}", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_today_counts_answered_missed_and_refused_calls_with_spend(
    client: Any, customer_a: Actor, customer_b: Actor
) -> None:
    today = max(local_midnight("Europe/Berlin") + timedelta(seconds=1), NOW - timedelta(minutes=1))
    yesterday = local_midnight("Europe/Berlin") - timedelta(hours=1)
    seed_calls(
        customer_a,
        "Roofing",
        {
            "started_at": today,
            "talk_seconds": 90,
            "cost": Decimal("1.25"),
            "payout": Decimal("4"),
            "converted": True,
        },
        {"started_at": today, "talk_seconds": 30, "cost": Decimal("0.25")},
        {"started_at": today, "disposition": "BUSY"},
        {"started_at": today, "disposition": "BLOCKED", "target_id": None},
        {"started_at": yesterday, "talk_seconds": 600},
    )
    seed_calls(customer_b, "Solar", {"started_at": today})

    day = dashboard(client, customer_a, "call")
    assert (day["calls"], day["answered"], day["missed"], day["refused"]) == (4, 2, 1, 1)
    assert day["talk_seconds"] == 120 and day["average_talk_seconds"] == 60 and day["converted"] == 1
    assert day["answer_rate"] == 0.5 and day["spend"] == "1.5000" and day["payout"] == "4.0000"
    assert sum(b["calls"] for b in day["series"]) == 4  # hourly buckets of the day
    assert dashboard(client, customer_a, "call", type="yesterday")["calls"] == 1
    assert dashboard(client, customer_a, "call", type="week")["calls"] == 5
    assert dashboard(client, customer_b, "call")["calls"] == 1  # its own only


def test_call_detail_shows_where_the_calls_went(client: Any, customer_a: Actor) -> None:
    seed_calls(customer_a, "Roofing", {"started_at": NOW}, {"started_at": NOW, "disposition": "NO ANSWER"})
    seed_calls(customer_a, "Solar", {"started_at": NOW})
    detail = dashboard(client, customer_a, "call-detail")
    assert {d["disposition"]: d["calls"] for d in detail["by_disposition"]} == {"ANSWERED": 2, "NO ANSWER": 1}
    assert [(c["name"], c["calls"], c["answered"]) for c in detail["by_campaign"]] == [
        ("Roofing", 2, 1),
        ("Solar", 1, 1),
    ]
    assert [t["name"] for t in detail["by_target"]] == ["Roofing desk", "Solar desk"]


def test_buyers_see_their_payout_never_the_spend(client: Any, customer_a: Actor, buyer_a: Actor) -> None:
    seed_calls(
        customer_a,
        "Roofing",
        {"started_at": NOW, "buyer_id": buyer_a.buyer_id, "payout": Decimal("3")},
        {"started_at": NOW},
    )
    mine = dashboard(client, buyer_a, "call")
    assert mine["calls"] == 1 and mine["payout"] == "3.0000" and mine["spend"] is None
    counts = dashboard(client, buyer_a, f"BuyerCounts/{buyer_a.buyer_id}")
    assert counts["today"]["calls"] == 1 and counts["month"]["calls"] >= 1


def test_customer_counts_per_customer_with_live_calls(
    client: Any, admin: Actor, customer_a: Actor, customer_b: Actor, buyer_a: Actor
) -> None:
    seed_calls(customer_a, "Roofing", {"started_at": NOW}, {"started_at": NOW, "disposition": "BUSY"})
    get_redis().sadd(names.live_user_key(customer_b.id), "1700000000.9")  # one call up now
    try:
        everyone = {c["name"]: c for c in dashboard(client, admin, "CustomerCounts")}
        mine = dashboard(client, customer_a, "CustomerCounts")
    finally:
        get_redis().delete(names.live_user_key(customer_b.id))
    assert (
        everyone["Alice Customer"]["today"]["calls"] == 2
        and everyone["Alice Customer"]["today"]["answered"] == 1
    )
    assert everyone["Bob Customer"]["live_calls"] == 1 and everyone["Bob Customer"]["month"]["calls"] == 0
    assert [c["name"] for c in mine] == ["Alice Customer"]
    # Buyers: their own counts only; another customer's buyer is not found.
    assert client.get("/api/dashboard/CustomerCounts", headers=buyer_a.headers).status_code == 403
    other = make_actor(3, "Other Buyer", owner=customer_b)
    assert (
        client.get(f"/api/dashboard/BuyerCounts/{other.buyer_id}", headers=customer_a.headers).status_code
        == 404
    )


def test_an_unknown_period_is_refused(client: Any, customer_a: Actor) -> None:
    r = client.get("/api/dashboard/call", headers=customer_a.headers, params={"type": "decade"})
    assert r.status_code == 422 and "type" in r.json()["errors"]


def _edges(tz: str) -> list[datetime]:
    """Instants where the dashboard switches between its sources: the local month's and today's
    midnights, UTC midnights, whole hours, now."""
    zone = ZoneInfo(tz)
    month = local_midnight(tz).replace(day=1)
    month = datetime.combine(month.date(), datetime.min.time(), zone)
    utc_day = NOW.replace(hour=0, minute=0, second=0, microsecond=0)
    hour = NOW.replace(minute=0, second=0, microsecond=0)
    around = [
        month,
        local_midnight(tz),
        utc_day,
        utc_day - timedelta(days=3),
        hour,
        hour - timedelta(hours=1),
    ]
    return [at + timedelta(seconds=s) for at in around for s in (-60, 0, 59)] + [NOW - timedelta(seconds=5)]


def _rolled_up_calls(owner: Actor, tz: str, rng: random.Random) -> None:
    """Calls over the last 40 days and at every edge, most rated (in the rollups), some not yet."""
    starts = [NOW - timedelta(seconds=rng.randrange(1, 40 * 86400)) for _ in range(300)] + _edges(tz)
    rows = seed_calls(
        owner,
        "Month",
        *[
            {
                "started_at": at,
                "disposition": rng.choice(["ANSWERED", "ANSWERED", "BUSY", "NO ANSWER", "BLOCKED"]),
                "talk_seconds": rng.randrange(0, 400),
                "cost": Decimal(rng.randrange(0, 5000)) / 1000,
                "rating_status": "rated" if rng.random() < 0.9 else "pending",
            }
            for at in starts
            if at <= NOW
        ],
    )
    with session_scope() as s:  # as rating hands them over
        rollups.refresh(s, [c.id or 0 for c in rows if c.rating_status == "rated"])


RAW = """
SELECT date_trunc(:unit, started_at AT TIME ZONE :tz), count(*),
       count(*) FILTER (WHERE disposition = 'ANSWERED'), sum(talk_seconds), sum(cost)
FROM call WHERE user_id = :user AND started_at >= :start AND started_at < :end GROUP BY 1
"""


@pytest.mark.parametrize("tz", ["America/New_York", "Europe/Berlin", "UTC"])
def test_totals_and_series_equal_the_call_rows_across_the_month_start_and_part_days(
    client: Any, tz: str
) -> None:
    owner = make_actor(2, "Zoe Zone", timezone=tz)
    _rolled_up_calls(owner, tz, random.Random(tz))
    for period, unit in (("month", "day"), ("week", "day"), ("today", "hour"), ("yesterday", "hour")):
        shown = dashboard(client, owner, "call", type=period)
        params = {"unit": unit, "tz": tz, "user": owner.id, "start": shown["start"], "end": shown["end"]}
        with get_engine().connect() as conn:
            raw = conn.execute(text(RAW), params).all()
        assert raw, period
        assert shown["calls"] == sum(r[1] for r in raw) and shown["answered"] == sum(r[2] for r in raw), (
            period
        )
        assert shown["talk_seconds"] == sum(r[3] for r in raw), period
        assert Decimal(shown["spend"]) == sum(r[4] for r in raw), period
        series = {
            datetime.fromisoformat(b["at"]).replace(tzinfo=None): (b["calls"], b["answered"])
            for b in shown["series"]
        }
        assert series == {r[0]: (r[1], r[2]) for r in raw}, period
        detail = dashboard(client, owner, "call-detail", type=period)
        assert sum(d["calls"] for d in detail["by_disposition"]) == shown["calls"], period
        assert [(c["name"], c["calls"]) for c in detail["by_campaign"]] == [("Month", shown["calls"])], period
