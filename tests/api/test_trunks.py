"""SIP trunks (spec §7 Trunks): validation, the write-only secret, pickers, who may do what."""

import logging
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import Call, StatusChange, Target, Trunk, Vendor

SECRET = "Sup3r-S3cret-Passw0rd!"
CARRIER = {
    "name": "Carrier One",
    "direction": "outbound",
    "host": "sip.carrier-one.example",
    "port": 5061,
    "transport": "tls",
    "auth_type": "digest",
    "username": "acct-1001",
    "secret": SECRET,
    "dial_prefix": "+1#",
    "strip_digits": 1,
    "codecs": ["opus", "ULAW"],
    "max_channels": 30,
    "failover_order": 2,
}
INBOUND = {"name": "Inbound DIDs", "direction": "inbound", "host": "203.0.113.10"}


def _trunk(client, admin, **fields) -> dict:
    r = client.post("/api/trunk/add", json={**CARRIER, **fields}, headers=admin.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Trunk))


def _target_on(trunk_id: int, customer_id: int, buyer_id: int) -> None:
    with session_scope() as s:
        s.add(
            Target(
                user_id=customer_id,
                buyer_id=buyer_id,
                name="Sales",
                destination="+15551230000",
                trunk_id=trunk_id,
            )
        )


def test_admin_creates_reads_and_updates_a_trunk(client, admin) -> None:
    created = _trunk(client, admin)
    assert created["has_secret"] is True and "secret" not in created
    assert (created["codecs"], created["host"], created["endpoint_status"]) == (
        ["opus", "ulaw"],
        "sip.carrier-one.example",
        None,
    )
    with session_scope() as s:
        assert s.get(Trunk, created["id"]).secret == SECRET

    get_redis().set(names.trunk_status_key(created["id"]), "Reachable")
    _trunk(client, admin, **INBOUND, auth_type="ip", username=None, secret=None)
    page = client.get("/api/trunk/details?params=carrier", headers=admin.headers).json()["data"]
    assert page["total"] == 1 and page["data"][0]["endpoint_status"] == "Reachable"
    inbound = client.get("/api/trunk/details?direction=inbound", headers=admin.headers).json()["data"]
    assert [t["name"] for t in inbound["data"]] == ["Inbound DIDs"]

    # Leaving the secret out keeps it.
    r = client.put(
        f"/api/trunk/{created['id']}",
        json={"host": "2001:DB8::1", "codecs": ["g722"], "max_channels": None},
        headers=admin.headers,
    )
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert (data["host"], data["codecs"], data["max_channels"], data["has_secret"]) == (
        "2001:db8::1",
        ["g722"],
        None,
        True,
    )
    assert data["endpoint_status"] == "Reachable"
    with session_scope() as s:
        assert s.get(Trunk, created["id"]).secret == SECRET


def test_secret_can_be_replaced_and_removed_only_without_digest(client, admin) -> None:
    trunk = _trunk(client, admin)
    r = client.put(f"/api/trunk/{trunk['id']}", json={"secret": None}, headers=admin.headers)
    assert r.status_code == 422 and r.json()["errors"] == {
        "secret": ["Digest authentication needs a secret."]
    }
    r = client.put(f"/api/trunk/{trunk['id']}", json={"secret": "n3w-secret"}, headers=admin.headers)
    assert r.status_code == 200
    r = client.put(
        f"/api/trunk/{trunk['id']}", json={"auth_type": "ip", "secret": None}, headers=admin.headers
    )
    assert r.status_code == 200 and r.json()["data"]["has_secret"] is False
    with session_scope() as s:
        assert s.get(Trunk, trunk["id"]).secret is None


