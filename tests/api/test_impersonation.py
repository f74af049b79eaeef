"""An admin acting as a customer: start, act, return; the token names both; every step audited."""

from sqlmodel import select

from core.infra.db import session_scope
from core.models import AuthToken, ImpersonationAudit


def test_impersonation_round_trip_with_audit(client, admin, customer_a, customer_b) -> None:
    ua = {"User-Agent": "pytest-browser"}
    r = client.post(f"/api/user/impersonate/{customer_a.id}", headers={**admin.headers, **ua})
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["impersonator_id"] == admin.id
    assert data["user"]["user_id"] == customer_a.id and data["user"]["role"] == 2
    as_a = {"Authorization": f"Bearer {data['token']}"}

    # Acting as the customer: its own data, its scope, not the admin's powers.
    assert client.get("/api/profile", headers=as_a).json()["data"]["id"] == customer_a.id
    assert client.get(f"/api/user/id/{customer_b.id}", headers=as_a).status_code == 404
    assert client.get("/api/user/details", headers=as_a).status_code == 403

    with session_scope() as s:
        token = s.exec(select(AuthToken).where(AuthToken.kind == "impersonation")).one()
        assert (token.user_id, token.impersonator_id) == (customer_a.id, admin.id)

    back = client.post("/api/impersonate/return", json={"impersonator_id": admin.id}, headers=as_a)
    assert back.status_code == 200
    assert back.json()["data"]["user"]["user_id"] == admin.id
    assert client.get("/api/profile", headers=as_a).status_code == 401  # revoked
    assert client.get("/api/profile", headers=admin.headers).json()["data"]["id"] == admin.id

    with session_scope() as s:
        rows = s.exec(select(ImpersonationAudit).order_by(ImpersonationAudit.id)).all()
        assert [(r.action, r.admin_id, r.user_id) for r in rows] == [
            ("start", admin.id, customer_a.id),
            ("stop", admin.id, customer_a.id),
        ]
        assert all(r.ip and r.created_at for r in rows)
        assert rows[0].user_agent == "pytest-browser"
        assert rows[0].admin_email == admin.email and rows[0].user_email == customer_a.email


def test_stop_revokes_and_is_audited(client, admin, buyer_a) -> None:
    token = client.post(f"/api/user/impersonate/{buyer_a.id}", headers=admin.headers).json()["data"]["token"]
    as_buyer = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/profile", headers=as_buyer).json()["data"]["role"] == 3
    r = client.post("/api/impersonate/stop", headers=as_buyer)
    assert r.status_code == 200 and r.json()["data"]["user_id"] == admin.id
    assert client.get("/api/profile", headers=as_buyer).status_code == 401
    with session_scope() as s:
        assert [a.action for a in s.exec(select(ImpersonationAudit)).all()] == ["start", "stop"]


def test_return_needs_the_matching_impersonator_id(client, admin, customer_a) -> None:
    token = client.post(f"/api/user/impersonate/{customer_a.id}", headers=admin.headers).json()["data"][
        "token"
    ]
    as_a = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/impersonate/return", json={}, headers=as_a).status_code == 422
    assert (
        client.post(
            "/api/impersonate/return", json={"impersonator_id": admin.id + 99}, headers=as_a
        ).status_code
        == 403
    )
    assert client.get("/api/profile", headers=as_a).status_code == 200  # still acting


def test_never_another_admin_and_only_admins(client, admin, customer_a) -> None:
    other_admin = client.post(
        "/api/user/admin-user",
        headers=admin.headers,
        json={"name": "Other", "email": "other@example.com", "password": "goodpass1"},
    )
    other_id = other_admin.json()["data"]["id"]
    r = client.post(f"/api/user/impersonate/{other_id}", headers=admin.headers)
    assert r.status_code == 403 and "administrators" in r.json()["message"]
    assert client.post(f"/api/user/impersonate/{admin.id}", headers=customer_a.headers).status_code == 403
    assert client.post("/api/user/impersonate/987654", headers=admin.headers).status_code == 404
    with session_scope() as s:
        assert s.exec(select(ImpersonationAudit)).all() == []


def test_not_impersonating_cannot_stop_or_return(client, admin) -> None:
    assert client.post("/api/impersonate/stop", headers=admin.headers).status_code == 409
    r = client.post("/api/impersonate/return", json={"impersonator_id": admin.id}, headers=admin.headers)
    assert r.status_code == 409


def test_no_nested_impersonation_and_inactive_targets_refused(client, admin, customer_a, customer_b) -> None:
    token = client.post(f"/api/user/impersonate/{customer_a.id}", headers=admin.headers).json()["data"][
        "token"
    ]
    # The impersonation token carries the customer's role, so it can't impersonate anyone.
    nested = client.post(
        f"/api/user/impersonate/{customer_b.id}", headers={"Authorization": f"Bearer {token}"}
    )
    assert nested.status_code == 403
    client.patch(f"/api/user/status/{customer_b.id}", json={"status": "inactive"}, headers=admin.headers)
    assert client.post(f"/api/user/impersonate/{customer_b.id}", headers=admin.headers).status_code == 409


def test_deactivating_the_admin_ends_its_impersonation_sessions(client, admin, customer_a) -> None:
    token = client.post(f"/api/user/impersonate/{customer_a.id}", headers=admin.headers).json()["data"][
        "token"
    ]
    second_admin = client.post(
        "/api/user/admin-user",
        headers=admin.headers,
        json={"name": "Boss", "email": "boss@example.com", "password": "goodpass1"},
    )
    boss = client.post("/api/login", json={"email": "boss@example.com", "password": "goodpass1"}).json()
    boss_headers = {"Authorization": f"Bearer {boss['data']['token']}"}
    assert second_admin.status_code == 201
    client.patch(f"/api/user/status/{admin.id}", json={"status": "inactive"}, headers=boss_headers)
    assert client.get("/api/profile", headers={"Authorization": f"Bearer {token}"}).status_code == 401
