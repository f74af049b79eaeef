"""A forgotten password: a one-time mailed link where mail is set up, the administrators told where not."""

from typing import Any

from core.infra import names
from core.infra.settings import get_settings
from portal_api.services import password_reset
from testkit.actors import PASSWORD


def notices(client: Any, who: Any) -> list[str]:
    r = client.get("/api/notification/notification", headers=who.headers, params={"perpage": 50})
    return [n["text"] for n in r.json()["data"]["data"]]


def test_without_mail_the_administrators_are_told_and_nobody_learns_which_addresses_exist(
    client: Any, admin: Any, customer_a: Any
) -> None:
    assert not get_settings().smtp_url
    known = client.post("/api/forgot-password", json={"email": customer_a.email.upper()})
    unknown = client.post("/api/forgot-password", json={"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 200
    assert known.json()["message"] == unknown.json()["message"] == password_reset.NO_MAIL
    client.post("/api/forgot-password", json={"email": customer_a.email})  # asked twice: told once a day
    told = [t for t in notices(client, admin) if "forgot their password" in t]
    assert len(told) == 1 and f"({customer_a.email}) forgot their password: set a new one" in told[0]
    assert notices(client, customer_a) == []


def test_a_mailed_link_sets_a_new_password_once(client: Any, customer_a: Any, mailer: list) -> None:
    r = client.post("/api/forgot-password", json={"email": customer_a.email})
    assert r.status_code == 200 and r.json()["message"] == password_reset.SENT
    [(task, to, subject, body)] = mailer
    assert (task, to) == (names.SEND_MAIL, customer_a.email) and "password" in subject
    token = body.split("/reset-password?token=")[1].split()[0]
    client.post("/api/forgot-password", json={"email": customer_a.email})
    assert len(mailer) == 1, "one mail per few minutes, whatever is asked"

    weak = client.post("/api/reset-password", json={"token": token, "new_password": "short"})
    assert weak.status_code == 422 and "new_password" in weak.json()["errors"]
    r = client.post("/api/reset-password", json={"token": token, "new_password": "fresh-pass-42"})
    assert r.status_code == 200, r.text
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 401  # signed out everywhere
    login = {"email": customer_a.email, "password": "fresh-pass-42"}
    assert client.post("/api/login", json=login).status_code == 200
    assert client.post("/api/login", json={**login, "password": PASSWORD}).status_code == 401
    again = client.post("/api/reset-password", json={"token": token, "new_password": "other-pass-43"})
    assert again.status_code == 404 and "token" in again.json()["errors"]


def test_unknown_addresses_get_the_same_answer_and_no_mail(client: Any, mailer: list) -> None:
    r = client.post("/api/forgot-password", json={"email": "nobody@example.com"})
    assert r.status_code == 200 and r.json()["message"] == password_reset.SENT
    assert mailer == []
    bogus = {"token": "not-a-real-token", "new_password": "fresh-pass-42"}
    assert client.post("/api/reset-password", json=bogus).status_code == 404


# A request names whatever host it likes; the links it gets mailed must not follow.
FOREIGN_HOST = {"Host": "evil.example", "X-Forwarded-Host": "evil-proxy.example", "X-Forwarded-Proto": "http"}


def test_mailed_links_start_with_the_public_url_whatever_host_the_request_names(
    client: Any, customer_a: Any, mailer: list, monkeypatch: Any
) -> None:
    monkeypatch.setattr(get_settings(), "public_url", "https://portal.example.com")
    r = client.post("/api/forgot-password", json={"email": customer_a.email}, headers=FOREIGN_HOST)
    assert r.status_code == 200
    client.post(
        "/api/register",
        json={"name": "Eve", "email": "eve@example.com", "password": "eve-pass-123"},
        headers=FOREIGN_HOST,
    )
    client.post(
        "/api/register",
        json={"name": "Al", "email": customer_a.email, "password": "al-pass-1234"},
        headers=FOREIGN_HOST,
    )
    [(_, _, _, reset), (_, _, _, confirm), (_, _, _, notice)] = mailer
    assert "https://portal.example.com/reset-password?token=" in reset
    assert "https://portal.example.com/register/confirm?token=" in confirm
    assert (
        "https://portal.example.com/login" in notice
        and "https://portal.example.com/forgot-password" in notice
    )
    assert not any("evil" in body for *_, body in mailer)
    # The link works where it points: the same portal, whatever host the request named.
    token = reset.split("/reset-password?token=")[1].split()[0]
    done = client.post("/api/reset-password", json={"token": token, "new_password": "fresh-pass-42"})
    assert done.status_code == 200


def test_without_a_public_url_links_point_where_the_development_portal_serves(
    client: Any, customer_a: Any, mailer: list, monkeypatch: Any
) -> None:
    settings = get_settings()
    assert not settings.public_url
    monkeypatch.setattr(settings, "port", 8100)
    client.post("/api/forgot-password", json={"email": customer_a.email}, headers=FOREIGN_HOST)
    [(_, _, _, reset)] = mailer
    assert f"http://{settings.host}:8100/reset-password?token=" in reset
