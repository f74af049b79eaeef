"""Blocked callers: global (admin) and per customer, exact or prefix, and blocking from call rows."""

from datetime import UTC, datetime

from sqlmodel import select

from core.infra.db import session_scope
from core.models import BlockEntry, Call


def _call(user_id: int, caller: str, linkedid: str) -> int:
    with session_scope() as s:
        call = Call(
            linkedid=linkedid,
            user_id=user_id,
            did="+442071838750",
            caller=caller,
            started_at=datetime.now(UTC),
            disposition="ANSWERED",
        )
        s.add(call)
        s.flush()
        return call.id


def test_customer_blocks_exact_and_prefix_and_sees_global_entries(
    client, admin, customer_a, customer_b
) -> None:
    g = client.post(
        "/api/block/add", json={"pattern": "+44 7700 900999", "reason": "fraud"}, headers=admin.headers
    )
    assert g.status_code == 201 and g.json()["data"]["user_id"] is None
    assert g.json()["data"]["pattern"] == "+447700900999"
    exact = client.post("/api/block/add", json={"pattern": "447700900123"}, headers=customer_a.headers)
    assert exact.status_code == 201 and exact.json()["data"]["pattern"] == "+447700900123"
    prefix = client.post(
        "/api/block/add", json={"pattern": "+1900", "match_type": "prefix"}, headers=customer_a.headers
    )
    assert prefix.status_code == 201 and prefix.json()["data"]["pattern"] == "1900"

    seen_a = {
        r["pattern"]
        for r in client.get("/api/block/details", headers=customer_a.headers).json()["data"]["data"]
    }
    assert seen_a == {"+447700900999", "+447700900123", "1900"}
    seen_b = {
        r["pattern"]
        for r in client.get("/api/block/details", headers=customer_b.headers).json()["data"]["data"]
    }
    assert seen_b == {"+447700900999"}
    # Global entries are visible to customers but not theirs to change.
    gid = g.json()["data"]["id"]
    assert client.delete(f"/api/block/{gid}", headers=customer_a.headers).status_code == 404
    assert (
        client.patch(
            f"/api/block/status/{gid}", json={"status": "inactive"}, headers=customer_a.headers
        ).status_code
        == 404
    )
    assert (
        client.delete(f"/api/block/{exact.json()['data']['id']}", headers=customer_b.headers).status_code
        == 404
    )


def test_block_bad_input_and_duplicates(client, admin, customer_a, buyer_a) -> None:
    for body in (
        {"pattern": "abc"},
        {"pattern": "12"},
        {"pattern": "+1234567890123456"},
        {"pattern": "+447700900123", "match_type": "regex"},
        {"pattern": ""},
    ):
        r = client.post("/api/block/add", json=body, headers=customer_a.headers)
        assert r.status_code == 422, (body, r.text)
        assert "pattern" in r.json()["errors"] or "match_type" in r.json()["errors"]
    assert (
        "prefix"
        in client.post("/api/block/add", json={"pattern": "12"}, headers=customer_a.headers).json()["message"]
    )
    client.post("/api/block/add", json={"pattern": "+447700900123"}, headers=customer_a.headers)
    dup = client.post("/api/block/add", json={"pattern": "447700900123"}, headers=customer_a.headers)
    assert dup.status_code == 409
    # The same number may be blocked globally and by the customer independently.
    assert (
        client.post("/api/block/add", json={"pattern": "+447700900123"}, headers=admin.headers).status_code
        == 201
    )
    twice_global = client.post("/api/block/add", json={"pattern": "+447700900123"}, headers=admin.headers)
    assert twice_global.status_code == 409
    assert (
        client.post(
            "/api/block/add",
            json={"pattern": "+447700900124", "user_id": admin.id},
            headers=customer_a.headers,
        ).status_code
        == 422
    )
    assert client.get("/api/block/details", headers=buyer_a.headers).status_code == 403
    with session_scope() as s:
        assert len(s.exec(select(BlockEntry)).all()) == 2


def test_block_callers_from_call_rows(client, admin, customer_a, customer_b) -> None:
    c1 = _call(customer_a.id, "+447700900123", "1.1")
    c2 = _call(customer_a.id, "+447700900123", "1.2")
    c3 = _call(customer_a.id, "anonymous", "1.3")
    other = _call(customer_b.id, "+447700900555", "1.4")
    r = client.post("/api/block/cdr", json={"call_ids": [c1, c2, c3]}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"] == {"created": 1, "already_blocked": 1}
    again = client.post("/api/block/cdr", json={"call_ids": [c1]}, headers=customer_a.headers)
    assert again.json()["data"] == {"created": 0, "already_blocked": 1}
    foreign = client.post("/api/block/cdr", json={"call_ids": [c1, other]}, headers=customer_a.headers)
    assert foreign.status_code == 404  # another tenant's call names nothing here (docs/api.md)
    admin_global = client.post("/api/block/cdr", json={"call_ids": [other]}, headers=admin.headers)
    assert admin_global.json()["data"]["created"] == 1
    with session_scope() as s:
        rows = {(b.user_id, b.pattern) for b in s.exec(select(BlockEntry)).all()}
        assert rows == {(customer_a.id, "+447700900123"), (None, "+447700900555")}
