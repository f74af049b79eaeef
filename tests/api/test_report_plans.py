"""The call reports stay fast as calls pile up: the plans PostgreSQL picks for each filter and scope
read an index (never the whole table, never a sort of every call for the first page), pages walk by
keyset, a large total is an estimate, marked as one, and the dashboard reads whole days from daily rollups
(docs/reports.md)."""

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, text

from core.calls import call_partitions
from core.infra.db import get_engine, session_scope
from core.models import Campaign
from core.reporting import rollups
from portal_api.services.call_pages import EXACT_UP_TO
from testkit.actors import Actor
from testkit.rows import save

CALLS = 20_000
SEED = """
INSERT INTO call (linkedid, user_id, campaign_id, buyer_id, did, caller, destination, started_at,
                  disposition, cost, payout, trail, source, rating_status, duration, billsec, talk_seconds,
                  converted)
SELECT 'plan.' || g,
       CASE WHEN g % 10 = 0 THEN :b ELSE :a END,
       CASE WHEN g % 10 = 0 THEN :cb WHEN g % 4 = 0 THEN :c1 ELSE :c2 END,
       CASE WHEN g % 3 = 0 THEN :buyer END,
       '+44207946' || lpad((g % 20)::text, 4, '0'),
       '+1212555' || lpad((g % 5000)::text, 4, '0'),
       '1415555' || lpad((g % 4999)::text, 4, '0'),
       timestamptz '2026-01-01 00:00+00' + g * interval '7 minutes',
       CASE WHEN g % 10 = 3 THEN 'BUSY' WHEN g % 10 < 7 THEN 'ANSWERED' ELSE 'NO ANSWER' END,
       CASE WHEN g % 50 <> 0 THEN (g * 17 % 89)::numeric / 100 END,
       (g * 31 % 97)::numeric / 4, '[]', 'bridge', 'rated', g * 7919 % 900, 25, 20, false
FROM generate_series(1, :n) g
"""


@pytest.fixture
def calls(customer_a: Actor, customer_b: Actor, buyer_a: Actor) -> dict[str, int]:
    """CALLS calls over a year: nine in ten customer_a's (in two campaigns), a third to buyer_a."""
    c1 = save(Campaign(user_id=customer_a.id, name="Solar Leads")).id
    c2 = save(Campaign(user_id=customer_a.id, name="Roofing")).id
    cb = save(Campaign(user_id=customer_b.id, name="Solar Panels B")).id
    with get_engine().begin() as conn:
        conn.execute(
            text(SEED),
            {
                "a": customer_a.id,
                "b": customer_b.id,
                "c1": c1,
                "c2": c2,
                "cb": cb,
                "buyer": buyer_a.buyer_id,
                "n": CALLS,
            },
        )
        # Months past: the default partition took them; the beat's job gives each its partition.
        call_partitions.ensure_months(conn, datetime.now(UTC))
        conn.execute(text("ANALYZE call"))
    return {"solar": c1 or 0}


