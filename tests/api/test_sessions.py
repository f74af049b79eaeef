"""Sessions and credentials (docs/security.md): what ends a token, impersonation's short tied life,
what a change made while impersonating records, sign-up throttling."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlmodel import select

from core.infra.db import session_scope
from core.infra.settings import get_settings
from core.models import AuthToken, Country, ImpersonationAudit, Number, StatusChange, User, WalletTransaction
from core.values.enums import TokenKind
from portal_api.services import signup
from testkit.actors import Actor
from testkit.rows import change, get, save, top_up


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def works(client, headers: dict[str, str]) -> bool:
    status = client.get("/api/profile", headers=headers).status_code
    assert status in (200, 401)
    return status == 200


def sign_in(client, actor: Actor) -> dict[str, str]:
    r = client.post("/api/login", json={"email": actor.email, "password": actor.password})
    assert r.status_code == 200, r.text
    return bearer(r.json()["data"]["token"])


def impersonate(client, admin_headers: dict[str, str], user: Actor) -> dict[str, str]:
    r = client.post(f"/api/user/impersonate/{user.id}", headers=admin_headers)
    assert r.status_code == 200, r.text
    return bearer(r.json()["data"]["token"])


def api_token(client, admin: Actor, user: Actor) -> dict[str, str]:
    r = client.put(f"/api/user/token/{user.id}", headers=admin.headers)
    assert r.status_code == 200, r.text
    return bearer(r.json()["data"]["token"])


def audit() -> list[tuple[str, int | None, str | None]]:
    with session_scope() as s:
        rows = s.exec(select(ImpersonationAudit).order_by(ImpersonationAudit.id)).all()
        return [(r.action, r.user_id, r.detail) for r in rows]


def test_impersonation_ends_with_the_admins_sign_out_and_signing_out_of_it_is_recorded(
    client, admin, customer_a, buyer_a
) -> None:
    as_a = impersonate(client, admin.headers, customer_a)
    assert client.post("/api/logout", headers=as_a).status_code == 200
    assert not works(client, as_a) and works(client, admin.headers)

    as_buyer = impersonate(client, admin.headers, buyer_a)
    assert client.post("/api/logout", headers=admin.headers).status_code == 200
    assert not works(client, as_buyer)
    assert audit() == [
        ("start", customer_a.id, None),
        ("stop", customer_a.id, "signed out while impersonating"),
        ("start", buyer_a.id, None),
        ("stop", buyer_a.id, "the administrator signed out"),
    ]


def test_an_impersonation_token_lives_an_hour_from_its_last_use(client, admin, customer_a) -> None:
    as_a = impersonate(client, admin.headers, customer_a)
    with session_scope() as s:
        row = s.exec(select(AuthToken).where(AuthToken.kind == TokenKind.IMPERSONATION)).one()
    hour = timedelta(minutes=get_settings().impersonation_minutes)
    assert hour == timedelta(hours=1)
    assert abs(row.expires_at - (datetime.now(UTC) + hour)) < timedelta(minutes=1)

    change(AuthToken, row.id, expires_at=datetime.now(UTC) + timedelta(minutes=5))
    assert works(client, as_a)  # used: renewed to an hour from now
    assert get(AuthToken, row.id).expires_at > datetime.now(UTC) + hour - timedelta(minutes=1)

    change(AuthToken, row.id, expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert not works(client, as_a)


def test_a_password_change_ends_sessions_and_impersonations_and_the_api_token_only_when_asked(
    client, admin, customer_a
) -> None:
    other_session = sign_in(client, customer_a)
    script = api_token(client, admin, customer_a)
    as_a = impersonate(client, admin.headers, customer_a)

    def change_password(headers, current: str, new: str, **extra) -> None:
        body = {"current_password": current, "new_password": new, **extra}
        r = client.post("/api/change-password", json=body, headers=headers)
        assert r.status_code == 200, r.text

    change_password(customer_a.headers, customer_a.password, "brand-new-pass-1")
    assert works(client, customer_a.headers)  # the one asking stays signed in
    assert not works(client, other_session) and not works(client, as_a)
    assert works(client, script)
    change_password(customer_a.headers, "brand-new-pass-1", "brand-new-pass-2", revoke_api_token=True)
    assert not works(client, script)

    # The admin's side: its own new password ends what it started, even from the session kept.
    as_a = impersonate(client, admin.headers, customer_a)
    change_password(admin.headers, admin.password, "admins-new-pass-1")
    assert works(client, admin.headers) and not works(client, as_a)
    assert [a for a in audit() if a[0] == "stop"] == [("stop", customer_a.id, "the password changed")] * 2


def test_deactivation_revokes_for_good_and_refuses_the_companys_buyers(
    client, admin, customer_a, buyer_a
) -> None:
    script = api_token(client, admin, customer_a)
    as_a = impersonate(client, admin.headers, customer_a)
    before = [customer_a.headers, script, as_a, buyer_a.headers]

    def set_status(status: str) -> None:
        r = client.patch(f"/api/user/status/{customer_a.id}", json={"status": status}, headers=admin.headers)
        assert r.status_code == 200, r.text

    set_status("suspended")
    assert not any(works(client, h) for h in before)
    r = client.post("/api/login", json={"email": buyer_a.email, "password": buyer_a.password})
    assert r.status_code == 403 and "company" in r.json()["message"]

    set_status("active")
    assert not any(works(client, h) for h in before)  # reactivation brings no token back
    assert works(client, sign_in(client, buyer_a)) and works(client, sign_in(client, customer_a))

    # A buyer token of a company deactivated some other way is refused too.
    buyer_session = sign_in(client, buyer_a)
    change(User, customer_a.id, status="inactive")
    assert not works(client, buyer_session)


def test_changes_made_while_impersonating_name_the_admin(client, admin, customer_a, customer_b) -> None:
    top_up(customer_a.id, "20")
    with session_scope() as s:
        gb = s.exec(select(Country.id).where(Country.iso2 == "GB")).one()
    number = save(
        Number(number="+442071838750", country_id=gb, setup_fee=Decimal("2"), monthly_fee=Decimal("0"))
    )
    as_a = impersonate(client, admin.headers, customer_a)

    r = client.post(
        "/api/buyer/add",
        json={"name": "Ben Buyer", "email": "ben@example.com", "password": "buyer-pass-1"},
        headers=as_a,
    )
    assert r.status_code == 201, r.text
    buyer_id = r.json()["data"]["id"]
    r = client.patch(f"/api/buyer/status/{buyer_id}", json={"status": "inactive"}, headers=as_a)
    assert r.status_code == 200, r.text
    r = client.post("/api/number/new", json={"number_ids": [number.id]}, headers=as_a)
    assert r.status_code == 200, r.text
    # The same kind of change made by the customer itself names no admin.
    assert client.patch(
        f"/api/buyer/status/{buyer_id}", json={"status": "active"}, headers=customer_a.headers
    )

    with session_scope() as s:
        statuses = s.exec(
            select(StatusChange).where(StatusChange.entity == "buyer").order_by(StatusChange.id)
        )
        assert [(c.new_status, c.acting_admin_id) for c in statuses] == [
            ("inactive", admin.id),
            ("active", None),
        ]
        fee = s.exec(select(WalletTransaction).where(WalletTransaction.number_id == number.id)).one()
        assert (fee.created_by, fee.acting_admin_id) == (customer_a.id, admin.id)
    wall = client.get("/api/user/wall", headers=customer_a.headers).json()["data"]["data"]
    assert [t["acting_admin_id"] for t in wall] == [admin.id, None]  # the fee, the top-up

    changes = [d for action, user, d in audit() if action == "change" and user == customer_a.id]
    assert changes[0].startswith("insert users ") and f"insert buyer {buyer_id}" in changes[0]
    assert f"update buyer {buyer_id}" in changes[1] and "insert status_change" in changes[1]
    assert f"update number {number.id}" in changes[2] and "insert wallet_transaction" in changes[2]

    listed = client.get(
        f"/api/impersonate/audit?user_id={customer_a.id}&action=change", headers=admin.headers
    )
    assert listed.status_code == 200
    assert [(a["admin_id"], a["detail"]) for a in listed.json()["data"]["data"]] == [
        (admin.id, d) for d in reversed(changes)
    ]
    assert client.get("/api/impersonate/audit", headers=customer_b.headers).status_code == 403
    assert client.get("/api/impersonate/audit", headers=as_a).status_code == 403


def test_sign_up_is_throttled_per_address(client, monkeypatch) -> None:
    assert get_settings().signup_max_per_address == 5
    limit = 2
    monkeypatch.setattr(get_settings(), "signup_max_per_address", limit)

    def sign_up(n: int):
        body = {"name": f"New {n}", "email": f"new{n}@example.com", "password": "first-pass-1"}
        return client.post("/api/register", json=body)

    assert [sign_up(n).status_code for n in range(limit)] == [201] * limit
    refused = sign_up(limit)
    assert refused.status_code == 429 and "sign-ups" in refused.json()["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= get_settings().signup_window_seconds
    with session_scope() as s:
        assert s.exec(select(User).where(User.email == f"new{limit}@example.com")).first() is None


def test_with_mail_sign_up_tells_nobody_which_addresses_have_accounts(client, customer_a, mailer) -> None:
    def sign_up(email: str):
        return client.post("/api/register", json={"name": "Eve", "email": email, "password": "eve-pass-123"})

    taken, new = sign_up(customer_a.email.upper()), sign_up("eve@example.com")
    assert taken.status_code == new.status_code == 202
    assert taken.json() == new.json() == {"message": signup.CHECK_INBOX, "data": None}
    [(_, notice_to, _, notice), (_, link_to, _, link)] = mailer
    assert notice_to == customer_a.email and "already has one" in notice and "token" not in notice
    assert link_to == "eve@example.com"
    with session_scope() as s:
        assert s.exec(select(User).where(User.email == "eve@example.com")).first() is None

    token = link.split("/register/confirm?token=")[1].split()[0]
    r = client.post("/api/register/confirm", json={"token": token})
    assert r.status_code == 201, r.text
    assert r.json()["data"]["user"]["email"] == "eve@example.com"
    assert works(client, bearer(r.json()["data"]["token"]))
    again = client.post("/api/register/confirm", json={"token": token})
    assert again.status_code == 404 and "token" in again.json()["errors"]
