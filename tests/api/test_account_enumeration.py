"""No answer tells a customer, or anyone signing up, whether an address has an account in another
tenant (docs/security.md, "Sign-up" and "Adding a buyer")."""

import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.infra.settings import Settings, get_settings
from core.models import Buyer, User
from portal_api.services import signup
from testkit.actors import Actor
from tests.api.test_buyers_targets import BUYER, make_buyer


def _signs_in(client, email: str, password: str) -> bool:
    r = client.post("/api/login", json={"email": email, "password": password})
    assert r.status_code in (200, 401), r.text
    return r.status_code == 200


def _without_ids(answer: dict) -> dict:
    data = {k: v for k, v in answer["data"].items() if k not in ("id", "created_at", "email")}
    return {"message": answer["message"], "data": data}


def test_a_customer_adding_a_buyer_cannot_tell_whether_its_address_has_an_account(
    client, customer_a: Actor, customer_b: Actor, mailer
) -> None:
    known = client.post(
        "/api/buyer/add", json={**BUYER, "email": customer_b.email}, headers=customer_a.headers
    )
    new = client.post("/api/buyer/add", json=BUYER, headers=customer_a.headers)
    assert known.status_code == new.status_code == 201, (known.text, new.text)
    assert _without_ids(known.json()) == _without_ids(new.json())
    assert "login_user_id" not in known.json()["data"]

    # The new address got its sign-in; the known one kept its own account, untouched, and was told.
    assert _signs_in(client, BUYER["email"], BUYER["password"])
    assert not _signs_in(client, customer_b.email, BUYER["password"])
    assert _signs_in(client, customer_b.email, customer_b.password)
    with session_scope() as s:
        row = s.exec(select(Buyer).where(Buyer.email == customer_b.email)).one()
        assert row.login_user_id is None and row.user_id == customer_a.id
    [(_, to, subject, body)] = mailer
    assert to == customer_b.email and "already has a Callroute account" in body, (subject, body)

    # Asking again within the hour mails nobody again (no mailbox flooding through this form).
    again = client.post(
        "/api/buyer/add", json={**BUYER, "email": customer_b.email}, headers=customer_a.headers
    )
    assert again.status_code == 201 and len(mailer) == 1


def test_a_buyers_new_address_that_has_an_account_leaves_its_sign_in_where_it_was(
    client, customer_a: Actor, customer_b: Actor, mailer
) -> None:
    buyer = make_buyer(client, customer_a)
    r = client.put(f"/api/buyer/{buyer['id']}", json={"email": customer_b.email}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["email"] == customer_b.email, r.text
    assert _signs_in(client, BUYER["email"], BUYER["password"])  # the sign-in kept its address
    with session_scope() as s:
        assert s.exec(select(User).where(User.email == customer_b.email)).one().id == customer_b.id
    assert [m[1] for m in mailer] == [customer_b.email]
    # A free address is followed by the sign-in, as before.
    moved = client.put(
        f"/api/buyer/{buyer['id']}", json={"email": "desk@acme.example.com"}, headers=customer_a.headers
    )
    assert moved.status_code == 200
    assert _signs_in(client, "desk@acme.example.com", BUYER["password"])


def test_an_administrator_who_sees_every_account_is_told_the_address_is_taken(
    client, admin: Actor, customer_a: Actor, customer_b: Actor
) -> None:
    body = {**BUYER, "email": customer_b.email, "user_id": customer_a.id}
    r = client.post("/api/buyer/add", json=body, headers=admin.headers)
    assert r.status_code == 409 and "email" in r.json()["errors"], r.text
    buyer = make_buyer(client, admin, user_id=customer_a.id)
    moved = client.put(f"/api/buyer/{buyer['id']}", json={"email": customer_b.email}, headers=admin.headers)
    assert moved.status_code == 409
    with session_scope() as s:
        assert s.exec(select(Buyer).where(Buyer.email == customer_b.email)).first() is None


def test_without_mail_production_sign_up_is_closed_alike_for_every_address(
    client, customer_a: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(get_settings(), "signup_mode", "closed")

    def sign_up(email: str):
        return client.post("/api/register", json={"name": "Eve", "email": email, "password": "eve-pass-123"})

    taken, new = sign_up(customer_a.email), sign_up("eve@example.com")
    assert taken.status_code == new.status_code == 403
    assert taken.json() == new.json() and taken.json()["message"] == signup.CLOSED
    with session_scope() as s:
        assert s.exec(select(User).where(User.email == "eve@example.com")).first() is None


def test_the_sign_up_mode_follows_mail_and_environment_unless_set() -> None:
    servers = {
        "database_url": "postgresql://db/x",
        "redis_url": "redis://r/0",
        "public_url": "https://p.example",
    }
    assert Settings(environment="production", **servers).signup == "closed"
    assert Settings(environment="development").signup == "instant"
    assert Settings(environment="production", smtp_url="smtp://m:587", **servers).signup == "confirm"
    assert Settings(environment="production", signup_mode="instant", **servers).signup == "instant"
    with pytest.raises(ValueError, match="SMTP_URL"):
        Settings(signup_mode="confirm")
