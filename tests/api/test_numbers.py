"""Numbers (spec §7): inventory, pool, purchases with setup fees, release, the payment report.

Every refused request is checked to leave counts, balances and the ledger unchanged.
"""

import threading
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import func, select

from core.billing import wallet
from core.billing.periods import add_months
from core.infra.db import get_engine, session_scope
from core.models import (
    Campaign,
    Country,
    CreditReservation,
    Number,
    StatusChange,
    Vendor,
    WalletTransaction,
)
from core.values.enums import TransactionType
from testkit.rows import balance, ledger, top_up
from testkit.waiting import eventually

GB = [f"+44207183875{i}" for i in range(10)]
US = "+12025550143"


def _setup_rows() -> list[WalletTransaction]:
    return ledger(kind=TransactionType.NUMBER_SETUP)


def _country(iso2: str) -> int:
    with session_scope() as s:
        return s.scalar(select(Country.id).where(Country.iso2 == iso2))


def _vendor(name: str = "Acme") -> int:
    with session_scope() as s:
        vendor = Vendor(name=name)
        s.add(vendor)
        s.flush()
        return vendor.id


def _number(e164: str, setup: str = "0", monthly: str = "0", **fields) -> int:
    with session_scope() as s:
        row = Number(
            number=e164,
            country_id=s.scalar(select(Country.id).where(Country.iso2 == fields.pop("iso2", "GB"))),
            setup_fee=Decimal(setup),
            monthly_fee=Decimal(monthly),
            **fields,
        )
        s.add(row)
        s.flush()
        return row.id


def _campaign(user_id: int, name: str = "Solar leads") -> int:
    with session_scope() as s:
        row = Campaign(user_id=user_id, name=name)
        s.add(row)
        s.flush()
        return row.id


def _owner(number_id: int) -> int | None:
    with session_scope() as s:
        return s.get(Number, number_id).user_id


def _count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Number)) or 0


# --- POST /number/add -------------------------------------------------------------------------


def test_add_normalises_the_number_and_derives_its_country(client, admin) -> None:
    vid = _vendor()
    body = {"number": " 44 20 7183 8750 ", "vendor_id": vid, "setup_fee": "10.5", "monthly_fee": 2}
    r = client.post("/api/number/add", json=body, headers=admin.headers)
    assert r.status_code == 201, r.text
    row = r.json()["data"]
    assert (row["number"], row["country_id"], row["vendor_id"]) == (GB[0], _country("GB"), vid)
    assert (row["setup_fee"], row["monthly_fee"], row["status"], row["user_id"]) == (
        "10.5000",
        "2.0000",
        "active",
        None,
    )
    assert row["assigned_at"] is None and row["paid_until"] is None
    by_code = client.post("/api/number/add", json={"number": US, "iso2": "us"}, headers=admin.headers)
    assert by_code.status_code == 201 and by_code.json()["data"]["country_id"] == _country("US")
    by_id = {"number": GB[1], "country_id": _country("GB")}
    assert (
        client.post("/api/number/add", json=by_id, headers=admin.headers).json()["data"]["setup_fee"]
        == "0.0000"
    )
    # A non-geographic number belongs to no country unless one is named.
    freephone = client.post("/api/number/add", json={"number": "+80012345678"}, headers=admin.headers)
    assert freephone.status_code == 201 and freephone.json()["data"]["country_id"] is None