def test_no_response_or_log_line_of_any_trunk_endpoint_carries_the_secret(
    client, admin, customer_a, buyer_a, caplog
) -> None:
    caplog.set_level(logging.DEBUG)
    responses = []
    trunk_response = client.post("/api/trunk/add", json=CARRIER, headers=admin.headers)
    trunk = trunk_response.json()["data"]
    responses.append(trunk_response)
    tid = trunk["id"]
    responses += [
        client.post("/api/trunk/add", json=CARRIER, headers=admin.headers),  # 409 name taken
        client.post("/api/trunk/add", json={**CARRIER, "name": "B", "port": 0}, headers=admin.headers),
        client.post(
            "/api/trunk/add", json={**CARRIER, "name": "C", "secret": SECRET * 20}, headers=admin.headers
        ),
        client.post("/api/trunk/add", json={**CARRIER, "name": "D", "secret": 12345}, headers=admin.headers),
        client.post("/api/trunk/add", json={**CARRIER, "name": "E", "username": None}, headers=admin.headers),
        client.post(
            "/api/trunk/add", json={**CARRIER, "name": "F", "secrett": SECRET}, headers=admin.headers
        ),
        client.post("/api/trunk/add", json=CARRIER, headers=customer_a.headers),
        client.get("/api/trunk/details", headers=admin.headers),
        client.get("/api/trunk/out", headers=admin.headers),
        client.get("/api/trunk/out", headers=customer_a.headers),
        client.get("/api/trunk/imb", headers=admin.headers),
        client.put(f"/api/trunk/{tid}", json={"secret": SECRET, "name": "Renamed"}, headers=admin.headers),
        client.put(f"/api/trunk/{tid}", json={"secret": SECRET, "host": "bad host"}, headers=admin.headers),
        client.put(f"/api/trunk/{tid}", json={"secret": SECRET}, headers=buyer_a.headers),
        client.patch(f"/api/trunk/status/{tid}", json={"status": "inactive"}, headers=admin.headers),
        client.delete(f"/api/trunk/{tid}", headers=customer_a.headers),
        client.delete(f"/api/trunk/{tid}", headers=admin.headers),
    ]
    assert {r.status_code for r in responses} == {200, 201, 403, 409, 422}
    for r in responses:
        assert SECRET not in r.text, r.text
        if r.is_success:
            assert '"secret"' not in r.text
    assert all(SECRET not in record.getMessage() for record in caplog.records)
    assert SECRET not in client.get("/openapi.json").text


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"host": "bad host"}, "host"),
        ({"host": "999.1.1.1"}, "host"),
        ({"host": "-lead.example"}, "host"),
        ({"host": ""}, "host"),
        ({"port": 0}, "port"),
        ({"port": 65536}, "port"),
        ({"port": "sip"}, "port"),
        ({"transport": "sctp"}, "transport"),
        ({"auth_type": "oauth"}, "auth_type"),
        ({"direction": "both"}, "direction"),
        ({"username": None}, "username"),
        ({"secret": None}, "secret"),
        ({"secret": ""}, "secret"),
        ({"codecs": ["ulaw", "speex"]}, "codecs"),
        ({"codecs": ["ulaw", "ulaw"]}, "codecs"),
        ({"codecs": []}, "codecs"),
        ({"strip_digits": 16}, "strip_digits"),
        ({"strip_digits": -1}, "strip_digits"),
        ({"dial_prefix": "12a"}, "dial_prefix"),
        ({"max_channels": 0}, "max_channels"),
        ({"name": ""}, "name"),
        ({"name": "n" * 65}, "name"),
        ({"vendor_id": 424242}, "vendor_id"),
        ({"username": "has space"}, "username"),
        ({"status": "active"}, "status"),
    ],
)
def test_add_refuses_bad_input_and_writes_nothing(client, admin, fields, field) -> None:
    r = client.post("/api/trunk/add", json={**CARRIER, **fields}, headers=admin.headers)
    missing = fields.get("vendor_id") == 424242  # naming no row: 404 (docs/api.md)
    assert r.status_code == (404 if missing else 422), r.text
    assert field in r.json()["errors"]
    assert _count() == 0


def test_names_are_unique_and_vendors_must_exist(client, admin) -> None:
    with session_scope() as s:
        vendor = Vendor(name="Telco")
        s.add(vendor)
        s.flush()
        vendor_id = vendor.id
    first = _trunk(client, admin, vendor_id=vendor_id)
    assert first["vendor_id"] == vendor_id
    r = client.post("/api/trunk/add", json={**CARRIER, "name": "carrier one"}, headers=admin.headers)
    assert r.status_code == 409 and r.json()["errors"] == {"name": ["A trunk with this name already exists."]}
    other = _trunk(client, admin, name="Carrier Two")
    assert (
        client.put(
            f"/api/trunk/{other['id']}", json={"name": "CARRIER ONE"}, headers=admin.headers
        ).status_code
        == 409
    )
    assert _count() == 2


def test_update_refuses_bad_input_and_keeps_the_row(client, admin) -> None:
    trunk = _trunk(client, admin)
    for body in (
        {"host": None},
        {"port": None},
        {"codecs": None},
        {"username": None},
        {"port": 70000},
        {"vendor_id": 424242},
        {"colour": "red"},
    ):
        r = client.put(f"/api/trunk/{trunk['id']}", json=body, headers=admin.headers)
        missing = body.get("vendor_id") == 424242  # naming no row: 404 (docs/api.md)
        assert r.status_code == (404 if missing else 422), (body, r.text)
    assert client.put("/api/trunk/424242", json={"port": 5060}, headers=admin.headers).status_code == 404
    assert client.put("/api/trunk/abc", json={"port": 5060}, headers=admin.headers).status_code == 404
    with session_scope() as s:
        row = s.get(Trunk, trunk["id"])
        assert (row.host, row.port, row.codecs, row.username, row.vendor_id) == (
            "sip.carrier-one.example",
            5061,
            "opus,ulaw",
            "acct-1001",
            None,
        )


