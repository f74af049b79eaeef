"""The admin's user screens (spec §7 Users): each path's happy path, each role's access, bad input."""

from decimal import Decimal

import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.models import Country, Number, StatusChange, User, WalletTransaction
from core.values.enums import TransactionType

NEW_USER = {
    "name": "Dan Dealer",
    "email": "dan@example.com",
    "password": "goodpass1",
    "timezone": "Europe/Paris",
}


def test_admin_creates_lists_reads_updates_a_customer(client, admin) -> None:
    r = client.post("/api/user/add", json=NEW_USER, headers=admin.headers)
    assert r.status_code == 201, r.text
    created = r.json()["data"]
    assert created["role"] == 2 and created["role_name"] == "Customer" and created["status"] == "active"
    assert "password" not in created and "password_hash" not in created
    uid = created["id"]

    page = client.get("/api/user/details?page=1&perpage=10&params=dealer", headers=admin.headers).json()[
        "data"
    ]
    assert page["total"] == 1 and page["data"][0]["email"] == "dan@example.com"
    assert (page["current_page"], page["per_page"], page["last_page"], page["from"], page["to"]) == (
        1,
        10,
        1,
        1,
        1,
    )

    assert client.get(f"/api/user/id/{uid}", headers=admin.headers).json()["data"]["name"] == "Dan Dealer"
    upd = client.put(
        f"/api/user/{uid}", json={"name": "Dan D.", "company": "Dealers Ltd"}, headers=admin.headers
    )
    assert upd.status_code == 200 and upd.json()["data"]["company"] == "Dealers Ltd"
    assert (
        client.post("/api/login", json={"email": "dan@example.com", "password": "goodpass1"}).status_code
        == 200
    )


def test_pagination_shape_over_several_pages(client, admin) -> None:
    for i in range(12):
        client.post("/api/user/add", json={**NEW_USER, "email": f"u{i}@example.com"}, headers=admin.headers)
    page = client.get("/api/user/details?page=2&perpage=5&params=example", headers=admin.headers).json()[
        "data"
    ]
    assert (page["total"], page["last_page"], page["from"], page["to"], len(page["data"])) == (
        13,
        3,
        6,
        10,
        5,
    )
    beyond = client.get("/api/user/details?page=9&perpage=5", headers=admin.headers).json()["data"]
    assert beyond["data"] == [] and beyond["from"] is None and beyond["to"] is None
    for bad in ("page=0", "perpage=0", "perpage=100000", "page=x"):
        assert client.get(f"/api/user/details?{bad}", headers=admin.headers).status_code == 422


def test_user_on_lists_active_customers_only(client, admin, customer_a, customer_b, buyer_a) -> None:
    client.patch(f"/api/user/status/{customer_b.id}", json={"status": "inactive"}, headers=admin.headers)
    rows = client.get("/api/user/on", headers=admin.headers).json()["data"]
    assert [r["id"] for r in rows] == [customer_a.id]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/user/details", None),
        ("get", "/api/user/on", None),
        ("post", "/api/user/add", NEW_USER),
        ("post", "/api/user/admin-user", NEW_USER),
        ("put", "/api/user/{a}", {"name": "Hacked"}),
        ("patch", "/api/user/status/{a}", {"status": "inactive"}),
        ("put", "/api/user/token/{a}", None),
        ("post", "/api/user/admin/{a}", None),
        ("delete", "/api/user/{a}", None),
        ("post", "/api/user/impersonate/{a}", None),
    ],
)
def test_admin_only_paths_refuse_customers_and_buyers(
    client, customer_a, customer_b, buyer_a, method, path, body
) -> None:
    url = path.format(a=customer_a.id)
    for actor in (customer_a, customer_b, buyer_a):
        kwargs = {"headers": actor.headers}
        if body is not None:
            kwargs["json"] = body
        r = client.request(method.upper(), url, **kwargs)
        assert r.status_code == 403, (actor.email, url, r.text)
        assert r.json()["message"] == "Only an admin can do this."
    with session_scope() as s:
        user = s.get(User, customer_a.id)
        assert user.name == "Alice Customer" and user.status == "active" and user.role == 2


