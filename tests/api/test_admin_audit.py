"""Every administrator action that changes an account is recorded and listed (GET /user/audit)."""

from testkit.actors import make_actor

UA = {"User-Agent": "pytest-admin"}


def _audit(client, admin, **params):
    r = client.get("/api/user/audit", params=params, headers=admin.headers)
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_each_admin_action_on_another_account_is_listed(client, admin, customer_a, buyer_a) -> None:
    other_admin = make_actor(1, "Otto Admin")
    h = {**admin.headers, **UA}
    assert client.put(f"/api/user/token/{other_admin.id}", headers=h).status_code == 200
    assert (
        client.put(f"/api/user/{other_admin.id}", json={"password": "newpass123"}, headers=h).status_code
        == 200
    )
    assert (
        client.patch(f"/api/user/status/{customer_a.id}", json={"status": "suspended"}, headers=h).status_code
        == 200
    )
    assert (
        client.patch(f"/api/user/status/{customer_a.id}", json={"status": "active"}, headers=h).status_code
        == 200
    )
    body = {"user_id": customer_a.id, "amount": "10.00", "reference": "audit-1", "note": "cash"}
    assert client.post("/api/topup/add", json=body, headers=h).status_code == 201
    assert client.post("/api/topup/add", json=body, headers=h).status_code == 201  # replay: no credit, no row
    assert (
        client.put(f"/api/buyer/{buyer_a.buyer_id}", json={"password": "buyerpass9"}, headers=h).status_code
        == 200
    )
    assert client.post(f"/api/user/impersonate/{buyer_a.id}", headers=h).status_code == 200
    fresh = client.post(
        "/api/user/add",
        json={"name": "New One", "email": "new.one@example.com", "password": "goodpass1"},
        headers=h,
    ).json()["data"]
    assert client.post(f"/api/user/admin/{fresh['id']}", headers=h).status_code == 200
    assert client.delete(f"/api/user/{fresh['id']}", headers=h).status_code == 200

    page = _audit(client, admin, perpage=50)
    rows = list(reversed(page["data"]))
    assert [(r["action"], r["user_email"]) for r in rows] == [
        ("api_token", other_admin.email),
        ("password", other_admin.email),
        ("status", customer_a.email),
        ("status", customer_a.email),
        ("top_up", customer_a.email),
        ("password", buyer_a.email),
        ("impersonate", buyer_a.email),
        ("role", "new.one@example.com"),
        ("delete", "new.one@example.com"),
    ]
    assert page["total"] == 9
    assert rows[2]["detail"] == "active -> suspended" and rows[4]["detail"].startswith("10.00 ")
    assert all(r["admin_id"] == admin.id and r["admin_email"] == admin.email for r in rows)
    assert all(r["ip"] and r["user_agent"] == "pytest-admin" and r["created_at"] for r in rows)
    assert rows[-1]["user_id"] is None  # the deleted account: its email stays

    # Filters: whom, what, and an id naming no account is a 404.
    only = _audit(client, admin, user_id=other_admin.id)["data"]
    assert {r["action"] for r in only} == {"api_token", "password"}
    assert [r["action"] for r in _audit(client, admin, action="top_up")["data"]] == ["top_up"]
    assert _audit(client, admin, params="otto")["total"] == 2
    r = client.get("/api/user/audit", params={"admin_id": 987654}, headers=admin.headers)
    assert r.status_code == 404 and "user_id" not in r.json()["errors"] and r.json()["errors"]["admin_id"]


def test_a_refused_action_leaves_no_row(client, admin) -> None:
    assert (
        client.patch(
            f"/api/user/status/{admin.id}", json={"status": "inactive"}, headers=admin.headers
        ).status_code
        == 409
    )
    assert client.put("/api/user/token/987654", headers=admin.headers).status_code == 404
    assert _audit(client, admin)["total"] == 0


def test_a_customer_managing_its_own_buyer_is_not_an_admin_action(client, admin, customer_a, buyer_a) -> None:
    h = customer_a.headers
    assert (
        client.put(f"/api/buyer/{buyer_a.buyer_id}", json={"password": "buyerpass9"}, headers=h).status_code
        == 200
    )
    assert client.get("/api/user/audit", headers=h).status_code == 403
    assert _audit(client, admin)["total"] == 0
