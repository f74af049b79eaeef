"""Traffic sources (issue 33): a customer's own, an admin's of any customer; names and utm_source
values unique per customer whatever their case; a number's source is one of its owner's."""

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Number, TrafficSource
from testkit.rows import call, change, get, save

RADIO = {"name": "Radio", "utm_source": "radio", "payout_kind": "fixed", "payout_amount": "2.50"}


def make_source(client, actor, **extra) -> dict:
    r = client.post("/api/sources", json={**RADIO, **extra}, headers=actor.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _number(user_id: int | None, did: str = "+442071838750") -> int:
    return save(Number(number=did, user_id=user_id)).id or 0


def test_a_customer_keeps_its_sources_and_an_admin_any_customers(
    client, admin, customer_a, customer_b
) -> None:
    mine = make_source(client, customer_a)
    assert (mine["user_id"], mine["payout_kind"], mine["payout_amount"]) == (customer_a.id, "fixed", "2.5000")
    make_source(client, customer_a, name="Partner", utm_source=None, payout_kind="share", payout_share="12.5")
    theirs = make_source(client, admin, user_id=customer_b.id, name="Print", utm_source=None)
    assert theirs["user_id"] == customer_b.id

    listed = client.get("/api/sources", headers=customer_a.headers).json()["data"]
    assert [(s["name"], s["payout_share"]) for s in listed["data"]] == [
        ("Partner", "12.5000"),
        ("Radio", "0.0000"),
    ]
    assert (
        client.get("/api/sources", params={"params": "RAD"}, headers=customer_a.headers).json()["data"][
            "total"
        ]
        == 1
    )
    everyone = client.get("/api/sources", headers=admin.headers).json()["data"]
    assert everyone["total"] == 3 and {s["customer_name"] for s in everyone["data"]} == {
        "Alice Customer",
        "Bob Customer",
    }
    only_b = client.get("/api/sources", params={"user_id": customer_b.id}, headers=admin.headers).json()[
        "data"
    ]
    assert [s["name"] for s in only_b["data"]] == ["Print"]

    # Another customer's source answers as a missing one; an admin needs to name the customer.
    assert (
        client.put(f"/api/sources/{mine['id']}", json={"name": "X"}, headers=customer_b.headers).status_code
        == 404
    )
    assert client.delete(f"/api/sources/{mine['id']}", headers=customer_b.headers).status_code == 404
    assert client.post("/api/sources", json=RADIO, headers=admin.headers).status_code == 422
    assert get(TrafficSource, mine["id"]).name == "Radio"


def test_names_and_utm_sources_are_unique_per_customer_whatever_their_case(
    client, customer_a, customer_b
) -> None:
    radio = make_source(client, customer_a)
    again = client.post(
        "/api/sources", json={**RADIO, "name": "RADIO", "utm_source": None}, headers=customer_a.headers
    )
    assert again.status_code == 409 and again.json()["errors"] == {
        "name": ["Another of this customer's sources has this name."]
    }
    utm = client.post(
        "/api/sources", json={**RADIO, "name": "Other", "utm_source": "Radio"}, headers=customer_a.headers
    )
    assert utm.status_code == 409 and "utm_source" in utm.json()["errors"]
    make_source(client, customer_b)  # another customer's are its own
    other = make_source(client, customer_a, name="Other", utm_source="other")
    clash = client.put(
        f"/api/sources/{other['id']}", json={"utm_source": "RADIO"}, headers=customer_a.headers
    )
    assert clash.status_code == 409
    same = client.put(
        f"/api/sources/{radio['id']}",
        json={"name": "radio", "utm_source": "RADIO"},
        headers=customer_a.headers,
    )
    assert same.status_code == 200 and same.json()["data"]["name"] == "radio"  # its own name, re-cased
    cleared = client.put(f"/api/sources/{radio['id']}", json={"utm_source": None}, headers=customer_a.headers)
    assert cleared.status_code == 200 and cleared.json()["data"]["utm_source"] is None  # static only now
    blank = client.put(f"/api/sources/{radio['id']}", json={"utm_source": "  "}, headers=customer_a.headers)
    assert blank.status_code == 422


def test_payout_terms_are_validated_and_nothing_changes_on_a_refusal(client, customer_a) -> None:
    radio = make_source(client, customer_a)
    for bad in (
        {"payout_share": "100.01"},
        {"payout_share": "-1"},
        {"payout_amount": "-0.01"},
        {"payout_amount": "0.00001"},
        {"payout_kind": "percent"},
        {"payout_kind": None},
        {"name": " "},
    ):
        r = client.put(f"/api/sources/{radio['id']}", json=bad, headers=customer_a.headers)
        assert r.status_code == 422, (bad, r.text)
    row = get(TrafficSource, radio["id"])
    assert (row.name, row.payout_kind, str(row.payout_amount), str(row.payout_share)) == (
        "Radio",
        "fixed",
        "2.5000",
        "0.0000",
    )
    share = client.put(
        f"/api/sources/{radio['id']}",
        json={"payout_kind": "share", "payout_share": "100"},
        headers=customer_a.headers,
    )
    assert share.status_code == 200 and share.json()["data"]["payout_share"] == "100.0000"


def test_a_numbers_source_is_one_of_its_owners(client, admin, customer_a, customer_b) -> None:
    mine, theirs = make_source(client, customer_a), make_source(client, customer_b)
    number, pooled = _number(customer_a.id), _number(None, "+442071838751")
    ok = client.put(f"/api/number/{number}", json={"source_id": mine["id"]}, headers=customer_a.headers)
    assert ok.status_code == 200 and ok.json()["data"]["source_id"] == mine["id"]
    foreign = client.put(
        f"/api/number/{number}", json={"source_id": theirs["id"]}, headers=customer_a.headers
    )
    assert foreign.status_code == 404 and "source_id" in foreign.json()["errors"]
    by_admin = client.put(f"/api/number/{number}", json={"source_id": theirs["id"]}, headers=admin.headers)
    assert by_admin.status_code == 404  # the admin too: the number's owner's sources only
    pool = client.put(f"/api/number/{pooled}", json={"source_id": mine["id"]}, headers=admin.headers)
    assert pool.status_code == 422
    assert get(Number, number).source_id == mine["id"] and get(Number, pooled).source_id is None
    listed = client.get("/api/sources", headers=customer_a.headers).json()["data"]["data"]
    assert listed[0]["numbers"] == 1

    released = client.request("DELETE", "/api/number", json={"ids": [number]}, headers=customer_a.headers)
    assert released.status_code == 200, released.text
    assert get(Number, number).source_id is None  # back in the pool: no one's source


def test_deleting_a_source_unlinks_its_numbers_and_is_refused_while_calls_name_it(client, customer_a) -> None:
    used, spare = (
        make_source(client, customer_a),
        make_source(client, customer_a, name="Spare", utm_source=None),
    )
    number = _number(customer_a.id)
    change(Number, number, source_id=spare["id"])
    assert client.delete(f"/api/sources/{spare['id']}", headers=customer_a.headers).status_code == 200
    assert get(Number, number).source_id is None
    call(customer_a.id, 30, source_id=used["id"])
    refused = client.delete(f"/api/sources/{used['id']}", headers=customer_a.headers)
    assert refused.status_code == 409
    with session_scope() as s:
        assert s.exec(select(TrafficSource.name)).all() == ["Radio"]


def test_a_buyer_has_no_sources(client, buyer_a) -> None:
    assert client.get("/api/sources", headers=buyer_a.headers).status_code == 403
    assert client.post("/api/sources", json=RADIO, headers=buyer_a.headers).status_code == 403
