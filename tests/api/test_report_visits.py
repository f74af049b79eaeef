"""The call report by the visit a call came from: medium, UTM campaign, keyword, landing page (how
it starts) and click id, on the page and in the CSV, each customer's own visits only."""

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.models import CallAttribution
from testkit.actors import Actor
from testkit.rows import save, seed_calls

DAY = datetime(2026, 11, 20, 10, tzinfo=UTC)
VISITS = {  # linkedid suffix -> the visit (None: no visit known)
    0: ("cpc", "spring", "roof repair", "https://roofs.example/offer?x=1", "gclid", "Cj0KCQ"),
    1: ("cpc", "spring", "gutters", "https://roofs.example/gutters", None, None),
    2: ("email", "newsletter", None, "https://roofs.example/offer", "fbclid", "IwAR"),
    3: None,
}


@pytest.fixture
def visits(customer_a: Actor, customer_b: Actor) -> dict[str, int]:
    """A's four calls (three with a visit), and B's one, whose visit looks like A's first."""
    ids = {}
    calls = seed_calls(customer_a, "Roofing", *({"started_at": DAY + timedelta(minutes=i)} for i in VISITS))
    theirs = seed_calls(customer_b, "Solar", {"started_at": DAY})
    for owner, i, row in [(customer_a, i, c) for i, c in enumerate(calls)] + [(customer_b, 0, theirs[0])]:
        ids[f"{owner.id}.{i}"] = row.id or 0
        visit = VISITS[i]
        if visit is None:
            continue
        medium, campaign, keyword, landing, kind, click = visit
        save(
            CallAttribution(
                call_id=row.id,
                call_started_at=row.started_at,
                user_id=owner.id,
                status="matched",
                source="google",
                medium=medium,
                campaign=campaign,
                keyword=keyword,
                landing_page=landing,
                click_id=click,
                click_id_kind=kind,
            )
        )
    return ids


def _ids(client: Any, who: Actor, **params: Any) -> list[str]:
    r = client.get("/api/report", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    return sorted(c["linkedid"].rsplit(".", 1)[1] for c in r.json()["data"]["data"])


def test_each_visit_filter_picks_its_calls_in_the_callers_scope(
    client: Any, customer_a: Actor, customer_b: Actor, admin: Actor, visits: dict[str, int]
) -> None:
    a = customer_a
    assert _ids(client, a, medium="cpc") == ["0", "1"]
    assert _ids(client, a, utm_campaign="spring") == ["0", "1"]
    assert _ids(client, a, utm_campaign="Spring") == []  # as the URL carried it, exactly
    assert _ids(client, a, keyword="gutters") == ["1"]
    assert _ids(client, a, landing_page="https://roofs.example/offer") == ["0", "2"]
    assert _ids(client, a, landing_page="https://roofs.example/o%") == []  # % is no wildcard
    assert _ids(client, a, has_click_id="true") == ["0", "2"]
    assert _ids(client, a, has_click_id="false") == ["1", "3"]  # no click id, or no visit at all
    assert _ids(client, a, medium="cpc", has_click_id="true") == ["0"]
    assert _ids(client, a, utm_campaign="spring", fromDate="2026-11-21") == []
    # B's visit carries A's values: B sees its own call, A never sees B's.
    assert _ids(client, customer_b, utm_campaign="spring") == ["0"]
    assert len(_ids(client, admin, utm_campaign="spring")) == 3
    assert len(_ids(client, admin, utm_campaign="spring", user_id=a.id)) == 2


def test_rows_and_the_csv_carry_the_visit(client: Any, customer_a: Actor, visits: dict[str, int]) -> None:
    r = client.get("/api/report", headers=customer_a.headers, params={"has_click_id": "true"})
    rows = {c["linkedid"].rsplit(".", 1)[1]: c for c in r.json()["data"]["data"]}
    assert {k: rows["0"][k] for k in ("medium", "utm_campaign", "keyword", "landing_page")} == {
        "medium": "cpc",
        "utm_campaign": "spring",
        "keyword": "roof repair",
        "landing_page": "https://roofs.example/offer?x=1",
    }
    assert (rows["0"]["click_id"], rows["0"]["click_id_kind"]) == ("Cj0KCQ", "gclid")
    everything = client.get("/api/report", headers=customer_a.headers).json()["data"]["data"]
    none = next(c for c in everything if c["linkedid"].endswith(".3"))
    assert none["medium"] is None and none["click_id"] is None

    r = client.post("/api/report/save", headers=customer_a.headers, params={"medium": "cpc"})
    assert r.status_code == 200, r.text
    lines = list(csv.DictReader(io.StringIO(r.text)))
    assert sorted((x["utm_campaign"], x["keyword"], x["click_id"]) for x in lines) == [
        ("spring", "gutters", ""),
        ("spring", "roof repair", "Cj0KCQ"),
    ]


def test_visit_filters_are_checked(client: Any, customer_a: Actor) -> None:
    for params in ({"has_click_id": "maybe"}, {"medium": "x" * 129}, {"landing_page": "x" * 2049}):
        r = client.get("/api/report", headers=customer_a.headers, params=params)
        assert r.status_code == 422, (params, r.text)
        assert set(r.json()["errors"]) == set(params)
