"""Phone fields of vendors, users and buyers: E.164, or national in the account's country (its time
zone's), stored as E.164; anything else is a 422 on `phone` and changes nothing."""

import pytest

from testkit.actors import Actor

BAD = "abc-not-a-phone"


def _phone_refused(r) -> str:
    assert r.status_code == 422, r.text
    return r.json()["errors"]["phone"][0]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/vendor/add", {"name": "Acme Telecom"}),
        ("/api/user/add", {"name": "Cora Customer", "email": "cora@example.com", "password": "corapass1"}),
    ],
)
def test_admin_forms_refuse_a_phone_that_is_not_one(client, admin: Actor, path: str, body: dict) -> None:
    assert "phone number" in _phone_refused(
        client.post(path, json={**body, "phone": BAD}, headers=admin.headers)
    )
    # The admin's zone is UTC, no country: a national number needs its country code.
    national = client.post(path, json={**body, "phone": "020 7946 0713"}, headers=admin.headers)
    assert "+44" in _phone_refused(national)
    made = client.post(path, json={**body, "phone": "+44 20 7946 0713"}, headers=admin.headers)
    assert made.status_code == 201 and made.json()["data"]["phone"] == "+442079460713", made.text


def test_a_customers_buyer_takes_a_national_number_of_the_customers_country(
    client, customer_a: Actor
) -> None:
    body = {"name": "Acme Plumbing", "email": "calls@acme.example.com", "password": "buyerpass1"}
    assert "phone number" in _phone_refused(
        client.post("/api/buyer/add", json={**body, "phone": BAD}, headers=customer_a.headers)
    )
    # customer_a is in Europe/Berlin: a German number written as Germans do.
    made = client.post("/api/buyer/add", json={**body, "phone": "030 12345678"}, headers=customer_a.headers)
    assert made.status_code == 201 and made.json()["data"]["phone"] == "+493012345678", made.text
    buyer = made.json()["data"]["id"]
    _phone_refused(client.put(f"/api/buyer/{buyer}", json={"phone": BAD}, headers=customer_a.headers))
    profile = client.put("/api/profile", json={"phone": "0151 23456789"}, headers=customer_a.headers)
    assert profile.status_code == 200 and profile.json()["data"]["phone"] == "+4915123456789", profile.text
    _phone_refused(client.put("/api/profile", json={"phone": "12"}, headers=customer_a.headers))
    assert client.get("/api/buyer/details", headers=customer_a.headers).json()["data"]["data"][0][
        "phone"
    ] == ("+493012345678")
