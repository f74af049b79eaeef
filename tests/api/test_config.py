"""GET /config: what the portal shows money with, so the UI hard-codes no currency or threshold."""


def test_the_callers_currency_and_the_low_balance_threshold(client, admin, customer_a, buyer_a) -> None:
    assert client.get("/api/config").status_code == 401
    for actor in (admin, customer_a, buyer_a):
        data = client.get("/api/config", headers=actor.headers).json()["data"]
        assert data == {"currency": "USD", "low_balance_threshold": "50.0000"}

    euro = {"name": "Euro card", "currency": "EUR"}
    tariff = client.post("/api/tariff/add", headers=admin.headers, json=euro)
    assert tariff.status_code == 201
    moved = client.put(
        f"/api/user/{customer_a.id}", headers=admin.headers, json={"tariff_id": tariff.json()["data"]["id"]}
    )
    assert moved.status_code == 200
    assert client.get("/api/config", headers=customer_a.headers).json()["data"]["currency"] == "EUR"
    balance = client.get(f"/api/user/balance/{customer_a.id}", headers=customer_a.headers).json()["data"][0]
    assert balance["currency"] == "EUR", "the balance and the config agree on the wallet's currency"
