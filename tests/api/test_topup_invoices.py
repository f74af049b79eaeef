"""Admin top-ups (idempotent ledger credits) and the invoice list, per tenant."""

from datetime import date

from core.infra.db import session_scope
from core.models import Invoice


def test_topups_credit_the_wallet_once_per_reference(client, admin, customer_a, customer_b, buyer_a) -> None:
    body = {"user_id": customer_a.id, "amount": "100.50", "note": "Bank transfer 42", "reference": "bank-42"}
    r = client.post("/api/topup/add", json=body, headers=admin.headers)
    assert r.status_code == 201, r.text
    assert r.json()["data"]["amount"] == "100.5000" and r.json()["data"]["balance_after"] == "100.5000"
    replay = client.post("/api/topup/add", json=body, headers=admin.headers)
    assert replay.json()["message"] == "This top-up was already credited."
    assert replay.json()["data"]["id"] == r.json()["data"]["id"]
    stolen = client.post("/api/topup/add", json={**body, "user_id": customer_b.id}, headers=admin.headers)
    assert stolen.status_code == 409
    balance = client.get(f"/api/user/balance/{customer_a.id}", headers=customer_a.headers).json()["data"][0]
    assert balance["balance"] == "100.5000"
    wall = client.get("/api/user/wall", headers=customer_a.headers).json()["data"]
    assert wall["total"] == 1 and wall["data"][0]["description"] == "Bank transfer 42"
    assert client.get("/api/topup/details", headers=admin.headers).json()["data"]["total"] == 1
    for actor in (customer_a, buyer_a):
        assert (
            client.post("/api/topup/add", json={**body, "reference": "x"}, headers=actor.headers).status_code
            == 403
        )


def test_topup_bad_amounts_change_nothing(client, admin, customer_a) -> None:
    for amount in ("0", "-5", "abc", "1e3x", "0.00001", "10000000", None, "NaN", "Infinity"):
        r = client.post(
            "/api/topup/add", json={"user_id": customer_a.id, "amount": amount}, headers=admin.headers
        )
        assert r.status_code == 422, (amount, r.text)
        assert "amount" in r.json()["errors"]
    assert (
        client.post(
            "/api/topup/add", json={"user_id": admin.id, "amount": "5"}, headers=admin.headers
        ).status_code
        == 404
    )
    assert (
        client.post(
            "/api/topup/add", json={"user_id": 999999, "amount": "5"}, headers=admin.headers
        ).status_code
        == 404
    )
    assert (
        client.get(f"/api/user/balance/{customer_a.id}", headers=admin.headers).json()["data"][0]["balance"]
        == "0.0000"
    )


# A line as core/billing/invoices.py writes it (the answer's schema, InvoiceLine).
LINE = {
    "kind": "calls",
    "country": "United Kingdom",
    "prefix": "44",
    "calls": 3,
    "minutes": "4.50",
    "amount": "12.3400",
}


def test_invoices_are_listed_per_tenant(client, admin, customer_a, customer_b, buyer_a) -> None:
    with session_scope() as s:
        inv = Invoice(
            user_id=customer_a.id,
            number="INV-2026-10-0001",
            period_start=date(2026, 10, 1),
            period_end=date(2026, 10, 31),
            total="12.3400",
            lines=[LINE],
        )
        s.add(inv)
        s.flush()
        iid = inv.id
    own = client.get("/api/invoice/details", headers=customer_a.headers).json()["data"]
    assert own["total"] == 1 and own["data"][0]["total"] == "12.3400"
    detail = client.get(f"/api/invoice/{iid}", headers=customer_a.headers).json()["data"]
    assert detail["lines"] == [LINE]
    assert client.get(f"/api/invoice/{iid}", headers=customer_b.headers).status_code == 404
    assert client.get("/api/invoice/details", headers=customer_b.headers).json()["data"]["total"] == 0
    assert client.get(f"/api/invoice/{iid}", headers=admin.headers).status_code == 200
    assert client.get("/api/invoice/details", headers=buyer_a.headers).status_code == 403


def test_refused_topups_name_the_field_and_change_nothing(client, admin, customer_a, customer_b) -> None:
    body = {"user_id": customer_a.id, "amount": "10", "reference": "bank-7"}
    assert client.post("/api/topup/add", json=body, headers=admin.headers).status_code == 201
    stolen = client.post("/api/topup/add", json={**body, "user_id": customer_b.id}, headers=admin.headers)
    taken = "This reference was already used for another customer."
    assert stolen.status_code == 409 and stolen.json() == {"message": taken, "errors": {"reference": [taken]}}
    unknown = client.post("/api/topup/add", json={**body, "user_id": admin.id}, headers=admin.headers)
    missing = f"Customer {admin.id} does not exist."
    assert unknown.status_code == 404
    assert unknown.json() == {"message": missing, "errors": {"user_id": [missing]}}
    balance = client.get(f"/api/user/balance/{customer_b.id}", headers=admin.headers).json()["data"][0]
    assert balance["balance"] == "0.0000"


def test_a_topup_with_more_places_than_the_currency_has_is_refused_and_credits_nothing(
    client, admin, customer_a
) -> None:
    """12.345 USD would be shown as $12.35 and stored as 12.3450: a person types cents, no more."""
    r = client.post(
        "/api/topup/add", json={"user_id": customer_a.id, "amount": "12.345"}, headers=admin.headers
    )
    assert r.status_code == 422, r.text
    assert r.json()["message"] == "USD amounts have at most 2 decimals; 12.345 has more."
    balance = client.get(f"/api/user/balance/{customer_a.id}", headers=customer_a.headers).json()["data"][0]
    assert balance["balance"] == "0.0000"
    done = client.post(
        "/api/topup/add", json={"user_id": customer_a.id, "amount": "12.35"}, headers=admin.headers
    )
    assert done.status_code == 201 and "12.35" in done.json()["message"]
    assert done.json()["data"]["amount"] == "12.3500"
