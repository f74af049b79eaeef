"""Caller-region settings through the API (docs/regions.md): targets and campaigns store checked
places and line types, bad input is a clear 422 that changes nothing, the region catalogue, and the
report's origin filters and the dashboard's breakdown keep to the caller's tenant."""

from datetime import UTC, datetime

from sqlalchemy import text

from core.infra.db import get_engine, session_scope
from core.models import Campaign, Target
from testkit.rows import MAR
from testkit.rows import call as ended_call
from tests.api.test_buyers_targets import make_buyer, make_target
from tests.api.test_campaigns import make_campaign
from tests.api.test_report_plans import assert_indexed, calls, page_plan, statements

RULES = {"mode": "accept", "regions": ["us:California", "GB"], "excluded_line_types": ["mobile", "mobile"]}


def test_a_target_keeps_its_region_rules_checked_and_normalised(client, customer_a) -> None:
    buyer = make_buyer(client, customer_a)
    target = make_target(client, customer_a, buyer["id"], region_rules=RULES)
    assert target["region_rules"] == {
        "mode": "accept",
        "regions": ["US:California", "GB"],
        "excluded_line_types": ["mobile"],
        "accept_unknown": True,
    }
    plain = make_target(client, customer_a, buyer["id"], name="Plain desk")
    assert plain["region_rules"] == {
        "mode": "all",
        "regions": [],
        "excluded_line_types": [],
        "accept_unknown": True,
    }
    r = client.put(f"/api/target/{plain['id']}", json={"name": "Renamed"}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["region_rules"]["mode"] == "all"  # left out: unchanged


def test_bad_region_settings_are_refused_and_change_nothing(client, customer_a) -> None:
    buyer = make_buyer(client, customer_a)
    target = make_target(
        client, customer_a, buyer["id"], region_rules={"mode": "exclude", "regions": ["GB:London"]}
    )
    bad = [
        ({"mode": "exclude", "regions": ["XX"]}, "'XX' is not an ISO 3166 country code"),
        ({"mode": "exclude", "regions": ["US:Californa"]}, "'Californa' is not a region of US"),
        ({"mode": "accept", "regions": []}, "needs at least one place"),
        ({"excluded_line_types": ["satellite"]}, "mobile"),
        ({"excluded_line_types": ["mobile", "fixed", "other", "unknown"]}, "would take no call"),
        ({"accept_unknown": "yes"}, "true or false"),
        ({"mode": "all", "colour": "red"}, "Extra inputs"),
        (None, "valid dictionary"),
    ]
    for rules, says in bad:
        r = client.put(
            f"/api/target/{target['id']}", json={"region_rules": rules}, headers=customer_a.headers
        )
        assert r.status_code == 422, (rules, r.text)
        assert "region_rules" in str(r.json()["errors"]) and says in r.text, (rules, r.text)
    with session_scope() as s:
        stored = s.get(Target, target["id"])
        assert stored is not None and stored.region_rules["regions"] == ["GB:London"]


def test_a_campaign_blocks_regions_and_line_types(client, customer_a, customer_b) -> None:
    c = make_campaign(
        client, customer_a, region_rules={"blocked_line_types": ["other"], "accept_unknown": False}
    )
    assert c["region_rules"] == {
        "blocked_regions": [],
        "blocked_line_types": ["other"],
        "accept_unknown": False,
    }
    r = client.put(
        f"/api/campaign/{c['id']}",
        json={"region_rules": {"blocked_regions": ["GB:London"]}},
        headers=customer_a.headers,
    )
    assert r.status_code == 200 and r.json()["data"]["region_rules"]["blocked_regions"] == ["GB:London"]
    bad = client.put(
        f"/api/campaign/{c['id']}",
        json={"region_rules": {"blocked_regions": ["ZZ"]}},
        headers=customer_a.headers,
    )
    assert bad.status_code == 422 and "ISO 3166" in bad.text
    foreign = client.put(
        f"/api/campaign/{c['id']}",
        json={"region_rules": {"blocked_regions": ["US"]}},
        headers=customer_b.headers,
    )
    assert foreign.status_code == 404
    with session_scope() as s:
        stored = s.get(Campaign, c["id"])
        assert stored is not None and stored.region_rules["blocked_regions"] == ["GB:London"]


def test_the_region_catalogue_of_a_country(client, customer_a, buyer_a) -> None:
    r = client.get("/api/routing/regions", params={"country": "us"}, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["country"] == "US" and data["name"] == "United States" and "California" in data["regions"]
    assert (
        client.get("/api/routing/regions", params={"country": "XX"}, headers=customer_a.headers).status_code
        == 422
    )
    assert client.get("/api/routing/regions", headers=customer_a.headers).status_code == 422
    assert (
        client.get("/api/routing/regions", params={"country": "US"}, headers=buyer_a.headers).status_code
        == 403
    )


def _origin_call(user_id: int, country: str, region: str, started_at: datetime = MAR) -> int:
    return ended_call(
        user_id,
        20,
        started_at=started_at,
        caller_country=country,
        caller_region=region,
        caller_line_type="fixed",
    )


def test_the_report_filters_by_origin_within_the_tenant(client, admin, customer_a, customer_b) -> None:
    london = _origin_call(customer_a.id, "GB", "London")
    _origin_call(customer_a.id, "US", "California")
    _origin_call(customer_b.id, "GB", "London")

    def ids(actor, **params) -> list[int]:
        r = client.get("/api/report", params=params, headers=actor.headers)
        assert r.status_code == 200, r.text
        return [c["id"] for c in r.json()["data"]["data"]]

    assert ids(customer_a, caller_country="gb", caller_region="London") == [london]
    assert len(ids(admin, caller_country="GB")) == 2 and ids(customer_a, caller_country="unknown") == []
    row = client.get("/api/report", params={"caller_country": "GB"}, headers=customer_a.headers).json()[
        "data"
    ]["data"][0]
    assert (row["caller_country"], row["caller_region"], row["caller_line_type"]) == ("GB", "London", "fixed")
    for params, field in [
        ({"caller_country": "XX"}, "caller_country"),
        ({"caller_region": "London"}, "caller_region"),
    ]:
        r = client.get("/api/report", params=params, headers=customer_a.headers)
        assert r.status_code == 422 and field in r.json()["errors"], r.text
    csv = client.post("/api/report/save", params={"caller_country": "GB"}, headers=customer_a.headers)
    assert (
        csv.status_code == 200
        and "caller_country,caller_region" in csv.text
        and ",GB,London,fixed," in csv.text
    )


def test_the_dashboard_breakdown_keeps_to_the_tenant(client, customer_a, customer_b, buyer_a) -> None:
    now = datetime.now(UTC)  # today's calls, not rated yet: read from the rows
    _origin_call(customer_a.id, "GB", "London", now)
    _origin_call(customer_b.id, "US", "California", now)
    _origin_call(customer_b.id, "US", "California", now)
    a = client.get("/api/dashboard/call-region", headers=customer_a.headers).json()["data"]
    b = client.get("/api/dashboard/call-region", headers=customer_b.headers).json()["data"]
    assert [(s["country"], s["region"], s["calls"]) for s in a["by_region"]] == [("GB", "London", 1)]
    assert [(s["country"], s["region"], s["calls"]) for s in b["by_region"]] == [("US", "California", 2)]
    assert client.get("/api/dashboard/call-region", headers=buyer_a.headers).status_code == 403
    assert (
        client.get(
            "/api/dashboard/call-region", params={"type": "decade"}, headers=customer_a.headers
        ).status_code
        == 422
    )


# The plan test's 20,000 calls and its statement recorder, as fixtures.
PLAN_FIXTURES = (calls, statements)


def test_the_origin_filters_read_their_index(client, admin, customer_a, calls, statements) -> None:
    """Of the report's 20,000 planning calls, twenty are from France: the country and region filters
    read an origin index for them (a customer's maybe its own); a common country the scope's index
    in time order; never the whole table (docs/reports.md)."""
    with get_engine().begin() as conn:
        conn.execute(
            text(
                "UPDATE call SET caller_country = CASE WHEN id % 1000 = 0 THEN 'FR' ELSE 'US' END,"
                " caller_region = CASE WHEN id % 2000 = 0 THEN 'Paris' WHEN id % 1000 = 0 THEN 'Lyon'"
                " ELSE 'Texas' END"
            )
        )
        conn.execute(text("ANALYZE call"))
    # A customer's rare place: every customer's few or its own (migration 0027), the planner's pick.
    for who, origin in (
        (admin, {"ix_call_caller_origin"}),
        (customer_a, {"ix_call_caller_origin", "ix_call_user_origin"}),
    ):
        for params in ({"caller_country": "FR"}, {"caller_country": "FR", "caller_region": "Paris"}):
            nodes = page_plan(client, statements, who, **params)
            assert_indexed(nodes, sorted_by_index=False)
            assert origin & {n.get("Index Name") for n in nodes}, nodes
        assert_indexed(page_plan(client, statements, who, caller_country="US"), sorted_by_index=True)
