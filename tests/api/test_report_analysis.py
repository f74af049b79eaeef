"""The report as an analysis tool (issue 37): sorted pages walked by keyset, totals and groups equal
to sums computed here from the seeded calls, filters by campaign, target and buyer id, saved views
per person, and each tenant's (and buyer's) own calls only."""

import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, select

from core.infra.db import get_engine
from core.models import Buyer, Call, CallConversation, Campaign, Target
from testkit.actors import Actor
from testkit.rows import save, seed_calls

DISPOSITIONS = ("ANSWERED", "ANSWERED", "NO ANSWER", "BUSY")


def get(client: Any, who: Actor, path: str = "", **params: Any) -> Any:
    r = client.get(f"/api/report{path}", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    return r.json()["data"]


@pytest.fixture
def seeded(customer_a: Actor, customer_b: Actor, buyer_a: Actor) -> list[Call]:
    """60 calls of customer_a over three days in two campaigns, some to buyer_a, random measures
    (some unrated: no cost); 5 of customer_b's that no sum of customer_a may include."""
    rng = random.Random(37)
    start = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)  # 21:00 in Berlin: local days differ from UTC's
    calls: list[Call] = []
    for campaign in ("Solar", "Roofing"):

        def one(i: int) -> dict[str, Any]:
            cost = None if rng.random() < 0.2 else Decimal(rng.randrange(0, 50000)) / 10000
            payout = Decimal(rng.randrange(0, 90000)) / 10000
            # Some rated calls owe a publisher; rating set their profit (docs/billing.md).
            owed = Decimal(rng.randrange(0, 20000)) / 10000 if cost is not None and i % 3 == 0 else Decimal(0)
            return {
                "started_at": start + timedelta(minutes=rng.randrange(0, 3 * 24 * 60), microseconds=i),
                "duration": rng.randrange(0, 600),
                "disposition": rng.choice(DISPOSITIONS),
                "converted": rng.random() < 0.3,
                "cost": cost,
                "payout": payout,
                "publisher_payout": owed,
                "profit": None if cost is None else payout - cost - owed,
                "did": rng.choice(("+442071838750", "+442071838751", "+442071838752")),
                **({"buyer_id": buyer_a.buyer_id} if rng.random() < 0.4 else {}),
            }

        calls += seed_calls(customer_a, campaign, *(one(i) for i in range(30)))
    seed_calls(customer_b, "Other", *({"cost": Decimal("1"), "payout": Decimal("9")} for _ in range(5)))
    return calls


def _sums(calls: list[Call], money: bool = True) -> dict[str, Any]:
    cost = sum((c.cost or Decimal(0) for c in calls), Decimal(0))
    revenue = sum((c.payout for c in calls), Decimal(0))
    owed = sum((c.publisher_payout for c in calls), Decimal(0))
    return {
        "calls": len(calls),
        "answered": sum(c.disposition == "ANSWERED" for c in calls),
        "converted": sum(c.converted for c in calls),
        "revenue": f"{revenue:.4f}",
        "cost": f"{cost:.4f}" if money else None,
        "publisher_payout": f"{owed:.4f}" if money else None,
        "profit": f"{revenue - cost - owed:.4f}" if money else None,
    }