@pytest.fixture
def statements() -> Iterator[list[tuple[str, Any]]]:
    """Every statement the API sends while the test runs."""
    seen: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, parameters))

    event.listen(get_engine(), "before_cursor_execute", record)
    yield seen
    event.remove(get_engine(), "before_cursor_execute", record)


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def page_plan(
    client: Any,
    seen: list[tuple[str, Any]],
    who: Actor,
    buyer: bool = False,
    order: str = "call.started_at DESC, call.id DESC",
    **params: Any,
) -> list:
    """The plan of the statement that picks the page's calls (ordered by `order`, limited), as
    EXPLAIN gives it."""
    seen.clear()
    if buyer:
        r = client.post(
            "/api/buyer/buyer-report", headers=who.headers, params=params.pop("query", {}), json=params
        )
    else:
        r = client.get("/api/report", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    (statement, parameters), *_ = [
        (s, p)
        for s, p in seen
        if f"ORDER BY {order}" in s and "LIMIT" in s and "call.id, call.started_at" in s
    ]
    counts = [s for s, _ in seen if "count(*)" in s]
    assert all("LIMIT" in s for s in counts)  # never a count of every call
    with get_engine().connect() as conn:
        plan = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar_one()
        return _as_call(conn, list(_nodes(plan[0]["Plan"])))


def _as_call(conn: Any, nodes: list) -> list:
    """The scans of `call`'s monthly partitions named for the table and its indexes (the partition
    a scan reads kept as "Partition"). A partition without a call (a month ahead) is left out: a
    sequential scan is the plan for an empty table."""
    rows = conn.execute(
        text(
            "SELECT c.relname, p.relname, c.reltuples FROM pg_inherits i "
            "JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent"
        )
    ).all()
    parents = {child: parent for child, parent, _ in rows}
    empty = {child for child, _, tuples in rows if tuples <= 0}
    nodes = [n for n in nodes if n.get("Relation Name") not in empty]
    for node in nodes:
        if node.get("Relation Name") in parents:
            node["Partition"] = node["Relation Name"]
        for key in ("Relation Name", "Index Name"):
            if key in node:
                node[key] = parents.get(node[key], node[key])
    return nodes


def _scans_of_call(nodes: list) -> list[dict[str, Any]]:
    return [n for n in nodes if n.get("Relation Name") == "call" or "ix_call" in n.get("Index Name", "")]


def _shape(nodes: list) -> list[tuple[str, ...]]:
    keys = ("Node Type", "Index Name", "Index Cond", "Filter", "Sort Key")
    return [tuple(str(n[k]) for k in keys if k in n) for n in nodes]


def assert_indexed(nodes: list, *, sorted_by_index: bool, index: str | None = None) -> None:
    scans = _scans_of_call(nodes)
    assert scans and not [n for n in scans if n["Node Type"] == "Seq Scan"], _shape(nodes)
    if sorted_by_index:  # the index hands the calls newest first: nothing to sort
        assert not [n for n in nodes if n["Node Type"] == "Sort"], _shape(nodes)
    if index is not None:
        assert index in {n.get("Index Name") for n in scans}, _shape(nodes)


def test_every_filter_and_scope_reads_an_index_and_names_match_in_scope(
    client: Any, admin: Actor, customer_a: Actor, buyer_a: Actor, calls: dict[str, int], statements: list
) -> None:
    plan = lambda who, **p: page_plan(client, statements, who, **p)  # noqa: E731
    for who, by_caller in ((admin, "ix_call_caller"), (customer_a, "ix_call_user_caller")):
        assert_indexed(plan(who), sorted_by_index=True)
        assert_indexed(plan(who, page=300), sorted_by_index=True)
        march = plan(who, fromDate="2026-03-01", toDate="2026-03-31")
        assert_indexed(march, sorted_by_index=True)
        # A month's filter reads that month's partition (and the UTC month its first hours fall
        # in, for a customer east of UTC) and no other: pruned when planned.
        read = {n["Partition"] for n in _scans_of_call(march)}
        assert "call_y2026m03" in read and read <= {"call_y2026m02", "call_y2026m03"}, _shape(march)
        assert_indexed(plan(who, disposition="BUSY"), sorted_by_index=True)
        # A whole number: its calls from the number's index (a customer's: its own calls only); a
        # busy number's (a DID's thousands) in time order, so the first page reads ten, not all.
        assert_indexed(plan(who, caller_number="+1 212 555 1234"), sorted_by_index=False, index=by_caller)
        assert_indexed(plan(who, did_number="+44 20 7946 0007"), sorted_by_index=True)
        # How a number starts: the matching calls only, found by the number's index.
        assert_indexed(plan(who, caller_number="+1212555012"), sorted_by_index=False, index=by_caller)
        assert_indexed(plan(who, did_number="+44207946000"), sorted_by_index=False)
        assert_indexed(
            plan(who, target_number="1415555012"), sorted_by_index=False, index="ix_call_destination"
        )
        assert_indexed(plan(who, campaign_name="solar"), sorted_by_index=False)
    assert_indexed(plan(admin, user_id=customer_a.id), sorted_by_index=True)
    for who in (admin, buyer_a):
        assert_indexed(page_plan(client, statements, who, buyer=True), sorted_by_index=True)
        busy = page_plan(client, statements, who, buyer=True, disposition="BUSY")
        assert_indexed(busy, sorted_by_index=True)
        prefix = page_plan(client, statements, who, buyer=True, caller_number="+1212555000")
        own = "ix_call_buyer_caller" if who is buyer_a else None
        assert_indexed(prefix, sorted_by_index=False, index=own)

    # The campaign name matches only the caller's own campaigns, looked up in its scope first.
    statements.clear()
    r = client.get(
        "/api/report", headers=customer_a.headers, params={"campaign_name": "solar", "perpage": 50}
    )
    assert {c["campaign_name"] for c in r.json()["data"]["data"]} == {"Solar Leads"}  # not "Solar Panels B"
    lookups = [s for s, _ in statements if "FROM campaign" in s and "ILIKE" in s.upper()]
    assert lookups and all("campaign.user_id" in s for s in lookups)


def count_indexes(
    client: Any, seen: list[tuple[str, Any]], who: Actor, buyer: bool = False, **params: Any
) -> set[str]:
    """The indexes of `call` the report's count reads (its plan, as EXPLAIN gives it)."""
    seen.clear()
    if buyer:
        r = client.post("/api/buyer/buyer-report", headers=who.headers, json=params)
    else:
        r = client.get("/api/report", headers=who.headers, params=params)
    assert r.status_code == 200, r.text
    assert not r.json()["data"]["total_estimated"]  # counted, not estimated
    (statement, parameters), *_ = [(s, p) for s, p in seen if "count(*)" in s]
    with get_engine().connect() as conn:
        plan = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar_one()
        nodes = _as_call(conn, list(_nodes(plan[0]["Plan"])))
    return {n["Index Name"] for n in _scans_of_call(nodes) if "Index Name" in n}


# Indexes of every customer's calls: a tenant's count reading one grows with the platform.
EVERY_CUSTOMERS = {"ix_call_disposition", "ix_call_caller_origin", "ix_call_started"}


def test_a_small_tenants_filters_count_its_own_calls_only(
    client: Any, admin: Actor, customer_b: Actor, buyer_a: Actor, calls: dict[str, int], statements: list
) -> None:
    """A tenant's calls by a value every tenant's calls share (a disposition, a place) are counted off
    an index led by the tenant: never combined with the index of every customer's calls of that
    value, which grows with the platform, not the tenant (issue 38)."""
    with get_engine().begin() as conn:
        conn.execute(
            text(
                "UPDATE call SET caller_country = 'US', caller_region = CASE WHEN random() < 0.05"
                " THEN 'Texas' ELSE 'Ohio' END, disposition = CASE WHEN user_id = :b AND random() < 0.05"
                " THEN 'BUSY' ELSE disposition END"
            ),
            {"b": customer_b.id},
        )
        conn.execute(text("ANALYZE call"))
    texas = {"caller_country": "US", "caller_region": "Texas"}
    for who, params, own in (
        (customer_b, {"disposition": "BUSY"}, "ix_call_user_disposition"),
        (admin, {"disposition": "BUSY", "user_id": customer_b.id}, "ix_call_user_disposition"),
        (customer_b, texas, "ix_call_user_origin"),
        (admin, {**texas, "user_id": customer_b.id}, "ix_call_user_origin"),
    ):
        read = count_indexes(client, statements, who, **params)
        assert own in read and not read & EVERY_CUSTOMERS, (who.id, params, read)
    read = count_indexes(client, statements, buyer_a, buyer=True, disposition="BUSY")
    assert "ix_call_buyer_disposition" in read and not read & EVERY_CUSTOMERS, read


def test_a_sorted_report_reads_its_pages_off_the_sort_index(
    client: Any, admin: Actor, customer_a: Actor, calls: dict[str, int], statements: list
) -> None:
    """Sorted by duration, cost or payout, either way: the first page, a page after a call (keyset)
    and a deep page come off the measure's index in order, for all calls and in a customer's scope."""
    keys = {"duration": "call.duration", "payout": "call.payout", "cost": "coalesce(call.cost, 0)"}
    for who, scope in ((admin, ""), (customer_a, "_user")):
        for sort, key in keys.items():
            for direction in ("DESC", "ASC"):
                order = f"{key} {direction}, call.id {direction}"
                params = {"sort": sort, "direction": direction.lower()}
                index = f"ix_call{scope}_{sort}"
                first = page_plan(client, statements, who, order=order, **params)
                assert_indexed(first, sorted_by_index=True, index=index)
                anchor = client.get("/api/report", headers=who.headers, params=params).json()["data"][
                    "next_after"
                ]
                after = page_plan(client, statements, who, order=order, after=anchor, **params)
                assert_indexed(after, sorted_by_index=True, index=index)
                assert_indexed(
                    page_plan(client, statements, who, order=order, page=100, **params), sorted_by_index=True
                )


def test_a_large_total_is_an_estimate_and_marked_as_one(
    client: Any, admin: Actor, customer_b: Actor, calls: dict[str, int]
) -> None:
    everything = client.get("/api/report", headers=admin.headers).json()["data"]
    assert everything["total_estimated"] is True
    assert CALLS * 0.7 <= everything["total"] <= CALLS * 1.3
    assert everything["last_page"] == -(-everything["total"] // 10)
    small = client.get("/api/report", headers=customer_b.headers).json()["data"]
    assert CALLS // 10 <= EXACT_UP_TO
    assert small["total_estimated"] is False and small["total"] == CALLS // 10


def test_pages_read_after_a_call_match_pages_read_by_number(
    client: Any, customer_a: Actor, customer_b: Actor, calls: dict[str, int]
) -> None:
    def get(**params: Any) -> dict[str, Any]:
        r = client.get("/api/report", headers=customer_a.headers, params={"perpage": 25, **params})
        assert r.status_code == 200, r.text
        return r.json()["data"]

    by_number = [[c["id"] for c in get(page=p)["data"]] for p in (1, 2, 3)]
    walked, after = [], None
    for p in (1, 2, 3):
        page = get(page=p, **({"after": after} if after else {}))
        walked.append([c["id"] for c in page["data"]])
        after = page["next_after"]
    assert walked == by_number and len({i for ids in walked for i in ids}) == 75
    times = [c["started_at"] for c in get(page=2, after=walked[0][-1])["data"]]
    assert times == sorted(times, reverse=True)
    # Another customer's call is no anchor: nothing about it shows, the page starts from the top.
    foreign = client.get("/api/report", headers=customer_b.headers).json()["data"]["data"][0]["id"]
    assert [c["id"] for c in get(page=2, after=foreign)["data"]] == by_number[0]


def test_the_dashboard_reads_whole_days_from_daily_rollups_in_one_scan_never_every_call(
    client: Any, admin: Actor, customer_a: Actor, buyer_a: Actor, calls: dict[str, int], statements: list
) -> None:
    with session_scope() as s:
        rollups.rebuild(s)
    with get_engine().begin() as conn:
        conn.execute(text("ANALYZE call_rollup; ANALYZE call_rollup_day"))
    for who in (admin, customer_a, buyer_a):
        for path in ("call", "call-detail"):
            statements.clear()
            # A week: whole days whatever today's date (a month has none on its first day).
            r = client.get(f"/api/dashboard/{path}", headers=who.headers, params={"type": "week"})
            assert r.status_code == 200, r.text
            (statement, parameters), *more = [(s, p) for s, p in statements if "call_rollup_day" in s]
            assert not more  # one scan of the period's rows per request
            with get_engine().connect() as conn:
                plan = conn.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {statement}", parameters).scalar_one()
            nodes = list(_nodes(plan[0]["Plan"]))
            assert "call_rollup_day" in {n.get("Relation Name") for n in nodes}, _shape(nodes)
            assert not [n for n in _scans_of_call(nodes) if n["Node Type"] == "Seq Scan"], _shape(nodes)


VISITS = """
INSERT INTO call_attribution (call_id, call_started_at, user_id, status, source, medium, campaign,
                              keyword, landing_page, click_id, click_id_kind, pages, candidates)
SELECT id, started_at, user_id, 'matched', 'google', CASE WHEN n % 2 = 0 THEN 'cpc' ELSE 'email' END,
       'campaign ' || (n % 50), 'keyword ' || (n % 300), 'https://site.example/p' || (n % 40),
       CASE WHEN n % 3 = 0 THEN 'Cj0' || id END, CASE WHEN n % 3 = 0 THEN 'gclid' END, '[]', '[]'
FROM (SELECT id, started_at, user_id, id / 10 AS n FROM call WHERE id % 5 = 0 AND user_id IS NOT NULL) c
"""


def test_visit_filters_read_the_attributions_by_their_index_then_the_calls_by_key(
    client: Any, admin: Actor, customer_a: Actor, calls: dict[str, int], statements: list
) -> None:
    with get_engine().begin() as conn:
        conn.execute(text(VISITS))
        conn.execute(text("ANALYZE call_attribution"))
    plan = lambda who, **p: page_plan(client, statements, who, **p)  # noqa: E731
    for who in (admin, customer_a):
        # A common visit (a medium, a site's pages, a click id or none): the calls newest first, each
        # checked by the attribution's key, until the page is full; never every call.
        for params in (
            {"medium": "cpc", "fromDate": "2026-03-01", "toDate": "2026-03-31"},
            {"landing_page": "https://site.example/p3"},
            {"has_click_id": "true", "fromDate": "2026-03-01", "toDate": "2026-03-07"},
            {"has_click_id": "false"},
        ):
            nodes = plan(who, **params)
            scans = _scans_of_call(nodes)
            assert scans and not [n for n in scans if n["Node Type"] == "Seq Scan"], (params, _shape(nodes))
    # A customer's UTM campaign: its own attributions, by (user_id, campaign).
    mine = plan(customer_a, utm_campaign="campaign 7")
    assert "ix_call_attribution_user_campaign" in {n.get("Index Name") for n in mine}, _shape(mine)
    # Its own only: every filter of the request names the customer on the attributions it reads
    # (the page's visits are then looked up by the page's own calls' keys).
    filters = [s for s, _ in statements if "EXISTS (SELECT call_attribution" in s]
    assert filters and all("call_attribution.user_id = " in s for s in filters)
