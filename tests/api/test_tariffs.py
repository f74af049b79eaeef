"""Tariffs (spec §7 Tariffs): admin management, a customer's read of its own tariff, refusals."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from core.infra.db import session_scope
from core.models import Call, Rate, StatusChange, Tariff, User

STANDARD = {"name": "Standard", "currency": "eur", "description": "Retail rates"}


def _tariff(client, admin, **body) -> dict:
    r = client.post("/api/tariff/add", json={**STANDARD, **body}, headers=admin.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _assign(user_id: int, tariff_id: int | None) -> None:
    with session_scope() as s:
        s.get(User, user_id).tariff_id = tariff_id


def _count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Tariff))


def _rated_call(tariff_id: int) -> None:
    with session_scope() as s:
        rate = Rate(tariff_id=tariff_id, prefix="44", rate_per_minute=Decimal("0.01"))
        s.add(rate)
        s.flush()
        s.add(
            Call(
                linkedid="call-1",
                did="+442071838750",
                caller="+15551234567",
                started_at=datetime.now(UTC),
                disposition="ANSWERED",
                rate_id=rate.id,
            )
        )


def test_admin_creates_lists_updates_a_tariff(client, admin) -> None:
    created = _tariff(client, admin)
    assert created["currency"] == "EUR" and created["status"] == "active"
    _tariff(client, admin, name="Wholesale", currency="USD", description=None)

    page = client.get("/api/tariff/details?page=1&perpage=10&params=retail", headers=admin.headers).json()
    assert page["data"]["total"] == 1 and page["data"]["data"][0]["name"] == "Standard"
    everything = client.get("/api/tariff/details", headers=admin.headers).json()["data"]
    assert [t["name"] for t in everything["data"]] == ["Standard", "Wholesale"]

    r = client.patch(
        f"/api/tariff/{created['id']}",
        json={"name": "Standard 2026", "currency": "GBP", "description": None},
        headers=admin.headers,
    )
    assert r.status_code == 200, r.text
    assert (r.json()["data"]["name"], r.json()["data"]["currency"], r.json()["data"]["description"]) == (
        "Standard 2026",
        "GBP",
        None,
    )


def test_tariff_on_lists_active_tariffs_only(client, admin) -> None:
    first = _tariff(client, admin)
    _tariff(client, admin, name="Backup")
    client.patch(f"/api/tariff/status/{first['id']}", json={"status": "inactive"}, headers=admin.headers)
    rows = client.get("/api/tariff/on", headers=admin.headers).json()["data"]
    assert [(r["name"], r["currency"]) for r in rows] == [("Backup", "EUR")]
    inactive = client.get("/api/tariff/details?status=inactive", headers=admin.headers).json()["data"]
    assert [t["id"] for t in inactive["data"]] == [first["id"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"currency": "XYZ"}, "currency"),
        ({"currency": "US"}, "currency"),
        ({"currency": 840}, "currency"),
        ({"name": ""}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"description": "d" * 501}, "description"),
        ({"rates": []}, "rates"),
    ],
)
def test_add_refuses_bad_input_and_writes_nothing(client, admin, body, field) -> None:
    r = client.post("/api/tariff/add", json={**STANDARD, **body}, headers=admin.headers)
    assert r.status_code == 422, r.text
    assert field in r.json()["errors"]
    assert _count() == 0


def test_names_are_unique_case_insensitively(client, admin) -> None:
    first = _tariff(client, admin)
    second = _tariff(client, admin, name="Premium")
    r = client.post("/api/tariff/add", json={**STANDARD, "name": "STANDARD"}, headers=admin.headers)
    assert r.status_code == 409 and r.json()["errors"] == {
        "name": ["A tariff with this name already exists."]
    }
    taken = client.patch(f"/api/tariff/{second['id']}", json={"name": "standard"}, headers=admin.headers)
    assert taken.status_code == 409
    # Renaming to its own name is not a clash.
    assert client.patch(
        f"/api/tariff/{first['id']}", json={"name": "Standard"}, headers=admin.headers
    ).is_success
    assert _count() == 2


def test_update_refuses_empty_required_fields_and_unknown_ids(client, admin) -> None:
    tariff = _tariff(client, admin)
    for body in ({"name": None}, {"currency": None}, {"currency": "ABC"}, {"status": "inactive"}):
        r = client.patch(f"/api/tariff/{tariff['id']}", json=body, headers=admin.headers)
        assert r.status_code == 422, (body, r.text)
    assert client.patch("/api/tariff/999999", json={"name": "X"}, headers=admin.headers).status_code == 404
    r = client.patch("/api/tariff/abc", json={"name": "X"}, headers=admin.headers)
    assert r.status_code == 404 and r.json() == {"message": "Nothing is at this address."}
    with session_scope() as s:
        row = s.get(Tariff, tariff["id"])
        assert (row.name, row.currency, row.status) == ("Standard", "EUR", "active")


def test_customer_reads_only_its_own_tariff(client, admin, customer_a, customer_b, buyer_a) -> None:
    own = _tariff(client, admin)
    _tariff(client, admin, name="Other")
    _assign(customer_a.id, own["id"])

    mine = client.get("/api/tariff/details", headers=customer_a.headers).json()["data"]
    assert [t["id"] for t in mine["data"]] == [own["id"]] and mine["total"] == 1
    none = client.get("/api/tariff/details", headers=customer_b.headers).json()["data"]
    assert none["total"] == 0 and none["data"] == []
    assert client.get("/api/tariff/details", headers=buyer_a.headers).status_code == 403
    for actor in (customer_a, buyer_a):
        assert client.get("/api/tariff/on", headers=actor.headers).status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/tariff/add", {**STANDARD, "name": "Mine"}),
        ("patch", "/api/tariff/{id}", {"name": "Hacked"}),
        ("patch", "/api/tariff/status/{id}", {"status": "inactive"}),
        ("delete", "/api/tariff/{id}", None),
    ],
)
def test_writes_are_admin_only(client, admin, customer_a, buyer_a, method, path, body) -> None:
    tariff = _tariff(client, admin)
    _assign(customer_a.id, tariff["id"])
    for actor in (customer_a, buyer_a):
        r = client.request(method.upper(), path.format(id=tariff["id"]), json=body, headers=actor.headers)
        assert r.status_code == 403 and r.json()["message"] == "Only an admin can do this."
    with session_scope() as s:
        assert [(t.name, t.status) for t in s.scalars(select(Tariff))] == [("Standard", "active")]


def test_status_change_is_validated_and_recorded(client, admin) -> None:
    tariff = _tariff(client, admin)
    bad = client.patch(f"/api/tariff/status/{tariff['id']}", json={"status": "gone"}, headers=admin.headers)
    assert bad.status_code == 422 and "status" in bad.json()["errors"]
    assert (
        client.patch(
            "/api/tariff/status/424242", json={"status": "active"}, headers=admin.headers
        ).status_code
        == 404
    )
    r = client.patch(f"/api/tariff/status/{tariff['id']}", json={"status": "inactive"}, headers=admin.headers)
    assert r.status_code == 200 and r.json()["data"]["status"] == "inactive"
    with session_scope() as s:
        (row,) = s.scalars(select(StatusChange))
        assert (row.entity, row.entity_id, row.old_status, row.new_status, row.changed_by) == (
            "tariff",
            tariff["id"],
            "active",
            "inactive",
            admin.id,
        )


def test_delete_is_refused_while_customers_or_calls_use_the_tariff(client, admin, customer_a) -> None:
    tariff = _tariff(client, admin)
    _assign(customer_a.id, tariff["id"])
    r = client.delete(f"/api/tariff/{tariff['id']}", headers=admin.headers)
    assert r.status_code == 409 and r.json()["message"].startswith("Customers are assigned to this tariff")
    moved = client.patch(f"/api/tariff/{tariff['id']}", json={"currency": "USD"}, headers=admin.headers)
    assert moved.status_code == 409 and "currency" in moved.json()["errors"]

    _assign(customer_a.id, None)
    _rated_call(tariff["id"])
    r = client.delete(f"/api/tariff/{tariff['id']}", headers=admin.headers)
    assert r.status_code == 409 and "deactivate it instead" in r.json()["message"]
    assert _count() == 1


def test_delete_removes_an_unused_tariff_with_its_rates(client, admin) -> None:
    tariff = _tariff(client, admin)
    rate = {"tariff_id": tariff["id"], "prefix": "44", "rate_per_minute": "0.01"}
    assert client.post("/api/rate/add", json=rate, headers=admin.headers).status_code == 201
    assert (
        client.delete(f"/api/tariff/{tariff['id']}", headers=admin.headers).json()["message"]
        == "Tariff deleted."
    )
    with session_scope() as s:
        assert s.scalar(select(func.count()).select_from(Rate)) == 0
    assert _count() == 0
    assert client.delete(f"/api/tariff/{tariff['id']}", headers=admin.headers).status_code == 404