def test_user_id_is_self_only_for_customers(client, admin, customer_a, customer_b, buyer_a) -> None:
    assert client.get(f"/api/user/id/{customer_a.id}", headers=customer_a.headers).status_code == 200
    r = client.get(f"/api/user/id/{customer_a.id}", headers=customer_b.headers)
    assert r.status_code == 404 and r.json() == {"message": "User not found."}
    assert client.get(f"/api/user/id/{customer_a.id}", headers=buyer_a.headers).status_code == 403
    assert client.get("/api/user/id/999999", headers=admin.headers).status_code == 404
    # An id in a path is digits; anything else is no such address (not a sibling route's 405).
    assert client.get("/api/user/id/abc", headers=admin.headers).status_code == 404
    assert client.get("/api/user/id/99999999999999999999", headers=admin.headers).status_code == 422


def test_admin_user_creates_an_administrator(client, admin) -> None:
    r = client.post("/api/user/admin-user", json=NEW_USER, headers=admin.headers)
    assert r.status_code == 201 and r.json()["data"]["role"] == 1
    token = client.post("/api/login", json={"email": "dan@example.com", "password": "goodpass1"}).json()
    assert token["data"]["user"]["role_name"] == "Admin"


def test_make_admin_promotes_a_customer_without_history_only(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    r = client.post(f"/api/user/admin/{customer_b.id}", headers=admin.headers)
    assert r.status_code == 200 and r.json()["data"]["role"] == 1
    assert client.post(f"/api/user/admin/{customer_b.id}", headers=admin.headers).status_code == 409
    # customer_a owns a buyer: refused, role unchanged.
    refused = client.post(f"/api/user/admin/{customer_a.id}", headers=admin.headers)
    assert refused.status_code == 409
    assert client.post(f"/api/user/admin/{buyer_a.id}", headers=admin.headers).status_code == 409
    with session_scope() as s:
        assert s.get(User, customer_a.id).role == 2 and s.get(User, buyer_a.id).role == 3


def test_status_change_is_validated_and_recorded(client, admin, customer_a) -> None:
    bad = client.patch(f"/api/user/status/{customer_a.id}", json={"status": "gone"}, headers=admin.headers)
    assert bad.status_code == 422 and "status" in bad.json()["errors"]
    ok = client.patch(
        f"/api/user/status/{customer_a.id}", json={"status": "suspended"}, headers=admin.headers
    )
    assert ok.status_code == 200 and ok.json()["data"]["status"] == "suspended"
    with session_scope() as s:
        (row,) = s.exec(select(StatusChange)).all()
        assert (row.entity, row.entity_id, row.old_status, row.new_status, row.changed_by) == (
            "user",
            customer_a.id,
            "active",
            "suspended",
            admin.id,
        )
    own = client.patch(f"/api/user/status/{admin.id}", json={"status": "inactive"}, headers=admin.headers)
    assert own.status_code == 409


def test_update_validates_and_refuses_a_taken_email(client, admin, customer_a, customer_b) -> None:
    taken = client.put(f"/api/user/{customer_a.id}", json={"email": customer_b.email}, headers=admin.headers)
    assert taken.status_code == 409
    for body in (
        {"email": "nope"},
        {"timezone": "Atlantis/City"},
        {"tariff_id": 424242},
        {"role": 1},
        {"name": ""},
        {"password": "weak"},
    ):
        r = client.put(f"/api/user/{customer_a.id}", json=body, headers=admin.headers)
        missing = body.get("tariff_id") == 424242  # naming no row: 404 (docs/api.md)
        assert r.status_code == (404 if missing else 422), (body, r.text)
    with session_scope() as s:
        user = s.get(User, customer_a.id)
        assert (user.email, user.timezone, user.tariff_id, user.role) == (
            customer_a.email,
            "Europe/Berlin",
            None,
            2,
        )


def test_admin_password_reset_signs_the_user_out(client, admin, customer_a) -> None:
    r = client.put(f"/api/user/{customer_a.id}", json={"password": "resetpass9"}, headers=admin.headers)
    assert r.status_code == 200
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 401
    assert (
        client.post("/api/login", json={"email": customer_a.email, "password": "resetpass9"}).status_code
        == 200
    )


def test_new_api_token_replaces_the_previous_one(client, admin, customer_a) -> None:
    first = client.put(f"/api/user/token/{customer_a.id}", headers=admin.headers).json()["data"]
    assert first["user_id"] == customer_a.id
    api = {"Authorization": f"Bearer {first['token']}"}
    assert client.get("/api/profile", headers=api).json()["data"]["id"] == customer_a.id
    second = client.put(f"/api/user/token/{customer_a.id}", headers=admin.headers).json()["data"]
    assert second["token"] != first["token"]
    assert client.get("/api/profile", headers=api).status_code == 401
    # The customer's own sign-in session is untouched.
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 200


def _give_history(user_id: int) -> None:
    with session_scope() as s:
        gb = s.exec(select(Country).where(Country.iso2 == "GB")).one()
        s.add(Number(number="+442071838750", country_id=gb.id, user_id=user_id))


def test_delete_refuses_users_with_history_and_removes_others_with_their_buyer_logins(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    _give_history(customer_b.id)
    r = client.delete(f"/api/user/{customer_b.id}", headers=admin.headers)
    assert r.status_code == 409 and "deactivate it instead" in r.json()["message"]
    assert client.delete(f"/api/user/{admin.id}", headers=admin.headers).status_code == 409

    assert client.delete(f"/api/user/{customer_a.id}", headers=admin.headers).status_code == 200
    with session_scope() as s:
        assert s.get(User, customer_a.id) is None
        assert s.get(User, buyer_a.id) is None  # the buyer's login went with its company
        assert s.get(User, customer_b.id) is not None
    assert client.delete(f"/api/user/{customer_a.id}", headers=admin.headers).status_code == 404


def _ledger(user_id: int, kind: TransactionType, amount: str, ref: str, description: str) -> None:
    with session_scope() as s:
        user = s.get(User, user_id)
        user.balance += Decimal(amount)
        s.add(
            WalletTransaction(
                user_id=user_id,
                transaction_type=kind.value,
                amount=Decimal(amount),
                balance_after=user.balance,
                reference=ref,
                description=description,
            )
        )


def test_wallet_history_is_scoped_and_filtered(client, admin, customer_a, customer_b, buyer_a) -> None:
    _ledger(customer_a.id, TransactionType.TOPUP, "100", "t1", "Bank transfer")
    _ledger(customer_a.id, TransactionType.CALL, "-0.0400", "c1", "Call to +4420")
    _ledger(customer_b.id, TransactionType.TOPUP, "50", "t2", "Card")

    own = client.get("/api/user/wall", headers=customer_a.headers).json()["data"]
    assert own["total"] == 2 and {r["user_id"] for r in own["data"]} == {customer_a.id}
    assert own["data"][0]["amount"] == "-0.0400" and own["data"][0]["balance_after"] == "99.9600"
    # A customer can't widen the scope with user_id: another customer's is a 404.
    sneaky = client.get(f"/api/user/wall?user_id={customer_b.id}", headers=customer_a.headers)
    assert sneaky.status_code == 404 and list(sneaky.json()["errors"]) == ["user_id"]
    everyone = client.get("/api/user/wall", headers=admin.headers).json()["data"]
    assert everyone["total"] == 3
    only_b = client.get(f"/api/user/wall?user_id={customer_b.id}", headers=admin.headers).json()["data"]
    assert only_b["total"] == 1
    topups = client.get("/api/user/wall?transaction_type=topup&description=bank", headers=admin.headers)
    assert topups.json()["data"]["total"] == 1
    assert client.get("/api/user/wall?transaction_type=gift", headers=admin.headers).status_code == 422
    assert client.get("/api/user/wall?fromDate=2020-13-01", headers=admin.headers).status_code == 422
    future = client.get("/api/user/wall?fromDate=2999-01-01", headers=admin.headers).json()["data"]
    assert future["total"] == 0
    today = client.get("/api/user/wall?fromDate=2000-01-01&toDate=2999-12-31", headers=customer_a.headers)
    assert today.json()["data"]["total"] == 2
    assert client.get("/api/user/wall", headers=buyer_a.headers).status_code == 403


def test_customer_scope_is_never_widened_by_user_id(client, customer_a, customer_b) -> None:
    _ledger(customer_b.id, TransactionType.TOPUP, "50", "t2", "Card")
    r = client.get(f"/api/user/wall?user_id={customer_b.id}", headers=customer_a.headers)
    assert r.status_code == 404 and list(r.json()["errors"]) == ["user_id"]
