"""Sign-in, sign-out, sign-up, password change, profile, server time: as a person meets them."""

import re
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from core.infra.settings import get_settings
from testkit.actors import Actor, make_actor


def login(client, email: str, password: str):
    return client.post("/api/login", json={"email": email, "password": password})


def test_login_returns_token_and_the_stored_user_record(client, customer_a: Actor) -> None:
    r = login(client, customer_a.email.upper(), customer_a.password)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["message"] == "Signed in."
    user = body["data"]["user"]
    assert user == {
        "user_id": customer_a.id,
        "role": 2,
        "role_name": "Customer",
        "name": "Alice Customer",
        "email": customer_a.email,
        "balance": "0.0000",
        "timezone": "Europe/Berlin",
        "status": "active",
    }
    token = body["data"]["token"]
    me = client.get("/api/profile", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json()["data"]["id"] == customer_a.id


def test_wrong_password_and_unknown_email_get_the_same_401(client, customer_a: Actor) -> None:
    wrong = login(client, customer_a.email, "not-it-123")
    unknown = login(client, "nobody@example.com", "not-it-123")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"message": "The email or password is incorrect."}


def test_inactive_account_cannot_sign_in_and_its_tokens_stop_working(client, admin, customer_a) -> None:
    r = client.patch(f"/api/user/status/{customer_a.id}", json={"status": "inactive"}, headers=admin.headers)
    assert r.status_code == 200
    assert login(client, customer_a.email, customer_a.password).status_code == 403
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 401


def test_repeated_failures_for_one_account_are_throttled_with_retry_time(client, customer_a) -> None:
    for _ in range(5):
        assert login(client, customer_a.email, "wrong-pass-1").status_code == 401
    r = login(client, customer_a.email, customer_a.password)  # even the right password waits
    assert r.status_code == 429
    assert int(r.headers["Retry-After"]) > 0
    assert re.match(r"Too many failed sign-in attempts\. Try again in \d+ minutes?\.", r.json()["message"])
    # Another account from the same address is not locked by this one.
    other = make_actor(2, "Carol Customer")
    assert login(client, other.email, other.password).status_code == 200


def test_many_failures_from_one_address_are_throttled_across_accounts(client) -> None:
    for i in range(20):
        assert login(client, f"guess{i}@example.com", "wrong-pass-1").status_code == 401
    assert login(client, "guess-new@example.com", "wrong-pass-1").status_code == 429


def test_parallel_wrong_passwords_check_no_more_passwords_than_the_limit(app, customer_a) -> None:
    limit = get_settings().login_max_failures_per_account
    with TestClient(app, client=("198.51.100.7", 50000)) as attacker, ThreadPoolExecutor(40) as pool:
        codes = list(
            pool.map(lambda i: login(attacker, customer_a.email, f"wrong-pass-{i}").status_code, range(40))
        )
    # A 401 is a password checked; a 429 was refused before any check.
    assert (codes.count(401), codes.count(429)) == (limit, 40 - limit)


def test_the_owner_signs_in_from_a_known_address_while_an_attacker_is_locked_out(app, customer_a) -> None:
    limit = get_settings().login_max_failures_per_account
    with (
        TestClient(app, client=("192.0.2.10", 50000)) as home,
        TestClient(app, client=("198.51.100.7", 50000)) as attacker,
        TestClient(app, client=("203.0.113.9", 50000)) as elsewhere,
    ):
        assert login(home, customer_a.email, customer_a.password).status_code == 200
        for i in range(limit):
            assert login(attacker, customer_a.email, f"wrong-pass-{i}").status_code == 401
        assert login(attacker, customer_a.email, customer_a.password).status_code == 429
        # The account is under attack: an address it never signed in from waits too...
        assert login(elsewhere, customer_a.email, customer_a.password).status_code == 429
        # ...but the owner at home gets in, again and again.
        for _ in range(limit + 1):
            assert login(home, customer_a.email, customer_a.password).status_code == 200
        assert login(attacker, customer_a.email, customer_a.password).status_code == 429


def test_refused_attempts_count_against_nobody(client, customer_a) -> None:
    """A 429 checks no password, so it is not counted: guessing on past one account's limit does
    not lock every other account out of the address (it once did after 20 tries)."""
    codes = [login(client, customer_a.email, f"wrong-pass-{i}").status_code for i in range(25)]
    assert codes == [401] * 5 + [429] * 20
    other = make_actor(2, "Carol Customer")
    assert login(client, other.email, other.password).status_code == 200