def test_add_refuses_a_duplicate_in_any_spelling(client, admin) -> None:
    client.post("/api/number/add", json={"number": GB[0]}, headers=admin.headers)
    r = client.post("/api/number/add", json={"number": GB[0][1:]}, headers=admin.headers)
    assert r.status_code == 409 and r.json()["errors"] == {
        "number": [f"{GB[0]} is already in the inventory."]
    }
    assert _count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"number": "12345"}, "number"),
        ({"number": "+999123456789"}, "number"),
        ({"number": ""}, "number"),
        ({}, "number"),
        ({"number": GB[0], "setup_fee": "-1"}, "setup_fee"),
        ({"number": GB[0], "monthly_fee": "abc"}, "monthly_fee"),
        ({"number": GB[0], "monthly_fee": "1.00001"}, "monthly_fee"),
        ({"number": GB[0], "setup_fee": "1e20"}, "setup_fee"),
        ({"number": GB[0], "setup_fee": "1e40"}, "setup_fee"),
        ({"number": GB[0], "setup_fee": "NaN"}, "setup_fee"),
        ({"number": GB[0], "setup_fee": True}, "setup_fee"),
        ({"number": GB[0], "vendor_id": 424242}, "vendor_id"),
        ({"number": GB[0], "vendor_id": "x"}, "vendor_id"),
        ({"number": GB[0], "country_id": 424242}, "country_id"),
        ({"number": GB[0], "iso2": "QQ"}, "iso2"),
        ({"number": GB[0], "iso2": "GBR"}, "iso2"),
        ({"number": GB[0], "iso2": "US"}, "iso2"),
        ({"number": GB[0], "user_id": 1}, "user_id"),
        ({"number": GB[0], "iso2": "GB", "country_id": 1}, "body"),
    ],
)
def test_add_rejects_bad_input_and_writes_nothing(client, admin, body, field) -> None:
    r = client.post("/api/number/add", json=body, headers=admin.headers)
    missing = 424242 in body.values() or body.get("iso2") == "QQ"  # naming no row: 404 (docs/api.md)
    assert r.status_code == (404 if missing else 422), r.text
    assert field in r.json()["errors"], r.json()
    assert _count() == 0


def test_add_messages_say_what_to_fix(client, admin) -> None:
    bad = client.post("/api/number/add", json={"number": "12345"}, headers=admin.headers).json()
    assert bad["message"].startswith("number must be a valid phone number in international format")
    neg = client.post("/api/number/add", json={"number": GB[0], "setup_fee": "-1"}, headers=admin.headers)
    assert neg.json()["message"] == "setup_fee can't be negative."
    wrong = client.post("/api/number/add", json={"number": GB[0], "iso2": "US"}, headers=admin.headers)
    assert wrong.json()["message"] == f"{GB[0]} is a GB number, not US."


# --- admin-only paths -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/number/add", {"number": GB[5]}),
        ("patch", "/api/number/status/{n}", {"status": "inactive"}),
        ("post", "/api/number/give", {"user_id": 1, "number_ids": [1]}),
        ("get", "/api/number/vcrs", None),
    ],
)
def test_admin_only_paths_refuse_customers_and_buyers(
    client, customer_a, customer_b, buyer_a, method, path, body
) -> None:
    nid = _number(GB[0], user_id=customer_a.id)
    for actor in (customer_a, customer_b, buyer_a):
        kwargs = {"headers": actor.headers} | ({"json": body} if body else {})
        r = client.request(method.upper(), path.format(n=nid), **kwargs)
        assert r.status_code == 403 and r.json()["message"] == "Only an admin can do this.", r.text
    with session_scope() as s:
        assert s.get(Number, nid).status == "active" and _count() == 1


# --- GET /number/details, /number/zero, /number/{id} ------------------------------------------


def test_details_are_scoped_and_filtered(client, admin, customer_a, customer_b, buyer_a) -> None:
    a1 = _number(GB[0], user_id=customer_a.id)
    a2 = _number(US, user_id=customer_a.id, iso2="US", status="suspended")
    b1 = _number(GB[1], user_id=customer_b.id)
    _number(GB[2])

    assert client.get("/api/number/details", headers=admin.headers).json()["data"]["total"] == 4
    for query, ids in (
        (f"user_id={customer_a.id}", [a2, a1]),
        ("status=suspended", [a2]),
        (f"country_id={_country('GB')}&user_id={customer_b.id}", [b1]),
        ("params=1202", [a2]),
    ):
        rows = client.get(f"/api/number/details?{query}", headers=admin.headers).json()["data"]["data"]
        assert [r["id"] for r in rows] == ids, query

    own = client.get("/api/number/details", headers=customer_a.headers).json()["data"]
    assert [r["id"] for r in own["data"]] == [a2, a1]
    # user_id never widens a customer's scope: another customer's is no account it may see (404).
    sneaky = client.get(f"/api/number/details?user_id={customer_b.id}", headers=customer_a.headers)
    assert sneaky.status_code == 404 and list(sneaky.json()["errors"]) == ["user_id"]
    b_view = client.get("/api/number/details?params=44", headers=customer_b.headers).json()["data"]["data"]
    assert [r["id"] for r in b_view] == [b1]
    assert client.get("/api/number/details", headers=buyer_a.headers).status_code == 403
    for bad in ("status=gone", "user_id=x", "country_id=0", "perpage=0"):
        assert client.get(f"/api/number/details?{bad}", headers=admin.headers).status_code == 422, bad


