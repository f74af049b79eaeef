"""Reports by traffic source (issue 33, docs/reports.md): the report's rows name each call's source
(its traffic source, else its visit's) with publisher payout and profit, filter by source within the
tenant, and the dashboard sums the period by source; a buyer sees none of it."""

import csv
import io
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from core.billing.rating import rate_pending
from core.models import CallAttribution, TrafficSource, User
from testkit.actors import Actor
from testkit.rows import call, campaign_with_target, change, save, tariff


def _world(customer: Actor, buyer: Actor) -> dict[str, int]:
    """Four rated calls of `customer` today, to `buyer`: a converted one each from Radio (fixed 1.00),
    Partner (10 % share) and a visit from google with no traffic source, and a short one with none."""
    change(User, customer.id, tariff_id=tariff(("44", "0.1000")))
    campaign, target = campaign_with_target(customer.id, buffer_seconds=60, payout="5")
    radio = save(
        TrafficSource(user_id=customer.id, name="Radio", payout_kind="fixed", payout_amount=Decimal(1))
    )
    partner = save(
        TrafficSource(user_id=customer.id, name="Partner", payout_kind="share", payout_share=Decimal(10))
    )
    now = datetime.now(UTC)
    made = {}
    for name, source_id, talk, started in (
        ("radio", radio.id, 90, now - timedelta(hours=2)),
        ("partner", partner.id, 90, now - timedelta(minutes=2)),
        ("google", None, 90, now - timedelta(hours=2)),
        ("short", None, 30, now - timedelta(minutes=2)),
    ):
        made[name] = call(
            customer.id,
            90,
            started_at=started,
            campaign_id=campaign,
            target_id=target,
            buyer_id=buyer.buyer_id,
            source_id=source_id,
            talk_seconds=talk,
        )
    save(
        CallAttribution(
            call_id=made["google"],
            call_started_at=now - timedelta(hours=2),
            user_id=customer.id,
            status="matched",
            source="google",
        )
    )
    rate_pending()
    return {**made, "radio_source": radio.id or 0, "partner_source": partner.id or 0}


def _rows(client: Any, who: Actor, **params: Any) -> dict[int, dict]:
    r = client.get("/api/report", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    return {row["id"]: row for row in r.json()["data"]["data"]}


def test_report_rows_name_the_source_and_show_publisher_payout_and_profit(
    client: Any, customer_a: Actor, customer_b: Actor, buyer_a: Actor
) -> None:
    w = _world(customer_a, buyer_a)
    rows = _rows(client, customer_a)
    got = {
        name: (rows[w[name]]["source_name"], rows[w[name]]["publisher_payout"], rows[w[name]]["profit"])
        for name in ("radio", "partner", "google", "short")
    }
    # 90 s at 0.10/min in whole minutes: 0.20; revenue 5 when converted.
    assert got == {
        "radio": ("Radio", "1.0000", "3.8000"),
        "partner": ("Partner", "0.5000", "4.3000"),
        "google": ("google", "0.0000", "4.8000"),
        "short": (None, "0.0000", "-0.2000"),
    }
    assert list(_rows(client, customer_a, source_id=w["radio_source"])) == [w["radio"]]
    foreign = client.get("/api/report", headers=customer_b.headers, params={"source_id": w["radio_source"]})
    assert foreign.status_code == 404 and list(foreign.json()["errors"]) == ["source_id"]

    saved = client.post(
        "/api/report/save", headers=customer_a.headers, params={"source_id": w["partner_source"]}
    )
    lines = list(csv.DictReader(io.StringIO(saved.text)))
    assert [(r["source_name"], r["publisher_payout"], r["profit"]) for r in lines] == [
        ("Partner", "0.5000", "4.3000")
    ]


def test_the_dashboard_sums_the_period_by_source_and_a_buyer_sees_none_of_it(
    client: Any, customer_a: Actor, customer_b: Actor, buyer_a: Actor
) -> None:
    w = _world(customer_a, buyer_a)
    r = client.get("/api/dashboard/call-source", headers=customer_a.headers, params={"type": "week"})
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    sliced = [
        (
            s["name"],
            s["calls"],
            s["answered"],
            s["converted"],
            s["revenue"],
            s["cost"],
            s["publisher_payout"],
            s["profit"],
        )
        for s in data["by_source"]
    ]
    assert sliced == [
        ("(no source)", 2, 2, 1, "5.0000", "0.4000", "0.0000", "4.6000"),
        ("Partner", 1, 1, 1, "5.0000", "0.2000", "0.5000", "4.3000"),
        ("Radio", 1, 1, 1, "5.0000", "0.2000", "1.0000", "3.8000"),
    ]
    total = data["total"]
    assert (total["calls"], total["revenue"], total["publisher_payout"], total["profit"]) == (
        4,
        "15.0000",
        "1.5000",
        "12.7000",
    )
    others = client.get(
        "/api/dashboard/call-source", headers=customer_b.headers, params={"type": "week"}
    ).json()
    assert others["data"]["by_source"] == [] and others["data"]["total"]["calls"] == 0

    assert client.get("/api/dashboard/call-source", headers=buyer_a.headers).status_code == 403
    assert client.get("/api/sources", headers=buyer_a.headers).status_code == 403
    delivered = client.post("/api/buyer/buyer-report", json={}, headers=buyer_a.headers).json()["data"][
        "data"
    ]
    assert {row["id"] for row in delivered} == {w[n] for n in ("radio", "partner", "google", "short")}
    assert not any(k in delivered[0] for k in ("source_name", "source_id", "publisher_payout", "profit"))
