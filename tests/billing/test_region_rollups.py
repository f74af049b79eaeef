"""The rollups by caller region stay equal to the call rows they sum, through rating, re-rating and
the nightly rebuild; and the dashboard's breakdown by region adds the calls no rollup holds yet."""

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text

from core import rollups
from core.billing import rating
from core.billing.rerate import rerate_period
from core.db import get_engine, session_scope
from core.models import Call, Target
from testkit.actors import Actor
from testkit.rows import call as ended_call
from testkit.rows import campaign_with_target, change, customer_id, get, rate, tariff

# Written independently of core/region_rollups.py, so a mistake there shows here.
FRESH = """
SELECT date_trunc('hour', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', user_id, campaign_id,
       caller_country, caller_region, caller_line_type, count(*),
       count(*) FILTER (WHERE disposition = 'ANSWERED'), count(*) FILTER (WHERE converted),
       sum(talk_seconds), coalesce(sum(cost), 0), sum(payout)
FROM call WHERE rating_status <> 'pending' GROUP BY 1, 2, 3, 4, 5, 6
"""
ROLLED = """
SELECT hour, user_id, campaign_id, caller_country, caller_region, caller_line_type, sum(calls), sum(answered),
       sum(converted), sum(talk_seconds), sum(spend), sum(payout)
FROM call_region_rollup GROUP BY 1, 2, 3, 4, 5, 6
"""
ORIGINS = [
    ("GB", "London", "fixed"),
    ("US", "California", "unknown"),
    ("GB", "unknown", "mobile"),
    ("unknown", "unknown", "unknown"),
    (None, None, None),  # a row from before origins were read
]


def _rows(sql: str) -> set[tuple[Any, ...]]:
    with get_engine().connect() as conn:
        return {tuple(r) for r in conn.execute(text(sql))}


def assert_exact() -> None:
    fresh = _rows(FRESH)
    assert fresh and _rows(ROLLED) == fresh


def _calls(rng: random.Random, now: datetime, n: int) -> list[int]:
    tariff_id = tariff(("44", "0.1000"), ("1", "0.0200"))
    lines = []
    for _ in range(2):
        user = customer_id("1000", tariff_id)
        campaign, target = campaign_with_target(user, payout="3")
        lines.append((user, campaign, target, get(Target, target).buyer_id))
    ids = []
    for k in range(n):
        user, campaign, target, buyer = rng.choice(lines)
        country, region, line_type = rng.choice(ORIGINS)
        started = now - timedelta(seconds=rng.randrange(0, 2 * 86400)) if k % 7 else now
        ids.append(
            ended_call(
                user,
                rng.choice([0, rng.randrange(1, 600)]),
                rng.choice(["447911123456", "14155550100"]),
                started_at=started,
                campaign_id=campaign,
                target_id=target,
                buyer_id=buyer,
                caller_country=country,
                caller_region=region,
                caller_line_type=line_type,
            )
        )
    return ids


def test_region_rollups_equal_a_fresh_aggregate_after_rating_rerating_and_rebuild() -> None:
    now = datetime.now(UTC)
    ids = _calls(random.Random(22), now, 90)
    with session_scope() as s:
        for call_id in ids[:10]:
            rating.rate_call(s, call_id)
    assert_exact()
    rating.rate_pending(batch=30)
    assert_exact()
    tariff_id = int(_rows("SELECT tariff_id FROM users WHERE tariff_id IS NOT NULL").pop()[0])
    rate(tariff_id, "44", "0.3000", effective_from=now - timedelta(days=10))
    before = _rows("SELECT sum(spend) FROM call_region_rollup")
    rerate_period(now - timedelta(days=3), now + timedelta(hours=1), tariff_id=tariff_id)
    assert _rows("SELECT sum(spend) FROM call_region_rollup") != before
    assert_exact()
    with session_scope() as s:
        s.execute(text("UPDATE call_region_rollup SET calls = calls + 3, caller_region = 'Mars'"))
        rollups.rebuild(s)
    assert_exact()


def test_the_dashboard_breaks_calls_down_by_region_as_the_rows_count_them(
    client: Any, admin: Actor, customer_a: Actor, customer_b: Actor
) -> None:
    now = datetime.now(UTC)
    _calls(random.Random(3), now, 40)
    rating.rate_pending()
    ended_call(None, 30, started_at=now - timedelta(hours=5), caller_country="GB", caller_region="London")
    talking = ended_call(
        None, 0, started_at=now - timedelta(hours=3), caller_country="GB", caller_region="London"
    )
    change(Call, talking, ended_at=None)  # still talking: no rollup has it
    r = client.get("/api/dashboard/call-region", headers=admin.headers, params={"type": "week"})
    assert r.status_code == 200, r.text
    shown = r.json()["data"]
    window = "started_at >= date_trunc('day', now()) - interval '8 days'"
    raw = _rows(
        "SELECT caller_country, caller_region, count(*), count(*) FILTER (WHERE disposition = 'ANSWERED'),"
        f" sum(talk_seconds) FROM call WHERE {window} GROUP BY 1, 2"
    )
    assert {
        (s["country"], s["region"], s["calls"], s["answered"], s["talk_seconds"]) for s in shown["by_region"]
    } == raw
    by_country = {s["country"]: s["calls"] for s in shown["by_country"]}
    assert sum(by_country.values()) == sum(s["calls"] for s in shown["by_line_type"]) == 42
    assert by_country["GB"] == sum(n for c, _, n, _, _ in raw if c == "GB")
    # A customer sees its own calls only (none here: the calls belong to customers of the factory).
    mine = client.get("/api/dashboard/call-region", headers=customer_b.headers, params={"type": "week"})
    assert mine.status_code == 200 and mine.json()["data"]["by_region"] == []
