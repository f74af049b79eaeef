"""The dashboard's breakdown by caller region adds the calls no rollup holds yet. (That the region
rollup equals the call rows it sums is checked with the hourly and daily ones in test_rollups.py.)"""

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from core.billing import rating
from core.models import Call
from testkit.actors import Actor
from testkit.rows import call as ended_call
from testkit.rows import change
from tests.billing.test_rollups import random_calls, rows


def test_the_dashboard_breaks_calls_down_by_region_as_the_rows_count_them(
    client: Any, admin: Actor, customer_a: Actor, customer_b: Actor
) -> None:
    now = datetime.now(UTC)
    random_calls(random.Random(3), now, 40)
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
    raw = rows(
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
