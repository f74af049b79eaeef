"""POST /api/routing/dry-run: where a call would go now and why, scoped, writing nothing."""

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlmodel import SQLModel

from core.infra.db import session_scope
from core.infra.names import live_target_key
from core.infra.redis_client import get_redis
from core.models import BlockEntry, Campaign, Target, User
from testkit.rows import CALLER, DID, Line, change, desk, earlier_call, line, top_up, trunk

URL = "/api/routing/dry-run"


def dry_run(client, actor, did: str = DID, caller: str = CALLER):
    return client.post(URL, json={"did": did, "caller": caller}, headers=actor.headers)


def alices_line(customer_a, **campaign_fields) -> tuple[Line, Target]:
    """Alice's number routed to Acme's desk first, Beta's second; 20.00 in her wallet."""
    top_up(customer_a.id, "20")
    with session_scope() as s:
        user = s.get(User, customer_a.id)
    ln = line(user, **campaign_fields)
    acme = desk(ln, "Acme desk", trunk_id=trunk("carrier-out").id)
    desk(ln, "Beta desk", priority=2)
    return ln, acme


def answer_shape(response, did: str) -> str:
    body = response.json()
    body["data"]["trail"] = [{k: v for k, v in e.items() if k != "at"} for e in body["data"]["trail"]]
    return json.dumps(body).replace(did, "<did>")


def test_admin_and_owner_see_the_order_and_the_reasons(client, admin, customer_a) -> None:
    alices_line(customer_a, ivr_enabled=True, ivr_pins=["1234"])
    for actor in (admin, customer_a):
        r = dry_run(client, actor, did="442071838750")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["message"] == "The call would be dialled to Acme desk first."
        data = body["data"]
        assert (data["disposition"], data["stopped_at"], data["ivr"]) == (None, None, True)
        assert [c["name"] for c in data["candidates"]] == ["Acme desk", "Beta desk"]
        first = data["candidates"][0]
        assert first["trunk"]["name"] == "carrier-out" and set(first["trunk"]) == {"id", "name"}
        assert (first["destination"], first["priority"], first["weight"]) == ("+14155550100", 1, 1)
        assert [(e["step"], e["result"]) for e in data["trail"]] == [
            ("route", "passed"),
            ("block", "passed"),
            ("region", "passed"),
            ("credit", "passed"),
            ("target", "candidate"),
            ("target", "candidate"),
            ("select", "passed"),
        ]
        assert all(datetime.fromisoformat(e["at"]).tzinfo is not None for e in data["trail"])


def test_another_customers_number_answers_like_an_unknown_one(client, customer_a, customer_b) -> None:
    alices_line(customer_a)
    foreign = dry_run(client, customer_b)
    unknown = dry_run(client, customer_b, did="+442071838799")
    assert foreign.status_code == unknown.status_code == 200
    assert foreign.json()["message"] == "The call would stop at route: NO_ROUTE."
    data = foreign.json()["data"]
    assert (data["disposition"], data["stopped_at"], data["candidates"], data["ivr"]) == (
        "NO_ROUTE",
        "route",
        [],
        False,
    )
    # Word for word the answer for a number nobody owns, but for the number itself and the time.
    assert answer_shape(foreign, DID) == answer_shape(unknown, "+442071838799")
    assert "Plumbing" not in foreign.text and "Acme" not in foreign.text


def test_buyers_may_not_dry_run(client, customer_a, buyer_a) -> None:
    alices_line(customer_a)
    r = dry_run(client, buyer_a)
    assert r.status_code == 403 and "Acme" not in r.text


def test_a_stopped_call_names_its_step_and_reason(client, admin, customer_a) -> None:
    alices_line(customer_a)
    with session_scope() as s:
        s.add(BlockEntry(user_id=customer_a.id, pattern="44791", match_type="prefix", reason="spam"))
    data = dry_run(client, customer_a).json()["data"]
    assert (data["disposition"], data["stopped_at"], data["ivr"]) == ("BLOCKED", "block", False)
    assert data["trail"][-1]["reason"] == f"caller {CALLER} matches customer block 44791 (prefix): spam"


def test_a_repeat_caller_rejected_after_the_ivr(client, customer_a) -> None:
    ln, acme = alices_line(customer_a, duplicate_action="reject", ivr_enabled=True, ivr_pins=["1234"])
    earlier_call(ln, acme, datetime.now(UTC) - timedelta(hours=1))
    data = dry_run(client, customer_a).json()["data"]
    # The IVR comes before the duplicate check: the caller would be asked, then rejected.
    assert (data["disposition"], data["stopped_at"], data["ivr"]) == ("DUPLICATE", "duplicate", True)


def test_live_counts_come_from_redis(client, customer_a) -> None:
    _, acme = alices_line(customer_a)
    change(Target, acme.id, concurrency_cap=1)
    get_redis().sadd(live_target_key(acme.id), "1700000001.1")
    data = dry_run(client, customer_a).json()["data"]
    assert [c["name"] for c in data["candidates"]] == ["Beta desk"]
    skipped = [e for e in data["trail"] if e["result"] == "skipped"]
    assert [(e["name"], e["reason"]) for e in skipped] == [("Acme desk", "concurrency cap 1/1")]


def test_a_dry_run_writes_nothing(client, admin, customer_a) -> None:
    ln, _ = alices_line(customer_a, strategy="round_robin")
    desk(ln, "Second A", priority=1)
    before = _snapshot(ln.campaign.id)
    orders = [
        [c["name"] for c in dry_run(client, actor).json()["data"]["candidates"]]
        for actor in (admin, customer_a, admin)
    ]
    # The round-robin cursor is read, not moved: every dry run shows the same next order.
    assert orders == [["Second A", "Acme desk", "Beta desk"]] * 3
    assert _snapshot(ln.campaign.id) == before


def _snapshot(campaign_id: int) -> tuple:
    """Every table's row count, the campaign row (its cursor) and every Redis key."""
    with session_scope() as s:
        counts = {
            t.name: s.scalar(select(func.count()).select_from(t)) for t in SQLModel.metadata.sorted_tables
        }
        campaign = s.get(Campaign, campaign_id).model_dump()
    return counts, campaign, sorted(get_redis().keys("*"))


def test_bad_bodies_are_refused(client, customer_a) -> None:
    for body in ({"did": DID}, {"did": "", "caller": CALLER}, {"did": DID, "caller": CALLER, "x": 1}):
        assert client.post(URL, json=body, headers=customer_a.headers).status_code == 422, body
    assert client.post(URL, json={"did": DID, "caller": CALLER}).status_code == 401
