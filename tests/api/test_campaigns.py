"""Campaigns and their IVR settings: ownership, validation, status audit, history-safe deletes."""

from datetime import UTC, datetime

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Call, Campaign, StatusChange

CAMPAIGN = {"name": "Plumbing leads", "ring_timeout": 25, "buffer_seconds": 90, "duplicate_action": "reject"}


def make_campaign(client, actor, **extra) -> dict:
    r = client.post("/api/campaign/add", json={**CAMPAIGN, **extra}, headers=actor.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def test_customer_creates_and_manages_its_campaign(client, customer_a) -> None:
    c = make_campaign(client, customer_a)
    assert c["user_id"] == customer_a.id and c["status"] == "active" and c["strategy"] == "priority_weight"
    assert (c["ring_timeout"], c["buffer_seconds"], c["duplicate_action"]) == (25, 90, "reject")
    upd = client.put(
        f"/api/campaign/{c['id']}",
        json={"strategy": "round_robin", "record": True},
        headers=customer_a.headers,
    )
    assert upd.status_code == 200 and upd.json()["data"]["strategy"] == "round_robin"
    page = client.get("/api/campaign/details?params=plumb", headers=customer_a.headers).json()["data"]
    assert page["total"] == 1
    assert [
        x["id"] for x in client.get("/api/campaign/on-camp", headers=customer_a.headers).json()["data"]
    ] == [c["id"]]
    owner = client.get(f"/api/campaign/camp-user/{c['id']}", headers=customer_a.headers).json()["data"]
    assert owner == {
        "campaign_id": c["id"],
        "user_id": customer_a.id,
        "name": "Alice Customer",
        "email": customer_a.email,
    }


def test_admin_creates_for_a_named_customer_and_filters_by_user(
    client, admin, customer_a, customer_b
) -> None:
    missing = client.post("/api/campaign/add", json=CAMPAIGN, headers=admin.headers)
    assert missing.status_code == 422 and "user_id" in missing.json()["errors"]
    make_campaign(client, admin, user_id=customer_a.id)
    make_campaign(client, admin, user_id=customer_b.id)
    assert client.get("/api/campaign/details", headers=admin.headers).json()["data"]["total"] == 2
    only_a = client.get(f"/api/campaign/details?user_id={customer_a.id}", headers=admin.headers).json()[
        "data"
    ]
    assert only_a["total"] == 1 and only_a["data"][0]["user_id"] == customer_a.id
    listed = client.get(f"/api/campaign/user/{customer_b.id}", headers=admin.headers).json()["data"]
    assert len(listed) == 1
    to_admin = client.post("/api/campaign/add", json={**CAMPAIGN, "user_id": admin.id}, headers=admin.headers)
    assert to_admin.status_code == 404  # no such customer (docs/api.md)


def test_tenants_never_see_or_touch_each_others_campaigns(client, customer_a, customer_b, buyer_a) -> None:
    c = make_campaign(client, customer_a)
    cid = c["id"]
    assert client.get("/api/campaign/details", headers=customer_b.headers).json()["data"]["total"] == 0
    for method, url, body in [
        ("GET", f"/api/campaign/ivr/{cid}", None),
        ("GET", f"/api/campaign/camp-user/{cid}", None),
        ("PUT", f"/api/campaign/{cid}", {"name": "Mine now"}),
        ("PATCH", f"/api/campaign/status/{cid}", {"status": "inactive"}),
        ("DELETE", f"/api/campaign/{cid}", None),
        ("PUT", "/api/campaign/ivr-edit", {"campaign_id": cid, "ivr_enabled": False}),
        ("GET", f"/api/campaign/user/{customer_a.id}", None),
    ]:
        r = client.request(method, url, json=body, headers=customer_b.headers)
        assert r.status_code == 404, (method, url, r.text)
        assert client.request(method, url, json=body, headers=buyer_a.headers).status_code == 403
    sneaky = client.post(
        "/api/campaign/add", json={**CAMPAIGN, "user_id": customer_a.id}, headers=customer_b.headers
    )
    assert sneaky.status_code == 422
    with session_scope() as s:
        row = s.get(Campaign, cid)
        assert (row.name, row.status) == ("Plumbing leads", "active")
        assert s.exec(select(Campaign).where(Campaign.user_id == customer_a.id)).all() == [row]


def test_campaign_bad_input_changes_nothing(client, customer_a) -> None:
    c = make_campaign(client, customer_a)
    bad = [
        {"name": "X", "ring_timeout": 2},
        {"name": "X", "ring_timeout": 301},
        {"name": "X", "strategy": "random"},
        {"name": "X", "buffer_seconds": -1},
        {"name": "X", "duplicate_action": "ignore"},
        {"name": ""},
        {"name": "X", "colour": "red"},
    ]
    for body in bad:
        assert client.post("/api/campaign/add", json=body, headers=customer_a.headers).status_code == 422, (
            body
        )
    dup = client.post("/api/campaign/add", json=CAMPAIGN, headers=customer_a.headers)
    assert dup.status_code == 409 and dup.json()["errors"]["name"]
    assert (
        client.put(
            f"/api/campaign/{c['id']}", json={"ring_timeout": None}, headers=customer_a.headers
        ).status_code
        == 422
    )
    assert (
        client.patch(
            f"/api/campaign/status/{c['id']}", json={"status": "paused"}, headers=customer_a.headers
        ).status_code
        == 422
    )
    assert client.get("/api/campaign/details", headers=customer_a.headers).json()["data"]["total"] == 1


def test_status_change_is_recorded(client, customer_a) -> None:
    c = make_campaign(client, customer_a)
    r = client.patch(
        f"/api/campaign/status/{c['id']}", json={"status": "inactive"}, headers=customer_a.headers
    )
    assert r.json()["data"]["status"] == "inactive"
    assert client.get("/api/campaign/on-camp", headers=customer_a.headers).json()["data"] == []
    with session_scope() as s:
        (row,) = s.exec(select(StatusChange)).all()
        assert (row.entity, row.entity_id, row.new_status, row.changed_by) == (
            "campaign",
            c["id"],
            "inactive",
            customer_a.id,
        )


def test_ivr_settings_round_trip_and_validation(client, customer_a) -> None:
    c = make_campaign(client, customer_a)
    assert (
        client.get(f"/api/campaign/ivr/{c['id']}", headers=customer_a.headers).json()["data"]["ivr_enabled"]
        is False
    )
    body = {
        "campaign_id": c["id"],
        "ivr_enabled": True,
        "ivr_prompt": "conf-getpin",
        "ivr_pins": ["4321", "1234"],
        "ivr_digits": 4,
        "ivr_attempts": 2,
    }
    r = client.put("/api/campaign/ivr-edit", json=body, headers=customer_a.headers)
    assert r.status_code == 200, r.text
    got = client.get(f"/api/campaign/ivr/{c['id']}", headers=customer_a.headers).json()["data"]
    assert got == {
        "ivr_enabled": True,
        "ivr_prompt": "conf-getpin",
        "ivr_pins": ["1234", "4321"],
        "ivr_digits": 4,
        "ivr_attempts": 2,
    }
    for wrong in (
        {"ivr_pins": ["12a4"]},
        {"ivr_pins": ["123"]},
        {"ivr_pins": []},
        {"ivr_attempts": 0},
        {"ivr_digits": 13},
    ):
        r = client.put("/api/campaign/ivr-edit", json={**body, **wrong}, headers=customer_a.headers)
        assert r.status_code == 422, wrong
    assert (
        "4 digits"
        in client.put(
            "/api/campaign/ivr-edit", json={**body, "ivr_pins": ["123"]}, headers=customer_a.headers
        ).json()["message"]
    )
    listing = client.get("/api/ivr/details?enabled=true", headers=customer_a.headers).json()["data"]
    assert listing["total"] == 1 and listing["data"][0]["campaign_id"] == c["id"]
    assert listing["data"][0]["customer_name"] == "Alice Customer"  # lists name whose campaign it is


def test_delete_is_refused_while_calls_reference_the_campaign(client, customer_a) -> None:
    keep, drop = make_campaign(client, customer_a), make_campaign(client, customer_a, name="Other")
    with session_scope() as s:
        s.add(
            Call(
                linkedid="1700000000.1",
                user_id=customer_a.id,
                campaign_id=keep["id"],
                did="+442071838750",
                caller="+447700900123",
                started_at=datetime.now(UTC),
                disposition="ANSWERED",
            )
        )
    r = client.delete(f"/api/campaign/{keep['id']}", headers=customer_a.headers)
    assert r.status_code == 409 and "deactivate it instead" in r.json()["message"]
    assert client.delete(f"/api/campaign/{drop['id']}", headers=customer_a.headers).status_code == 200
    with session_scope() as s:
        assert s.get(Campaign, keep["id"]) is not None and s.get(Campaign, drop["id"]) is None