def test_totals_and_every_grouping_equal_sums_of_the_calls(
    client: Any, customer_a: Actor, seeded: list[Call]
) -> None:
    assert get(client, customer_a, "/totals") == _sums(seeded)
    # Keyword rules' tags, in whichever order the rules gave them: a call counts in one group.
    tag_sets = ([], ["booked"], ["spam", "booked"], ["booked", "spam"], ["spam"])
    tags = {c.id: tag_sets[n % len(tag_sets)] for n, c in enumerate(seeded)}
    for call_id, said in tags.items():
        if call_id % 7:  # and some calls never transcribed
            save(CallConversation(call_id=call_id, tags=said))
    berlin = ZoneInfo("Europe/Berlin")
    campaigns, targets, buyers = ({r.id: r.name for r in _rows(m)} for m in (Campaign, Target, Buyer))
    keys = {
        "campaign": lambda c: campaigns[c.campaign_id],
        "target": lambda c: targets[c.target_id],
        "buyer": lambda c: buyers[c.buyer_id],
        "number": lambda c: c.did,
        "day": lambda c: c.started_at.astimezone(berlin).strftime("%Y-%m-%d"),
        "hour": lambda c: c.started_at.astimezone(berlin).strftime("%Y-%m-%d %H:00"),
        "tag": lambda c: ", ".join(sorted(tags[c.id])) if c.id % 7 and tags[c.id] else "(none)",
    }
    for by, key in keys.items():
        expected: dict[str, list[Call]] = defaultdict(list)
        for c in seeded:
            expected[key(c)].append(c)
        answer = get(client, customer_a, "/groups", by=by)
        assert answer["totals"] == _sums(seeded), by
        got = {g["name"]: {k: g[k] for k in _sums([])} for g in answer["groups"]}
        assert got == {name: _sums(calls) for name, calls in expected.items()}, by
        counts = [g["calls"] for g in answer["groups"]]
        assert counts == sorted(counts, reverse=True) and answer["more"] is False

    # The same filters as the report: one campaign by id, and a day in the customer's zone.
    solar = next(c.campaign_id for c in seeded if campaigns[c.campaign_id] == "Solar")
    in_solar = [c for c in seeded if c.campaign_id == solar]
    assert get(client, customer_a, "/totals", campaign_id=solar) == _sums(in_solar)
    day = [c for c in seeded if keys["day"](c) == "2026-11-21"]
    assert get(client, customer_a, "/groups", by="campaign", fromDate="2026-11-21", toDate="2026-11-21")[
        "totals"
    ] == _sums(day)


def _rows(model: Any) -> list[Any]:
    with Session(get_engine()) as s:
        return list(s.exec(select(model)))


def test_sorted_pages_walked_after_a_call_are_the_calls_in_that_order(
    client: Any, customer_a: Actor, seeded: list[Call]
) -> None:
    for sort, key in (
        ("duration", lambda c: c.duration),
        ("cost", lambda c: c.cost or Decimal(0)),
        ("payout", lambda c: c.payout),
        ("started_at", lambda c: c.started_at),
    ):
        for direction in ("desc", "asc"):
            expected = sorted(seeded, key=lambda c: (key(c), c.id), reverse=direction == "desc")
            walked: list[int] = []
            after = None
            for page in (1, 2, 3, 4, 5, 6, 7):
                found = get(
                    client,
                    customer_a,
                    sort=sort,
                    direction=direction,
                    perpage=9,
                    page=page,
                    **({"after": after} if after else {}),
                )
                walked += [c["id"] for c in found["data"]]
                after = found["next_after"]
                if after is None:
                    break
            assert walked == [c.id for c in expected], (sort, direction)
            # A page asked by number is the same page.
            third = get(client, customer_a, sort=sort, direction=direction, perpage=9, page=3)
            assert [c["id"] for c in third["data"]] == walked[18:27]
    first = get(client, customer_a, sort="cost", perpage=1)["data"][0]
    owed = Decimal(first["publisher_payout"])
    assert Decimal(first["profit"]) == Decimal(first["payout"]) - Decimal(first["cost"]) - owed


