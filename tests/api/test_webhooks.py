"""The webhook API: who manages which webhooks, bad input (4xx, nothing changed), a call's delivery
log and "send again"."""

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Webhook, WebhookDelivery
from core.values.enums import WebhookEvent
from core.webhooks import intake
from testkit.rows import call, count
from tests.api.test_buyers_targets import make_buyer
from tests.api.test_campaigns import make_campaign

URL = "https://hooks.example.com/calls?caller={caller}"


def _add(client, actor, **body) -> dict:
    r = client.post(
        "/api/webhook/add", json={"url": URL, "events": ["completed"], **body}, headers=actor.headers
    )
    assert r.status_code == 201, r.text
    return r.json()["data"]


def test_customer_adds_edits_pauses_and_removes_a_campaign_webhook(client, customer_a) -> None:
    campaign = make_campaign(client, customer_a)
    hook = _add(client, customer_a, campaign_id=campaign["id"], events=["incoming", "rated", "rated"])
    assert hook["user_id"] == customer_a.id and hook["events"] == ["incoming", "rated"]
    assert hook["secret"].startswith("whsec_") and hook["status"] == "active"
    r = client.put(f"/api/webhook/{hook['id']}", json={"events": ["completed"]}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["events"] == ["completed"]
    r = client.patch(
        f"/api/webhook/status/{hook['id']}", json={"status": "paused"}, headers=customer_a.headers
    )
    assert (
        r.json()["data"]["status"] == "paused" and r.json()["data"]["paused_reason"] == "paused by its owner"
    )
    r = client.post(f"/api/webhook/secret/{hook['id']}", headers=customer_a.headers)
    assert r.json()["data"]["secret"] != hook["secret"]
    listed = client.get(f"/api/webhook/details?campaign_id={campaign['id']}", headers=customer_a.headers)
    assert listed.json()["data"]["total"] == 1
    assert client.delete(f"/api/webhook/{hook['id']}", headers=customer_a.headers).status_code == 200
    assert count(Webhook) == 0


def test_tenants_see_and_change_only_their_own(client, customer_a, customer_b, buyer_a, admin) -> None:
    campaign = make_campaign(client, customer_a)
    hook = _add(client, customer_a, campaign_id=campaign["id"])
    own = _add(client, buyer_a, buyer_id=buyer_a.buyer_id, events=["routed", "rated"])
    assert own["user_id"] == customer_a.id
    for stranger in (customer_b, buyer_a):
        assert (
            client.put(f"/api/webhook/{hook['id']}", json={"url": URL}, headers=stranger.headers).status_code
            == 404
        )
        assert client.delete(f"/api/webhook/{hook['id']}", headers=stranger.headers).status_code == 404
    assert client.get("/api/webhook/details", headers=customer_b.headers).json()["data"]["total"] == 0
    assert [
        h["id"] for h in client.get("/api/webhook/details", headers=buyer_a.headers).json()["data"]["data"]
    ] == [own["id"]]
    # The customer manages its buyers' webhooks too; the admin sees every one.
    assert client.get("/api/webhook/details", headers=customer_a.headers).json()["data"]["total"] == 2
    assert client.get("/api/webhook/details", headers=admin.headers).json()["data"]["total"] == 2
    # Nobody hooks onto another tenant's campaign or buyer: the same answer as for no such row.
    other = make_buyer(client, customer_b, email="b@b.example.com")
    for actor, body in (
        (customer_b, {"campaign_id": campaign["id"]}),
        (buyer_a, {"campaign_id": campaign["id"]}),
        (customer_a, {"buyer_id": other["id"]}),
        (buyer_a, {"buyer_id": other["id"]}),
    ):
        r = client.post(
            "/api/webhook/add", json={"url": URL, "events": ["rated"], **body}, headers=actor.headers
        )
        assert r.status_code == 404 and "does not exist" in r.json()["message"], r.text
    assert count(Webhook) == 2


def test_bad_input_is_a_422_and_changes_nothing(client, customer_a, buyer_a) -> None:
    campaign = make_campaign(client, customer_a)["id"]
    bad = [
        ({"campaign_id": campaign, "url": "ftp://x.example.com", "events": ["rated"]}, "url"),
        ({"campaign_id": campaign, "url": "https://x.example.com/{calller}", "events": ["rated"]}, "url"),
        ({"campaign_id": campaign, "url": "not a url", "events": ["rated"]}, "url"),
        ({"campaign_id": campaign, "url": URL, "events": []}, "events"),
        ({"campaign_id": campaign, "url": URL, "events": ["answered"]}, "events"),
        ({"url": URL, "events": ["rated"]}, "campaign_id"),
        (
            {"campaign_id": campaign, "buyer_id": buyer_a.buyer_id, "url": URL, "events": ["rated"]},
            "campaign_id",
        ),
        ({"buyer_id": buyer_a.buyer_id, "url": URL, "events": ["incoming"]}, "events"),
        ({"buyer_id": buyer_a.buyer_id, "url": URL, "events": ["rated", "attributed"]}, "events"),
        ({"campaign_id": campaign, "url": URL, "events": ["rated"], "secret": "mine"}, "secret"),
    ]
    for body, field in bad:
        r = client.post("/api/webhook/add", json=body, headers=customer_a.headers)
        fields = r.json().get("errors", {})
        assert r.status_code == 422 and any(f.split(".")[0] == field for f in fields), (body, r.text)
    assert count(Webhook) == 0
    # Nor may a buyer's webhook take the customer's traffic later.
    buyers = _add(client, customer_a, buyer_id=buyer_a.buyer_id, events=["rated"])
    path = f"/api/webhook/{buyers['id']}"
    r = client.put(path, json={"events": ["attributed"]}, headers=customer_a.headers)
    assert r.status_code == 422 and "'attributed'" in r.json()["message"]
    hook = _add(client, customer_a, campaign_id=campaign)
    r = client.put(
        f"/api/webhook/{hook['id']}", json={"url": "https://x.example.com/{nope}"}, headers=customer_a.headers
    )
    assert r.status_code == 422
    r = client.patch(f"/api/webhook/status/{hook['id']}", json={"status": "off"}, headers=customer_a.headers)
    assert r.status_code == 422
    with session_scope() as s:
        assert s.get(Webhook, hook["id"]).url == URL


def test_call_delivery_log_and_send_again_are_scoped(client, customer_a, customer_b) -> None:
    campaign = make_campaign(client, customer_a)["id"]
    hook = _add(client, customer_a, campaign_id=campaign)
    call_id = call(customer_a.id, 30, campaign_id=campaign)
    with session_scope() as s:
        from core.models import Call

        linkedid = s.get(Call, call_id).linkedid
    body = {"event": "completed", "occurred_at": None, "call": {"linkedid": linkedid}}
    intake.record([intake.Event(linkedid, WebhookEvent.COMPLETED, campaign, None, body)])
    log = client.get(f"/api/webhook/deliveries/{call_id}", headers=customer_a.headers).json()["data"]
    assert [(d["event"], d["status"], d["webhook_id"]) for d in log] == [("completed", "pending", hook["id"])]
    assert client.get(f"/api/webhook/deliveries/{call_id}", headers=customer_b.headers).status_code == 404
    assert client.post(f"/api/webhook/resend/{log[0]['id']}", headers=customer_b.headers).status_code == 404
    with session_scope() as s:
        d = s.scalars(select(WebhookDelivery)).one()
        d.status = "failed"
    r = client.post(f"/api/webhook/resend/{log[0]['id']}", headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["status"] == "pending"