def test_pickers_list_active_trunks_of_one_direction_and_customers_see_no_details(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    out = _trunk(client, admin)
    off = _trunk(client, admin, name="Old Carrier")
    client.patch(f"/api/trunk/status/{off['id']}", json={"status": "inactive"}, headers=admin.headers)
    inbound = _trunk(client, admin, **INBOUND, auth_type="ip", username=None, secret=None)

    for actor in (admin, customer_a, customer_b):
        rows = client.get("/api/trunk/out", headers=actor.headers).json()["data"]
        assert rows == [{"id": out["id"], "name": "Carrier One", "direction": "outbound", "status": "active"}]
    assert client.get("/api/trunk/imb", headers=admin.headers).json()["data"] == [
        {"id": inbound["id"], "name": "Inbound DIDs", "direction": "inbound", "status": "active"}
    ]
    assert client.get("/api/trunk/out", headers=buyer_a.headers).status_code == 403
    for actor in (customer_a, buyer_a):
        assert client.get("/api/trunk/imb", headers=actor.headers).status_code == 403
        assert client.get("/api/trunk/details", headers=actor.headers).status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/trunk/add", {**CARRIER, "name": "Mine"}),
        ("put", "/api/trunk/{id}", {"host": "evil.example"}),
        ("patch", "/api/trunk/status/{id}", {"status": "inactive"}),
        ("delete", "/api/trunk/{id}", None),
    ],
)
def test_writes_are_admin_only(client, admin, customer_a, buyer_a, method, path, body) -> None:
    trunk = _trunk(client, admin)
    for actor in (customer_a, buyer_a):
        r = client.request(method.upper(), path.format(id=trunk["id"]), json=body, headers=actor.headers)
        assert r.status_code == 403 and r.json()["message"] == "Only an admin can do this."
    with session_scope() as s:
        assert [(t.name, t.host, t.status) for t in s.scalars(select(Trunk))] == [
            ("Carrier One", "sip.carrier-one.example", "active")
        ]


def test_status_change_is_validated_and_recorded(client, admin) -> None:
    trunk = _trunk(client, admin)
    assert (
        client.patch(
            f"/api/trunk/status/{trunk['id']}", json={"status": "down"}, headers=admin.headers
        ).status_code
        == 422
    )
    assert (
        client.patch("/api/trunk/status/424242", json={"status": "active"}, headers=admin.headers).status_code
        == 404
    )
    r = client.patch(f"/api/trunk/status/{trunk['id']}", json={"status": "inactive"}, headers=admin.headers)
    assert (
        r.status_code == 200 and r.json()["data"]["status"] == "inactive" and r.json()["data"]["updated_at"]
    )
    with session_scope() as s:
        (change,) = s.scalars(select(StatusChange))
        assert (change.entity, change.entity_id, change.old_status, change.new_status) == (
            "trunk",
            trunk["id"],
            "active",
            "inactive",
        )


def test_delete_is_refused_while_targets_or_calls_use_the_trunk(client, admin, customer_a, buyer_a) -> None:
    trunk = _trunk(client, admin)
    _target_on(trunk["id"], customer_a.id, buyer_a.buyer_id)
    r = client.delete(f"/api/trunk/{trunk['id']}", headers=admin.headers)
    assert r.status_code == 409 and "Targets still dial through this trunk" in r.json()["message"]
    turned = client.put(f"/api/trunk/{trunk['id']}", json={"direction": "inbound"}, headers=admin.headers)
    assert turned.status_code == 409 and "direction" in turned.json()["errors"]

    with session_scope() as s:
        s.get(Target, 1).trunk_id = None
        s.add(
            Call(
                linkedid="c1",
                did="+442071838750",
                caller="+15551234567",
                started_at=datetime.now(UTC),
                disposition="ANSWERED",
                trunk_id=trunk["id"],
            )
        )
    r = client.delete(f"/api/trunk/{trunk['id']}", headers=admin.headers)
    assert r.status_code == 409 and "deactivate it instead" in r.json()["message"]
    assert _count() == 1


def test_delete_removes_an_unused_trunk(client, admin) -> None:
    trunk = _trunk(client, admin)
    assert client.delete(f"/api/trunk/{trunk['id']}", headers=admin.headers).json() == {
        "message": "Trunk deleted.",
        "data": None,
    }
    assert _count() == 0
    assert client.delete(f"/api/trunk/{trunk['id']}", headers=admin.headers).status_code == 404