def test_pool_lists_unassigned_numbers(client, admin, customer_a, buyer_a) -> None:
    _number(GB[0], user_id=customer_a.id)
    free = _number(GB[2])
    resting = _number(GB[1], status="inactive")
    us = _number(US, iso2="US")
    rows = client.get("/api/number/zero", headers=admin.headers).json()["data"]["data"]
    assert [r["id"] for r in rows] == [us, resting, free]  # ordered by number
    # Customers browse only what they can take: active pool numbers.
    shop = client.get("/api/number/zero?perpage=1&page=2", headers=customer_a.headers).json()["data"]
    assert shop["total"] == 2 and [r["id"] for r in shop["data"]] == [free]
    only_us = client.get(f"/api/number/zero?country_id={_country('US')}", headers=customer_a.headers)
    assert [r["id"] for r in only_us.json()["data"]["data"]] == [us]
    assert client.get("/api/number/zero", headers=buyer_a.headers).status_code == 403


def test_one_number_is_visible_to_admin_and_its_owner_only(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    nid = _number(GB[0], user_id=customer_a.id)
    assert client.get(f"/api/number/{nid}", headers=admin.headers).json()["data"]["number"] == GB[0]
    assert client.get(f"/api/number/{nid}", headers=customer_a.headers).status_code == 200
    r = client.get(f"/api/number/{nid}", headers=customer_b.headers)
    assert r.status_code == 404 and r.json() == {"message": "Number not found."}
    assert client.get(f"/api/number/{nid}", headers=buyer_a.headers).status_code == 403
    assert client.get("/api/number/424242", headers=admin.headers).status_code == 404
    assert client.get("/api/number/abc", headers=admin.headers).status_code == 404
    assert client.get("/api/number/99999999999", headers=admin.headers).status_code == 422


# --- PUT /number/{id} -------------------------------------------------------------------------


def test_admin_updates_fees_vendor_country_and_campaign(client, admin, customer_a) -> None:
    vid = _vendor()
    nid = _number(GB[0], user_id=customer_a.id)
    camp = _campaign(customer_a.id)
    body = {"setup_fee": "3", "monthly_fee": "1.25", "vendor_id": vid, "iso2": "GB", "campaign_id": camp}
    r = client.put(f"/api/number/{nid}", json=body, headers=admin.headers)
    assert r.status_code == 200, r.text
    row = r.json()["data"]
    assert (row["setup_fee"], row["monthly_fee"], row["vendor_id"], row["campaign_id"]) == (
        "3.0000",
        "1.2500",
        vid,
        camp,
    )
    cleared = client.put(f"/api/number/{nid}", json={"vendor_id": None}, headers=admin.headers)
    assert cleared.json()["data"]["vendor_id"] is None and cleared.json()["data"]["setup_fee"] == "3.0000"
    # The lists name the number's customer and campaign.
    listed = client.get("/api/number/details", headers=admin.headers).json()["data"]["data"]
    assert [(r["customer_name"], r["campaign_name"]) for r in listed] == [("Alice Customer", "Solar leads")]


def test_admin_update_rejects_bad_input_and_changes_nothing(client, admin, customer_a, customer_b) -> None:
    nid = _number(GB[0], user_id=customer_a.id, setup="1")
    pool_id = _number(GB[1])
    b_camp = _campaign(customer_b.id)
    for number_id, body in (
        (nid, {"setup_fee": None}),
        (nid, {"setup_fee": "-0.01"}),
        (nid, {"country_id": None}),
        (nid, {"iso2": "US"}),
        (nid, {"country_id": 424242}),
        (nid, {"vendor_id": 424242}),
        (nid, {"campaign_id": b_camp}),
        (nid, {"campaign_id": 424242}),
        (nid, {"number": GB[2]}),
        (nid, {"user_id": customer_b.id}),
        (pool_id, {"campaign_id": b_camp}),
    ):
        r = client.put(f"/api/number/{number_id}", json=body, headers=admin.headers)
        # Naming no row, or another tenant's (its owner's campaigns only): 404 (docs/api.md).
        missing = 424242 in body.values() or (number_id == nid and body.get("campaign_id") == b_camp)
        assert r.status_code == (404 if missing else 422), (body, r.text)
    with session_scope() as s:
        row = s.get(Number, nid)
        assert (row.setup_fee, row.country_id, row.campaign_id, row.user_id, row.number) == (
            Decimal("1.0000"),
            _country("GB"),
            None,
            customer_a.id,
            GB[0],
        )


def test_customer_sets_only_its_own_campaigns(client, customer_a, customer_b, buyer_a) -> None:
    nid = _number(GB[0], user_id=customer_a.id)
    mine = _campaign(customer_a.id)
    theirs = _campaign(customer_b.id)
    r = client.put(f"/api/number/{nid}", json={"campaign_id": mine}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["campaign_id"] == mine

    foreign = client.put(f"/api/number/{nid}", json={"campaign_id": theirs}, headers=customer_a.headers)
    assert foreign.status_code == 404 and "campaign_id" in foreign.json()["errors"]
    fees = client.put(f"/api/number/{nid}", json={"setup_fee": "0"}, headers=customer_a.headers)
    assert fees.status_code == 403 and "only campaign_id" in fees.json()["message"]
    assert (
        client.put(f"/api/number/{nid}", json={"campaign_id": theirs}, headers=customer_b.headers).status_code
        == 404
    )
    assert (
        client.put(f"/api/number/{nid}", json={"campaign_id": None}, headers=buyer_a.headers).status_code
        == 403
    )
    assert _owner(nid) == customer_a.id
    with session_scope() as s:
        assert s.get(Number, nid).campaign_id == mine

    unlinked = client.put(f"/api/number/{nid}", json={"campaign_id": None}, headers=customer_a.headers)
    assert unlinked.status_code == 200 and unlinked.json()["data"]["campaign_id"] is None


# --- PATCH /number/status/{id} ----------------------------------------------------------------


def test_status_change_is_validated_and_recorded(client, admin) -> None:
    nid = _number(GB[0])
    bad = client.patch(f"/api/number/status/{nid}", json={"status": "gone"}, headers=admin.headers)
    assert bad.status_code == 422 and "status" in bad.json()["errors"]
    extra = client.patch(
        f"/api/number/status/{nid}", json={"status": "active", "x": 1}, headers=admin.headers
    )
    assert extra.status_code == 422
    r = client.patch(f"/api/number/status/{nid}", json={"status": "suspended"}, headers=admin.headers)
    assert r.status_code == 200 and r.json()["data"]["status"] == "suspended"
    with session_scope() as s:
        (row,) = s.exec(select(StatusChange)).all()
        assert (row.entity, row.entity_id, row.old_status, row.new_status, row.changed_by) == (
            "number",
            nid,
            "active",
            "suspended",
            admin.id,
        )
    missing = client.patch("/api/number/status/424242", json={"status": "active"}, headers=admin.headers)
    assert missing.status_code == 404


# --- POST /number/give ------------------------------------------------------------------------


def test_give_charges_each_setup_fee_and_sets_the_paid_period(client, admin, customer_a) -> None:
    top_up(customer_a.id, "100")
    n1 = _number(GB[0], setup="10", monthly="3")
    n2 = _number(GB[1], setup="5.5")
    free = _number(GB[2])
    body = {"user_id": customer_a.id, "number_ids": [n1, n2, free, n1]}
    r = client.post("/api/number/give", json=body, headers=admin.headers)
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "3 number(s) given to Alice Customer; setup fees of 15.50 charged."
    rows = r.json()["data"]
    assert [row["id"] for row in rows] == [n1, n2, free] and {row["user_id"] for row in rows} == {
        customer_a.id
    }
    for row in rows:
        assigned = datetime.fromisoformat(row["assigned_at"])
        assert datetime.fromisoformat(row["paid_until"]) == add_months(assigned, 1)
        assert abs((datetime.now(UTC) - assigned).total_seconds()) < 60

    assert balance(customer_a.id) == Decimal("84.5000")
    ledger = sorted(_setup_rows(), key=lambda t: t.number_id)
    assert [(t.number_id, t.amount, t.user_id, t.created_by) for t in ledger] == [
        (n1, Decimal("-10.0000"), customer_a.id, admin.id),
        (n2, Decimal("-5.5000"), customer_a.id, admin.id),
    ]  # a free number writes no zero-amount row
    assert ledger[0].reference == f"number:{n1}:setup:{rows[0]['assigned_at'].replace('Z', '+00:00')}"
    assert ledger[1].balance_after == Decimal("84.5000") or ledger[0].balance_after == Decimal("84.5000")


def test_give_is_refused_whole_when_the_balance_falls_short(client, admin, customer_a) -> None:
    top_up(customer_a.id, "12")
    n1 = _number(GB[0], setup="10")
    n2 = _number(GB[1], setup="5.5")
    r = client.post(
        "/api/number/give", json={"user_id": customer_a.id, "number_ids": [n1, n2]}, headers=admin.headers
    )
    assert r.status_code == 402, r.text
    assert r.json()["message"] == (
        "The available balance (12.00) does not cover the setup fees (15.50); top up at least 3.50 first."
    )
    assert balance(customer_a.id) == Decimal("12.0000") and _setup_rows() == []
    assert _owner(n1) is None and _owner(n2) is None


def test_give_refuses_unknown_taken_or_inactive_numbers_and_non_customers(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    top_up(customer_a.id, "100")
    free = _number(GB[0], setup="1")
    taken = _number(GB[1], user_id=customer_b.id)
    resting = _number(GB[2], status="inactive")

    def give(user_id: int, ids: list) -> dict:
        return client.post(
            "/api/number/give", json={"user_id": user_id, "number_ids": ids}, headers=admin.headers
        )

    unknown = give(customer_a.id, [free, 424242])
    assert unknown.status_code == 404 and unknown.json()["message"] == "Number(s) 424242 do not exist."
    for ids in ([free, taken], [resting, free]):
        r = give(customer_a.id, ids)
        assert r.status_code == 409 and "not free in the pool" in r.json()["message"], r.text
    for user_id in (admin.id, buyer_a.id, 424242):  # no such customer
        assert give(user_id, [free]).status_code == 404
    for body in (
        {"user_id": customer_a.id, "number_ids": []},
        {"user_id": customer_a.id, "number_ids": ["x"]},
        {"user_id": customer_a.id},
        {"user_id": customer_a.id, "number_ids": [free], "fee": 0},
    ):
        assert client.post("/api/number/give", json=body, headers=admin.headers).status_code == 422
    assert _owner(free) is None and _owner(taken) == customer_b.id and _owner(resting) is None
    assert balance(customer_a.id) == Decimal("100.0000") and _setup_rows() == []


# --- POST /number/new -------------------------------------------------------------------------


def test_customer_takes_chosen_numbers_and_pays_their_setup_fees(client, customer_a) -> None:
    top_up(customer_a.id, "20")
    n1 = _number(GB[0], setup="7.25")
    r = client.post("/api/number/new", json={"number_ids": [n1]}, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    assert r.json()["message"] == "1 number(s) are yours; setup fees of 7.25 charged."
    assert r.json()["data"][0]["user_id"] == customer_a.id and r.json()["data"][0]["paid_until"]
    assert balance(customer_a.id) == Decimal("12.7500")
    (row,) = _setup_rows()
    assert (row.user_id, row.number_id, row.amount, row.balance_after, row.created_by) == (
        customer_a.id,
        n1,
        Decimal("-7.2500"),
        Decimal("12.7500"),
        customer_a.id,
    )
    assert row.description == f"Setup fee for {GB[0]}"


def test_customer_takes_a_count_of_numbers_of_a_country(client, customer_a) -> None:
    top_up(customer_a.id, "10")
    gb = [_number(e, setup="1") for e in GB[:3]]
    _number(US, iso2="US", setup="1")
    _number(GB[3], status="inactive")
    r = client.post(
        "/api/number/new", json={"country_id": _country("GB"), "count": 2}, headers=customer_a.headers
    )
    assert r.status_code == 200, r.text
    assert [row["id"] for row in r.json()["data"]] == gb[:2]
    assert balance(customer_a.id) == Decimal("8.0000") and len(_setup_rows()) == 2

    short = client.post(
        "/api/number/new", json={"country_id": _country("GB"), "count": 2}, headers=customer_a.headers
    )
    assert (
        short.status_code == 409
        and short.json()["message"] == "Only 1 number(s) in United Kingdom are free right now."
    )
    assert _owner(gb[2]) is None and balance(customer_a.id) == Decimal("8.0000")


def test_new_is_refused_whole_when_the_balance_falls_short(client, customer_a) -> None:
    top_up(customer_a.id, "5")
    cheap = _number(GB[0], setup="1")
    dear = _number(GB[1], setup="4.5")
    r = client.post("/api/number/new", json={"number_ids": [cheap, dear]}, headers=customer_a.headers)
    assert r.status_code == 402 and "top up at least 0.50 first" in r.json()["message"]
    assert _owner(cheap) is None and _owner(dear) is None
    assert balance(customer_a.id) == Decimal("5.0000") and _setup_rows() == []
    broke = client.post(
        "/api/number/new", json={"country_id": _country("GB"), "count": 2}, headers=customer_a.headers
    )
    assert broke.status_code == 402 and _setup_rows() == []


def test_credit_held_by_live_calls_is_not_spent_on_numbers(client, customer_a) -> None:
    top_up(customer_a.id, "10")
    nid = _number(GB[0], setup="8")
    with session_scope() as s:
        now = datetime.now(UTC)
        s.add(
            CreditReservation(
                user_id=customer_a.id,
                linkedid="live-1",
                amount=Decimal("3"),
                expires_at=now + timedelta(hours=1),
            )
        )
        s.add(
            CreditReservation(
                user_id=customer_a.id, linkedid="done-1", amount=Decimal("9"), expires_at=now, released_at=now
            )
        )
    r = client.post("/api/number/new", json={"number_ids": [nid]}, headers=customer_a.headers)
    assert r.status_code == 402 and r.json()["message"].startswith("The available balance (7.00)")
    assert _owner(nid) is None and balance(customer_a.id) == Decimal("10.0000")


def test_new_refuses_numbers_that_are_not_free(client, admin, customer_a, customer_b, buyer_a) -> None:
    top_up(customer_a.id, "50")
    free = _number(GB[0], setup="1")
    hers = _number(GB[1], user_id=customer_b.id)
    resting = _number(GB[2], status="inactive")
    for ids in ([free, hers], [resting], [424242]):
        r = client.post("/api/number/new", json={"number_ids": ids}, headers=customer_a.headers)
        assert r.status_code == 409 and "not free in the pool" in r.json()["message"], r.text
    for actor in (admin, buyer_a):
        r = client.post("/api/number/new", json={"number_ids": [free]}, headers=actor.headers)
        assert r.status_code == 403 and r.json()["message"] == "Only a customer can do this."
    for body in (
        {},
        {"number_ids": [free], "country_id": _country("GB"), "count": 1},
        {"country_id": _country("GB")},
        {"count": 1},
        {"country_id": _country("GB"), "count": 0},
        {"country_id": _country("GB"), "count": 101},
        {"number_ids": ["abc"]},
        {"number_ids": [free], "user_id": customer_b.id},
    ):
        r = client.post("/api/number/new", json=body, headers=customer_a.headers)
        assert r.status_code == 422, (body, r.text)
    unknown = client.post(
        "/api/number/new", json={"country_id": 424242, "count": 1}, headers=customer_a.headers
    )
    assert unknown.status_code == 404 and unknown.json()["errors"] == {
        "country_id": ["Country 424242 does not exist."]
    }
    assert (_owner(free), _owner(hers), _owner(resting)) == (None, customer_b.id, None)
    assert balance(customer_a.id) == Decimal("50.0000") and _setup_rows() == []


def _race(app, actors, body_for) -> list:
    """Send one /number/new per actor at the same moment, each from its own client and thread."""
    barrier = threading.Barrier(len(actors))
    results: list = [None] * len(actors)

    def run(i: int) -> None:
        with TestClient(app) as c:
            barrier.wait()
            results[i] = c.post("/api/number/new", json=body_for(actors[i]), headers=actors[i].headers)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actors))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_customers_racing_for_one_number_one_wins(app, customer_a, customer_b) -> None:
    for actor in (customer_a, customer_b):
        top_up(actor.id, "10")
    nid = _number(GB[0], setup="4")
    results = _race(app, [customer_a, customer_b], lambda _: {"number_ids": [nid]})
    assert sorted(r.status_code for r in results) == [200, 409], [r.text for r in results]
    winner = customer_a if results[0].status_code == 200 else customer_b
    loser = customer_b if winner is customer_a else customer_a
    assert _owner(nid) == winner.id
    (row,) = _setup_rows()
    assert row.user_id == winner.id
    assert (balance(winner.id), balance(loser.id)) == (Decimal("6.0000"), Decimal("10.0000"))


def test_two_customers_racing_for_the_last_number_of_a_country_one_wins(app, customer_a, customer_b) -> None:
    for actor in (customer_a, customer_b):
        top_up(actor.id, "10")
    nid = _number(GB[0], setup="4")
    gb = _country("GB")
    results = _race(app, [customer_a, customer_b], lambda _: {"country_id": gb, "count": 1})
    assert sorted(r.status_code for r in results) == [200, 409], [r.text for r in results]
    assert len(_setup_rows()) == 1 and _owner(nid) in (customer_a.id, customer_b.id)


def _waiting_on_a_lock() -> bool:
    """Whether another session of this database is waiting for a lock (the taker, on the number's row)."""
    with get_engine().connect() as conn:
        waiting = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock'"
            )
        )
        return bool(waiting.scalar())


