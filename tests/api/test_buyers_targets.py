"""Buyers with their logins, targets, and the campaign-target links that order them."""

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Buyer, Call, CampaignTarget, Target, Trunk, User
from core.routing.schedule import DAYS
from tests.api.test_campaigns import make_campaign

BUYER = {"name": "Acme Plumbing", "email": "calls@acme.example.com", "password": "buyerpass1"}


def make_buyer(client, actor, **extra) -> dict:
    r = client.post("/api/buyer/add", json={**BUYER, **extra}, headers=actor.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def make_target(client, actor, buyer_id: int, **extra) -> dict:
    body = {"buyer_id": buyer_id, "name": "Acme desk", "destination": "+1 415 555 0100", **extra}
    r = client.post("/api/target/add", json=body, headers=actor.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _trunk(direction: str) -> int:
    with session_scope() as s:
        t = Trunk(name=f"{direction}-1", direction=direction, host="sip.example.net")
        s.add(t)
        s.flush()
        return t.id


def test_creating_a_buyer_creates_its_login(client, customer_a) -> None:
    b = make_buyer(client, customer_a)
    assert b["user_id"] == customer_a.id and "login_user_id" not in b
    login = client.post("/api/login", json={"email": BUYER["email"], "password": BUYER["password"]}).json()
    assert login["data"]["user"]["role"] == 3 and login["data"]["user"]["timezone"] == "Europe/Berlin"
    headers = {"Authorization": f"Bearer {login['data']['token']}"}
    own = client.get("/api/buyer/details", headers=headers).json()["data"]
    assert own["total"] == 1 and own["data"][0]["id"] == b["id"]


def test_buyer_email_must_be_free_and_nothing_is_half_created(client, admin, customer_a, customer_b) -> None:
    make_buyer(client, customer_a)
    # An admin is told (a customer is answered alike either way: test_account_enumeration.py).
    again = client.post("/api/buyer/add", json={**BUYER, "user_id": customer_b.id}, headers=admin.headers)
    assert again.status_code == 409
    weak = client.post(
        "/api/buyer/add",
        json={**BUYER, "email": "x@example.com", "password": "short"},
        headers=customer_a.headers,
    )
    assert weak.status_code == 422
    with session_scope() as s:
        assert len(s.exec(select(Buyer)).all()) == 1
        assert s.exec(select(User).where(User.email == "x@example.com")).first() is None


def test_buyer_status_and_password_follow_to_its_login(client, customer_a) -> None:
    b = make_buyer(client, customer_a)
    client.patch(f"/api/buyer/status/{b['id']}", json={"status": "inactive"}, headers=customer_a.headers)
    assert (
        client.post("/api/login", json={"email": BUYER["email"], "password": BUYER["password"]}).status_code
        == 403
    )
    client.patch(f"/api/buyer/status/{b['id']}", json={"status": "active"}, headers=customer_a.headers)
    r = client.put(
        f"/api/buyer/{b['id']}",
        json={"name": "Acme Ltd", "password": "newbuyer22"},
        headers=customer_a.headers,
    )
    assert r.status_code == 200 and r.json()["data"]["name"] == "Acme Ltd"
    login = client.post("/api/login", json={"email": BUYER["email"], "password": "newbuyer22"})
    assert login.status_code == 200 and login.json()["data"]["user"]["name"] == "Acme Ltd"


def test_buyer_scope(client, admin, customer_a, customer_b, buyer_a) -> None:
    b = make_buyer(client, customer_a)
    assert client.get("/api/buyer/details", headers=customer_b.headers).json()["data"]["total"] == 0
    assert (
        client.put(f"/api/buyer/{b['id']}", json={"name": "x"}, headers=customer_b.headers).status_code == 404
    )
    assert client.delete(f"/api/buyer/{b['id']}", headers=customer_b.headers).status_code == 404
    assert client.put(f"/api/buyer/{b['id']}", json={"name": "x"}, headers=buyer_a.headers).status_code == 403
    assert (
        client.get(f"/api/buyer/buyer-userId/{customer_a.id}", headers=customer_b.headers).status_code == 404
    )
    names = [
        x["name"]
        for x in client.get(f"/api/buyer/buyer-userId/{customer_a.id}", headers=admin.headers).json()["data"]
    ]
    assert sorted(names) == ["Acme Plumbing", "Bea Buyer"]
    # buyer_a sees only itself among customer_a's two buyers.
    assert [
        x["id"] for x in client.get("/api/buyer/details", headers=buyer_a.headers).json()["data"]["data"]
    ] == [buyer_a.buyer_id]


def test_targets_validate_destination_trunk_schedule_and_caps(client, customer_a) -> None:
    b = make_buyer(client, customer_a)
    out, inbound = _trunk("outbound"), _trunk("inbound")
    t = make_target(
        client,
        customer_a,
        b["id"],
        trunk_id=out,
        concurrency_cap=2,
        daily_cap=50,
        timezone="America/Chicago",
        schedule={"mon": [["09:00", "12:00"], ["13:00", "17:30"]]},
        payout="12.50",
    )
    assert t["destination"] == "+14155550100" and t["payout"] == "12.5000" and t["user_id"] == customer_a.id
    sip = make_target(
        client, customer_a, b["id"], name="SIP desk", destination="sip:desk@pbx.acme.example.com"
    )
    assert sip["destination"] == "sip:desk@pbx.acme.example.com"
    bad = [
        {"destination": "12"},
        {"destination": "sip:nohost"},
        {"trunk_id": inbound},
        {"trunk_id": 999999},
        {"concurrency_cap": -1},
        {"payout": "-1"},
        {"timezone": "Moon/Base"},
        {"schedule": {"funday": [["09:00", "10:00"]]}},
        {"schedule": {"mon": [["17:00", "09:00"]]}},
        {"schedule": {"mon": [["09:00", "12:00"], ["11:00", "13:00"]]}},
        {"schedule": {"mon": [["9am", "5pm"]]}},
        {"buyer_id": 999999},
    ]
    for extra in bad:
        body = {"buyer_id": b["id"], "name": "X", "destination": "+14155550100", **extra}
        r = client.post("/api/target/add", json=body, headers=customer_a.headers)
        missing = 999999 in extra.values()  # an id naming no row: 404 (docs/api.md)
        assert r.status_code == (404 if missing else 422), (extra, r.text)
        assert r.json()["errors"], extra
    with session_scope() as s:
        assert len(s.exec(select(Target)).all()) == 2
    # The list names each target's buyer and trunk, so the screen needs no lookup of its own.
    listed = client.get("/api/target/details", headers=customer_a.headers).json()["data"]["data"]
    names = {row["name"]: (row["buyer_name"], row["trunk_name"]) for row in listed}
    assert names == {"Acme desk": ("Acme Plumbing", "outbound-1"), "SIP desk": ("Acme Plumbing", None)}


def test_target_scope_and_buyer_own_targets(client, customer_a, customer_b, buyer_a) -> None:
    b = make_buyer(client, customer_a)
    mine = make_target(client, customer_a, buyer_a.buyer_id, name="Bea desk")
    make_target(client, customer_a, b["id"])
    foreign = client.post(
        "/api/target/add",
        json={"buyer_id": b["id"], "name": "X", "destination": "+14155550100"},
        headers=customer_b.headers,
    )
    assert foreign.status_code == 404 and foreign.json()["errors"] == {
        "buyer_id": [f"Buyer {b['id']} does not exist."]
    }
    own = client.get("/api/buyer/target", headers=buyer_a.headers).json()["data"]
    assert [t["id"] for t in own] == [mine["id"]]
    assert client.get("/api/target/details", headers=buyer_a.headers).json()["data"]["total"] == 1
    assert client.get("/api/buyer/target", headers=customer_a.headers).status_code == 403
    assert client.get("/api/target/details", headers=customer_b.headers).json()["data"]["total"] == 0
    assert (
        client.put(f"/api/target/{mine['id']}", json={"name": "x"}, headers=customer_b.headers).status_code
        == 404
    )
    assert (
        client.put(f"/api/target/{mine['id']}", json={"name": "x"}, headers=buyer_a.headers).status_code
        == 403
    )


def test_links_order_targets_within_a_campaign(client, customer_a, customer_b) -> None:
    camp = make_campaign(client, customer_a)
    b = make_buyer(client, customer_a)
    t1 = make_target(client, customer_a, b["id"], name="First")
    t2 = make_target(client, customer_a, b["id"], name="Second")
    t3 = make_target(client, customer_a, b["id"], name="Third")

    free = client.post(
        "/api/target/getTargetsForCampaign", json={"campaign_id": camp["id"]}, headers=customer_a.headers
    ).json()["data"]
    assert {t["id"] for t in free} == {t1["id"], t2["id"], t3["id"]}
    r = client.post(
        "/api/camp/add",
        headers=customer_a.headers,
        json={
            "campaign_id": camp["id"],
            "targets": [
                {"target_id": t2["id"], "priority": 2, "weight": 10},
                {"target_id": t1["id"], "priority": 1},
            ],
        },
    )
    assert r.status_code == 200, r.text
    url = f"/api/target/getAssignedTargetsForCampaign?campaign_id={camp['id']}&user_id={customer_a.id}"
    order = [
        (t["target_id"], t["priority"], t["weight"])
        for t in client.get(url, headers=customer_a.headers).json()["data"]
    ]
    assert order == [(t1["id"], 1, 1), (t2["id"], 2, 10)]
    free = client.post(
        "/api/target/getTargetsForCampaign", json={"campaign_id": camp["id"]}, headers=customer_a.headers
    ).json()["data"]
    assert [t["id"] for t in free] == [t3["id"]]

    assert (
        client.patch(
            f"/api/camp/priority/{t2['id']}",
            json={"campaign_id": camp["id"], "priority": 1, "weight": 5},
            headers=customer_a.headers,
        ).status_code
        == 200
    )
    assert (
        client.post(
            "/api/camp/rc",
            json={"campaign_id": camp["id"], "target_id": t1["id"]},
            headers=customer_a.headers,
        ).status_code
        == 200
    )
    order = [
        (t["target_id"], t["priority"], t["weight"])
        for t in client.get(url, headers=customer_a.headers).json()["data"]
    ]
    assert order == [(t2["id"], 1, 5)]
    assert (
        client.post(
            "/api/camp/rc",
            json={"campaign_id": camp["id"], "target_id": t1["id"]},
            headers=customer_a.headers,
        ).status_code
        == 404
    )


def test_links_refuse_foreign_targets_and_bad_priorities(client, customer_a, customer_b) -> None:
    camp = make_campaign(client, customer_a)
    other = make_target(client, customer_b, make_buyer(client, customer_b, email="b@example.com")["id"])
    mine = make_target(client, customer_a, make_buyer(client, customer_a)["id"])
    for targets in (
        [{"target_id": other["id"]}],
        [{"target_id": mine["id"], "priority": 0}],
        [{"target_id": mine["id"], "priority": 101}],
        [{"target_id": mine["id"], "weight": 0}],
        [{"target_id": mine["id"]}, {"target_id": mine["id"]}],
        [],
    ):
        r = client.post(
            "/api/camp/add", json={"campaign_id": camp["id"], "targets": targets}, headers=customer_a.headers
        )
        foreign = targets == [{"target_id": other["id"]}]  # as if it did not exist: 404
        assert r.status_code == (404 if foreign else 422), (targets, r.text)
    # One bad item refuses the whole request.
    mixed = [{"target_id": mine["id"]}, {"target_id": other["id"]}]
    assert (
        client.post(
            "/api/camp/add", json={"campaign_id": camp["id"], "targets": mixed}, headers=customer_a.headers
        ).status_code
        == 404
    )
    assert (
        client.post(
            "/api/camp/add",
            json={"campaign_id": camp["id"], "targets": [{"target_id": mine["id"]}]},
            headers=customer_b.headers,
        ).status_code
        == 404
    )
    with session_scope() as s:
        assert s.exec(select(CampaignTarget)).all() == []


def test_deleting_a_buyer_takes_its_targets_links_and_login(client, customer_a) -> None:
    camp = make_campaign(client, customer_a)
    b = make_buyer(client, customer_a)
    t = make_target(client, customer_a, b["id"])
    client.post(
        "/api/camp/add",
        json={"campaign_id": camp["id"], "targets": [{"target_id": t["id"]}]},
        headers=customer_a.headers,
    )
    with session_scope() as s:
        login_id = s.get(Buyer, b["id"]).login_user_id
    assert login_id is not None
    assert client.delete(f"/api/buyer/{b['id']}", headers=customer_a.headers).status_code == 200
    with session_scope() as s:
        assert s.get(Target, t["id"]) is None and s.exec(select(CampaignTarget)).all() == []
        assert s.get(User, login_id) is None


def test_a_buyer_sees_each_targets_calls_against_its_caps_and_whether_it_is_open(
    client, customer_a, buyer_a
) -> None:
    now = datetime.now(UTC)
    other_day = DAYS[(now.weekday() + 3) % 7]
    capped = make_target(client, customer_a, buyer_a.buyer_id, name="Capped", daily_cap=5, timezone="UTC")
    closed = make_target(
        client, customer_a, buyer_a.buyer_id, name="Closed", schedule={other_day: [["09:00", "17:00"]]}
    )
    with session_scope() as s:
        for n, connected in enumerate([now, now, now - timedelta(days=40), None]):
            s.add(
                Call(
                    linkedid=f"bt-{n}",
                    user_id=customer_a.id,
                    did="+442071838750",
                    caller="+442071838751",
                    started_at=connected or now,
                    connected_at=connected,
                    disposition="ANSWERED" if connected else "NO ANSWER",
                    target_id=capped["id"],
                    buyer_id=buyer_a.buyer_id,
                )
            )
    rows = {t["name"]: t for t in client.get("/api/buyer/target", headers=buyer_a.headers).json()["data"]}
    assert rows["Capped"]["daily_cap"] == 5 and rows["Capped"]["open_now"] is True
    used = [rows["Capped"][k] for k in ("calls_this_hour", "calls_today", "calls_this_month")]
    assert used == [2, 2, 2]
    assert rows["Closed"]["open_now"] is False and rows["Closed"]["calls_today"] == 0
    assert rows["Closed"]["id"] == closed["id"]
