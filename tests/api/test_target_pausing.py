"""Pausing targets: a buyer its own (one or several), a customer several at once; one call per bulk
action, all or nothing, only the caller's targets (a foreign id: 404, nothing changed)."""

from testkit.actors import Actor
from tests.api.test_buyers_targets import make_buyer, make_target


def _statuses(client, actor: Actor) -> dict[str, str]:
    rows = client.get("/api/target/details", headers=actor.headers).json()["data"]["data"]
    return {r["name"]: r["status"] for r in rows}


def test_a_buyer_pauses_and_resumes_its_own_targets_only(
    client, customer_a: Actor, customer_b: Actor, buyer_a
) -> None:
    own = make_target(client, customer_a, buyer_a.buyer_id, name="Bea desk")
    other_buyer = make_buyer(client, customer_a)
    other = make_target(client, customer_a, other_buyer["id"], name="Acme desk")
    paused = client.patch(
        f"/api/target/status/{own['id']}", json={"status": "inactive"}, headers=buyer_a.headers
    )
    assert paused.status_code == 200, paused.text
    assert client.get("/api/buyer/target", headers=buyer_a.headers).json()["data"][0]["status"] == "inactive"
    foreign = client.patch(
        f"/api/target/status/{other['id']}", json={"status": "inactive"}, headers=buyer_a.headers
    )
    assert foreign.status_code == 404
    bulk = {"ids": [own["id"], other["id"]], "status": "active"}
    assert client.post("/api/target/bulk-status", json=bulk, headers=buyer_a.headers).status_code == 404
    assert _statuses(client, customer_a) == {"Bea desk": "inactive", "Acme desk": "active"}  # nothing changed
    resumed = client.post(
        "/api/target/bulk-status", json={**bulk, "ids": [own["id"]]}, headers=buyer_a.headers
    )
    assert resumed.status_code == 200 and resumed.json()["data"] == {"changed": [own["id"]], "unchanged": []}


def test_a_customer_pauses_several_targets_in_one_call(client, customer_a: Actor, customer_b: Actor) -> None:
    buyer = make_buyer(client, customer_a)
    ids = [make_target(client, customer_a, buyer["id"], name=f"Desk {n}")["id"] for n in range(3)]
    client.patch(f"/api/target/status/{ids[2]}", json={"status": "inactive"}, headers=customer_a.headers)
    body = {"ids": ids, "status": "inactive"}
    assert client.post("/api/target/bulk-status", json=body, headers=customer_b.headers).status_code == 404
    r = client.post("/api/target/bulk-status", json=body, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    assert r.json()["data"] == {"changed": ids[:2], "unchanged": ids[2:]}
    assert r.json()["message"] == "2 targets paused; 1 was already."
    assert set(_statuses(client, customer_a).values()) == {"inactive"}
    assert (
        client.post(
            "/api/target/bulk-status", json={"ids": [], "status": "active"}, headers=customer_a.headers
        ).status_code
        == 422
    )