def test_a_taker_waits_for_a_locked_number_then_sees_it_gone(app, customer_a, customer_b) -> None:
    """Deterministic form of the race: the row is held and taken by another transaction meanwhile."""
    top_up(customer_a.id, "10")
    nid = _number(GB[0], setup="4")
    result: dict = {}

    def take() -> None:
        with TestClient(app) as c:
            result["r"] = c.post("/api/number/new", json={"number_ids": [nid]}, headers=customer_a.headers)

    with get_engine().connect() as conn:
        conn.execute(text("SELECT id FROM number WHERE id = :id FOR UPDATE"), {"id": nid})
        thread = threading.Thread(target=take)
        thread.start()
        eventually(_waiting_on_a_lock, what="the taker blocked on the row lock")
        assert thread.is_alive()  # still waiting, not answered from a stale read
        conn.execute(text("UPDATE number SET user_id = :u WHERE id = :id"), {"u": customer_b.id, "id": nid})
        conn.commit()
    thread.join(30)
    assert result["r"].status_code == 409
    assert (
        _owner(nid) == customer_b.id and _setup_rows() == [] and balance(customer_a.id) == Decimal("10.0000")
    )


def test_a_count_taker_skips_rows_another_purchase_holds(client, customer_a) -> None:
    top_up(customer_a.id, "10")
    held = _number(GB[0], setup="1")
    spare = _number(GB[1], setup="1")
    with get_engine().connect() as conn:
        conn.execute(text("SELECT id FROM number WHERE id = :id FOR UPDATE"), {"id": held})
        r = client.post(
            "/api/number/new", json={"country_id": _country("GB"), "count": 1}, headers=customer_a.headers
        )
        conn.rollback()
    assert r.status_code == 200 and [row["id"] for row in r.json()["data"]] == [spare]
    assert _owner(held) is None