def test_successful_login_resets_the_account_counter(client, customer_a) -> None:
    for _ in range(4):
        login(client, customer_a.email, "wrong-pass-1")
    assert login(client, customer_a.email, customer_a.password).status_code == 200
    for _ in range(4):
        login(client, customer_a.email, "wrong-pass-1")
    assert login(client, customer_a.email, customer_a.password).status_code == 200


def test_logout_revokes_only_that_token(client, customer_a) -> None:
    second = login(client, customer_a.email, customer_a.password).json()["data"]["token"]
    r = client.post("/api/logout", headers=customer_a.headers)
    assert r.status_code == 200
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 401
    again = client.post("/api/logout", headers=customer_a.headers)
    assert again.status_code == 401
    assert client.get("/api/profile", headers={"Authorization": f"Bearer {second}"}).status_code == 200


def test_calls_without_or_with_a_bad_token_are_401(client) -> None:
    assert client.get("/api/profile").json() == {"message": "Sign in first: this call needs a bearer token."}
    assert client.get("/api/profile", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_register_creates_a_signed_in_customer(client) -> None:
    body = {
        "name": "New Co",
        "email": "Owner@NewCo.example.com",
        "password": "goodpass1",
        "timezone": "America/New_York",
    }
    r = client.post("/api/register", json=body)
    assert r.status_code == 201, r.text
    data = r.json()["data"]
    assert data["user"]["role"] == 2 and data["user"]["role_name"] == "Customer"
    assert data["user"]["email"] == "owner@newco.example.com"
    assert data["user"]["timezone"] == "America/New_York"
    assert client.get("/api/profile", headers={"Authorization": f"Bearer {data['token']}"}).status_code == 200
    assert login(client, "owner@newco.example.com", "goodpass1").status_code == 200


def test_register_refuses_a_taken_email_whatever_its_case(client, customer_a) -> None:
    r = client.post(
        "/api/register", json={"name": "X", "email": customer_a.email.upper(), "password": "goodpass1"}
    )
    assert r.status_code == 409
    assert r.json()["errors"] == {"email": ["An account with this email already exists."]}


def _count_users(client, admin) -> int:
    return client.get("/api/user/details", headers=admin.headers).json()["data"]["total"]


def test_register_bad_input_gets_actionable_4xx_and_creates_nothing(client, admin) -> None:
    before = _count_users(client, admin)
    cases = [
        ({"name": "X", "email": "not-an-email", "password": "goodpass1"}, 422, "email"),
        ({"name": "X", "email": "x@example.com", "password": "short1"}, 422, "password"),
        ({"name": "X", "email": "x@example.com", "password": "lettersonly"}, 422, "password"),
        (
            {"name": "X", "email": "x@example.com", "password": "goodpass1", "timezone": "Mars/Base"},
            422,
            "timezone",
        ),
        ({"email": "x@example.com", "password": "goodpass1"}, 422, "name"),
        ({"name": "  ", "email": "x@example.com", "password": "goodpass1"}, 422, "name"),
        ({"name": "X", "email": "x@example.com", "password": "goodpass1", "role": 1}, 422, "role"),
    ]
    for body, status, field in cases:
        r = client.post("/api/register", json=body)
        assert r.status_code == status, (body, r.text)
        assert field in r.json()["errors"], r.json()
        assert r.json()["message"]
    weak = client.post("/api/register", json=cases[2][0]).json()
    assert weak["errors"]["password"] == ["Password must contain at least one letter and one digit."]
    tz = client.post("/api/register", json=cases[3][0]).json()
    assert "not a known time zone" in tz["message"]
    assert _count_users(client, admin) == before


def test_malformed_json_missing_body_and_oversized_body(client, admin) -> None:
    before = _count_users(client, admin)
    bad = client.post("/api/register", content=b'{"name": "X",', headers={"content-type": "application/json"})
    assert bad.status_code == 400
    assert bad.json() == {"message": "The request body is not valid JSON."}
    empty = client.post("/api/register", headers={"content-type": "application/json"})
    assert empty.status_code == 422 and empty.json()["message"] == "A JSON request body is required."
    huge = client.post(
        "/api/register", json={"name": "X" * 2_000_000, "email": "big@example.com", "password": "goodpass1"}
    )
    assert huge.status_code == 413
    assert huge.json()["message"].startswith("The request body is too large")
    assert _count_users(client, admin) == before


def test_change_password_signs_out_other_sessions(client, customer_a) -> None:
    other = login(client, customer_a.email, customer_a.password).json()["data"]["token"]
    r = client.post(
        "/api/change-password",
        headers=customer_a.headers,
        json={"current_password": customer_a.password, "new_password": "brandnew42"},
    )
    assert r.status_code == 200, r.text
    assert client.get("/api/profile", headers=customer_a.headers).status_code == 200
    assert client.get("/api/profile", headers={"Authorization": f"Bearer {other}"}).status_code == 401
    assert login(client, customer_a.email, customer_a.password).status_code == 401
    assert login(client, customer_a.email, "brandnew42").status_code == 200


def test_change_password_refuses_wrong_current_or_weak_new(client, customer_a) -> None:
    wrong = client.post(
        "/api/change-password",
        headers=customer_a.headers,
        json={"current_password": "nope-1234", "new_password": "brandnew42"},
    )
    assert wrong.status_code == 403
    assert wrong.json()["errors"] == {"current_password": ["The current password is incorrect."]}
    weak = client.post(
        "/api/change-password",
        headers=customer_a.headers,
        json={"current_password": customer_a.password, "new_password": "abc"},
    )
    assert weak.status_code == 422 and "new_password" in weak.json()["errors"]
    assert login(client, customer_a.email, customer_a.password).status_code == 200


def test_wrong_current_passwords_are_throttled_like_failed_sign_ins(client, customer_a) -> None:
    """A token that never expires is no unlimited oracle for the account's password: the checks
    count on the sign-in counters, per account and per address."""

    def change(current: str):
        body = {"current_password": current, "new_password": "brandnew42"}
        return client.post("/api/change-password", headers=customer_a.headers, json=body)

    limit = get_settings().login_max_failures_per_account
    assert [change(f"guess-{i}-pass").status_code for i in range(limit)] == [403] * limit
    refused = change(customer_a.password)  # even the right one waits
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert re.match(r"Too many wrong passwords\. Try again in \d+ minutes?\.", refused.json()["message"])
    assert login(client, customer_a.email, customer_a.password).status_code == 429  # the same counters


def test_a_right_current_password_gives_its_attempt_back(client, customer_a) -> None:
    limit = get_settings().login_max_failures_per_account
    for i in range(limit - 1):
        login(client, customer_a.email, f"wrong-pass-{i}")
    body = {"current_password": customer_a.password, "new_password": "brandnew42"}
    assert client.post("/api/change-password", headers=customer_a.headers, json=body).status_code == 200
    assert login(client, customer_a.email, "brandnew42").status_code == 200


def test_profile_update_and_its_validation(client, buyer_a) -> None:
    r = client.put("/api/profile", headers=buyer_a.headers, json={"name": "Bea B.", "timezone": "Asia/Tokyo"})
    assert r.status_code == 200
    assert r.json()["data"]["name"] == "Bea B." and r.json()["data"]["timezone"] == "Asia/Tokyo"
    assert (
        client.put("/api/profile", headers=buyer_a.headers, json={"timezone": "Nowhere"}).status_code == 422
    )
    assert client.put("/api/profile", headers=buyer_a.headers, json={"role": 1}).status_code == 422
    assert client.put("/api/profile", headers=buyer_a.headers, json={"name": None}).status_code == 422
    assert client.get("/api/profile", headers=buyer_a.headers).json()["data"]["role"] == 3


def test_server_time_format(client, buyer_a) -> None:
    data = client.get("/api/server-time", headers=buyer_a.headers).json()["data"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", data["server_time"])
    assert data["timezone"] == "UTC"
    assert client.get("/api/server-time").status_code == 401


def test_balance_fetch_is_scoped(client, admin, customer_a, customer_b, buyer_a) -> None:
    own = client.get(f"/api/user/balance/{customer_a.id}", headers=customer_a.headers)
    assert own.status_code == 200
    assert own.json()["data"][0] == {"user_id": customer_a.id, "balance": "0.0000", "currency": "USD"}
    assert client.get(f"/api/user/balance/{customer_a.id}", headers=admin.headers).status_code == 200
    assert client.get(f"/api/user/balance/{customer_a.id}", headers=customer_b.headers).status_code == 404
    assert client.get(f"/api/user/balance/{customer_a.id}", headers=buyer_a.headers).status_code == 403
    assert client.get("/api/user/balance/abc", headers=admin.headers).status_code == 404


def test_a_nul_character_is_refused_as_bad_input(client, customer_a) -> None:
    r = client.put("/api/profile", headers=customer_a.headers, json={"name": "Al\u0000ice"})
    assert r.status_code == 422 and "control characters" in r.json()["message"]
    assert client.get("/api/profile", headers=customer_a.headers).json()["data"]["name"] == "Alice Customer"