def test_bad_sort_and_group_keys_are_refused_and_say_which(client: Any, customer_a: Actor) -> None:
    for params in ({"sort": "caller"}, {"direction": "sideways"}):
        r = client.get("/api/report", headers=customer_a.headers, params=params)
        assert list(r.json()["errors"]) == list(params)
    for by in ("colour", "", "campaign;drop"):
        r = client.get("/api/report/groups", headers=customer_a.headers, params={"by": by})
        assert r.status_code == 422 and list(r.json()["errors"]) == ["by"], r.text
    r = client.get("/api/report/groups", headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["by"]


def test_id_filters_and_groups_keep_to_the_callers_own_calls(
    client: Any, admin: Actor, customer_a: Actor, customer_b: Actor, buyer_a: Actor, seeded: list[Call]
) -> None:
    campaign, target, buyer = seeded[0].campaign_id, seeded[0].target_id, seeded[0].buyer_id
    for field, value in (("campaign_id", campaign), ("target_id", target), ("buyer_id", buyer)):
        for path in ("", "/totals"):
            r = client.get(f"/api/report{path}", headers=customer_b.headers, params={field: value})
            assert r.status_code == 404 and list(r.json()["errors"]) == [field], r.text
        r = client.get("/api/report/groups", headers=customer_b.headers, params={field: value, "by": "day"})
        assert r.status_code == 404
    theirs = get(client, customer_b, "/groups", by="campaign")
    assert [g["name"] for g in theirs["groups"]] == ["Other"] and theirs["totals"]["calls"] == 5
    assert get(client, admin, "/totals")["calls"] == len(seeded) + 5
    assert get(client, admin, "/totals", user_id=customer_b.id)["calls"] == 5

    # A buyer sums its own calls, sees what it pays (revenue) and never the customer's cost or profit.
    mine = [c for c in seeded if c.buyer_id == buyer_a.buyer_id]
    assert get(client, buyer_a, "/totals") == _sums(mine, money=False)
    by_target = get(client, buyer_a, "/groups", by="target")
    assert by_target["totals"] == _sums(mine, money=False)
    assert all(g["cost"] is None and g["profit"] is None for g in by_target["groups"])
    for hidden in ("campaign", "buyer"):
        r = client.get("/api/report/groups", headers=buyer_a.headers, params={"by": hidden})
        assert r.status_code == 403 and list(r.json()["errors"]) == ["by"], r.text
    # Nor is the customer's call list its to read.
    assert client.get("/api/report", headers=buyer_a.headers).status_code == 403


def test_saved_views_are_each_persons_own(
    client: Any, customer_a: Actor, customer_b: Actor, admin: Actor
) -> None:
    view = {
        "name": "Solar this month",
        "filters": {"preset": "month", "campaign_id": "7", "disposition": "ANSWERED"},
        "columns": ["started_at", "caller", "revenue", "profit"],
        "sort": "cost",
        "direction": "asc",
        "group_by": "campaign",
    }
    r = client.post("/api/report/views", headers=customer_a.headers, json=view)
    assert r.status_code == 201, r.text
    saved = r.json()["data"]
    assert {k: saved[k] for k in view} == view
    assert get(client, customer_a, "/views") == [saved]
    # The same name again is refused; another person may use it.
    r = client.post("/api/report/views", headers=customer_a.headers, json=view)
    assert r.status_code == 409 and list(r.json()["errors"]) == ["name"]
    assert client.post("/api/report/views", headers=customer_b.headers, json=view).status_code == 201

    # Another person's view (an admin's too) is not there: 404, nothing changed.
    for who in (customer_b, admin):
        assert [v["id"] for v in get(client, who, "/views")] != [saved["id"]]
        path = f"/api/report/views/{saved['id']}"
        assert client.put(path, headers=who.headers, json={**view, "name": "Mine"}).status_code == 404
        assert client.delete(path, headers=who.headers).status_code == 404
    assert get(client, customer_a, "/views") == [saved]

    r = client.put(
        f"/api/report/views/{saved['id']}",
        headers=customer_a.headers,
        json={**view, "sort": "duration", "group_by": None},
    )
    assert r.status_code == 200, r.text
    assert (r.json()["data"]["sort"], r.json()["data"]["group_by"]) == ("duration", None)
    for bad in (
        {"sort": "caller"},
        {"group_by": "colour"},
        {"columns": ["trail"]},
        {"filters": {"params": "x"}},
    ):
        r = client.post("/api/report/views", headers=customer_a.headers, json={**view, "name": "x", **bad})
        assert r.status_code == 422, (bad, r.text)
    assert client.delete(f"/api/report/views/{saved['id']}", headers=customer_a.headers).status_code == 200
    assert get(client, customer_a, "/views") == []