# --- DELETE /number ---------------------------------------------------------------------------


def test_customer_releases_its_own_numbers_and_the_ledger_keeps_the_payment(client, customer_a) -> None:
    top_up(customer_a.id, "10")
    nid = _number(GB[0], setup="2")
    client.post("/api/number/new", json={"number_ids": [nid]}, headers=customer_a.headers)
    client.put(
        f"/api/number/{nid}", json={"campaign_id": _campaign(customer_a.id)}, headers=customer_a.headers
    )
    r = client.request("DELETE", "/api/number", json={"ids": [nid]}, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    row = r.json()["data"][0]
    assert (row["user_id"], row["campaign_id"], row["assigned_at"], row["paid_until"]) == (
        None,
        None,
        None,
        None,
    )
    assert len(_setup_rows()) == 1 and balance(customer_a.id) == Decimal("8.0000")  # no refund
    # Back in the pool, it can be bought again (a new assignment, a new setup charge).
    again = client.post("/api/number/new", json={"number_ids": [nid]}, headers=customer_a.headers)
    assert again.status_code == 200 and len(_setup_rows()) == 2


def test_release_is_scoped_and_all_or_nothing(client, admin, customer_a, customer_b, buyer_a) -> None:
    mine = _number(GB[0], user_id=customer_a.id)
    hers = _number(GB[1], user_id=customer_b.id)
    pooled = _number(GB[2])
    r = client.request("DELETE", "/api/number", json={"ids": [mine, hers]}, headers=customer_a.headers)
    assert r.status_code == 404 and r.json()["message"] == f"Number(s) {hers} not found."
    assert (
        client.request("DELETE", "/api/number", json={"ids": [mine]}, headers=buyer_a.headers).status_code
        == 403
    )
    already = client.request("DELETE", "/api/number", json={"ids": [mine, pooled]}, headers=admin.headers)
    assert already.status_code == 409 and GB[2] in already.json()["message"]
    for body in ({}, {"ids": []}, {"ids": ["a"]}, {"ids": [mine], "all": True}):
        r = client.request("DELETE", "/api/number", json=body, headers=customer_a.headers)
        assert r.status_code == 422, (body, r.text)
    assert (_owner(mine), _owner(hers)) == (customer_a.id, customer_b.id)

    both = client.request("DELETE", "/api/number", json={"ids": [mine, hers]}, headers=admin.headers)
    assert both.status_code == 200 and (_owner(mine), _owner(hers)) == (None, None)


# --- GET /number/ct ---------------------------------------------------------------------------


def test_payment_report_lists_number_fees_scoped_and_filtered(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    for actor in (customer_a, customer_b):
        top_up(actor.id, "50")
    a_num = _number(GB[0], setup="3", monthly="2")
    b_num = _number(GB[1], setup="4")
    client.post("/api/number/new", json={"number_ids": [a_num]}, headers=customer_a.headers)
    client.post(
        "/api/number/give", json={"user_id": customer_b.id, "number_ids": [b_num]}, headers=admin.headers
    )
    with session_scope() as s:
        wallet.post(
            s,
            user_id=customer_a.id,
            kind=TransactionType.NUMBER_MONTHLY,
            amount=Decimal("-2"),
            reference=f"number:{a_num}:monthly:test",
            description=f"Monthly fee for {GB[0]}",
            number_id=a_num,
        )

    own = client.get("/api/number/ct", headers=customer_a.headers).json()["data"]
    assert own["total"] == 2  # top-ups are not number payments
    assert [(r["payment_type"], r["number"], r["amount"]) for r in own["data"]] == [
        ("monthly", GB[0], "-2.0000"),
        ("setup", GB[0], "-3.0000"),
    ]
    assert set(own["data"][0]) == {"id", "user_id", "number_id", "number", "payment_type", "amount"} | {
        "balance_after",
        "description",
        "date",
    }
    sneaky = client.get(f"/api/number/ct?user_id={customer_b.id}", headers=customer_a.headers)
    assert sneaky.status_code == 404 and list(sneaky.json()["errors"]) == ["user_id"]
    assert client.get("/api/number/ct", headers=customer_b.headers).json()["data"]["total"] == 1

    assert client.get("/api/number/ct", headers=admin.headers).json()["data"]["total"] == 3
    only_b = client.get(f"/api/number/ct?user_id={customer_b.id}", headers=admin.headers).json()["data"]
    assert [r["number"] for r in only_b["data"]] == [GB[1]]
    setups = client.get("/api/number/ct?payment_type=setup", headers=admin.headers).json()["data"]
    assert setups["total"] == 2 and {r["payment_type"] for r in setups["data"]} == {"setup"}
    by_number = client.get(f"/api/number/ct?params={GB[1][1:]}", headers=admin.headers).json()["data"]
    assert by_number["total"] == 1
    today = client.get("/api/number/ct?fromDate=2000-01-01&toDate=2999-12-31", headers=customer_a.headers)
    assert today.json()["data"]["total"] == 2
    future = client.get("/api/number/ct?fromDate=2999-01-01", headers=admin.headers).json()["data"]
    assert future["total"] == 0
    for bad in ("payment_type=topup", "fromDate=2020-13-01", "user_id=abc"):
        assert client.get(f"/api/number/ct?{bad}", headers=admin.headers).status_code == 422, bad
    assert client.get("/api/number/ct", headers=buyer_a.headers).status_code == 403


# --- the paid period --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (datetime(2025, 1, 15, 9, 30, tzinfo=UTC), datetime(2025, 2, 15, 9, 30, tzinfo=UTC)),
        (datetime(2025, 1, 31, tzinfo=UTC), datetime(2025, 2, 28, tzinfo=UTC)),
        (datetime(2024, 1, 31, tzinfo=UTC), datetime(2024, 2, 29, tzinfo=UTC)),
        (datetime(2025, 3, 31, tzinfo=UTC), datetime(2025, 4, 30, tzinfo=UTC)),
        (datetime(2025, 12, 31, 23, 59, tzinfo=UTC), datetime(2026, 1, 31, 23, 59, tzinfo=UTC)),
    ],
)
def test_add_month_keeps_the_day_or_clips_to_the_month_end(start, end) -> None:
    assert add_months(start, 1) == end
