"""Webhook deliveries against a real receiver on loopback and the real database: intake, order per
call, retries, giving up, pausing, and rating's final events (the sender runs in the test)."""

from datetime import UTC, datetime, timedelta

import orjson
from sqlmodel import select

from core.billing import rating
from core.infra.db import session_scope
from core.models import Target, Webhook, WebhookDelivery
from core.values.enums import DeliveryStatus, WebhookEvent, WebhookStatus
from core.webhooks import intake, payload, sender, signing
from testkit.rows import call, campaign_with_target, customer_id, get, notices, save, tariff
from testkit.webhook_receiver import webhook_receiver


def _hook(campaign_id: int, user_id: int, url: str, events: list[str] | None = None) -> Webhook:
    every = [e.value for e in WebhookEvent]
    return save(
        Webhook(user_id=user_id, campaign_id=campaign_id, url=url, events=events or every, secret="sek")
    )


def _event(linkedid: str, kind: WebhookEvent, campaign_id: int, seq: int = 0) -> intake.Event:
    body = {"event": kind.value, "occurred_at": None, "call": {"linkedid": linkedid, "caller": "+1415"}}
    return intake.Event(linkedid, kind, campaign_id, None, body, seq)


def _deliveries() -> list[WebhookDelivery]:
    with session_scope() as s:
        return list(s.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id)))


def _send(now: datetime | None = None) -> sender.Round:
    with sender.client() as client:
        return sender.send_due(client, now=(lambda: now) if now else sender._now)


def test_each_event_once_signed_in_order_and_a_500_is_retried_later() -> None:
    user = customer_id()
    campaign, _ = campaign_with_target(user)
    with webhook_receiver(answers=[500]) as rx:
        _hook(campaign, user, rx.url + "/hook?c={caller}")
        events = [_event("9.1", k, campaign) for k in (WebhookEvent.INCOMING, WebhookEvent.CONNECTED)]
        assert intake.record(events) == 2
        assert intake.record(events) == 2  # counted, but the same events are not recorded twice
        assert len(_deliveries()) == 2
        first = _send()
        # The 500 holds the call's later event back: nothing overtakes it.
        assert first.tried == 1 and first.retry_in == 2 and len(rx.got) == 1
        later = datetime.now(UTC) + timedelta(seconds=3)
        assert _send(later).tried == 2
    assert [r.answered for r in rx.got] == [500, 200, 200]
    assert [orjson.loads(r.body)["event"] for r in rx.got] == ["incoming", "incoming", "connected"]
    for r in rx.got:
        stamp = r.headers[signing.TIMESTAMP_HEADER]
        assert signing.verify("sek", stamp, r.body, r.headers[signing.SIGNATURE_HEADER], int(stamp))
        assert r.path == "/hook?c=%2B1415"
    d = _deliveries()
    assert [(x.status, x.attempts, x.status_code) for x in d] == [
        ("delivered", 2, 200),
        ("delivered", 1, 200),
    ]
    assert d[0].response == "ok" and d[0].latency_ms is not None


def test_a_day_of_failures_gives_up_and_an_hour_of_them_pauses_and_notifies() -> None:
    user = customer_id()
    campaign, _ = campaign_with_target(user)
    with webhook_receiver(answers=[503] * 50) as rx:
        hook = _hook(campaign, user, rx.url)
        intake.record([_event("9.2", WebhookEvent.INCOMING, campaign)])
        now = datetime.now(UTC)
        for _ in range(12):  # one try each time it is due, the clock moved on to that time
            _send(now)
            now = _deliveries()[0].next_attempt_at
        hook = get(Webhook, hook.id)
    assert hook.status == WebhookStatus.PAUSED and hook.failures >= sender.PAUSE_AFTER_FAILURES
    assert any("was paused" in n for n in notices(user))
    with session_scope() as s:  # a day after the event, a try that fails gives up
        d = s.scalars(select(WebhookDelivery)).one()
        d.retry_until = d.next_attempt_at
        s.get(Webhook, hook.id).status = WebhookStatus.ACTIVE.value
    with webhook_receiver(answers=[503]) as rx:
        with session_scope() as s:
            s.get(Webhook, hook.id).url = rx.url
        _send(_deliveries()[0].next_attempt_at)
    assert _deliveries()[0].status == DeliveryStatus.FAILED


def test_rating_records_converted_completed_rated_and_a_buyer_sees_no_cost() -> None:
    user = customer_id(tariff_id=tariff(("44", "0.6")))
    campaign, target = campaign_with_target(user, buffer_seconds=10, payout="5")
    buyer_id = get(Target, target).buyer_id
    _hook(campaign, user, "http://127.0.0.1:9/x")
    save(Webhook(user_id=user, buyer_id=buyer_id, url="http://127.0.0.1:9/y", events=["rated"], secret="b"))
    call_id = call(user, 30, campaign_id=campaign, target_id=target, buyer_id=buyer_id)
    with session_scope() as s:
        rating.rate_call(s, call_id)
    rows = _deliveries()
    assert [(r.event, r.webhook_id == rows[0].webhook_id) for r in rows] == [
        ("converted", True),
        ("completed", True),
        ("rated", True),
        ("rated", False),
    ]
    assert (
        rows[2].body["call"]["payout"] == "5.0000" and rows[2].body["call"]["cost"] == "0.6000"
    )  # 60/60: a minute
    assert "cost" not in rows[3].body["call"] and rows[1].body["call"]["billsec"] == 30
    assert payload.CUSTOMER_ONLY == ("cost",)


def test_an_unusable_url_or_no_receiver_is_a_failed_try_logged_not_a_stuck_queue() -> None:
    user = customer_id()
    campaign, _ = campaign_with_target(user)
    with webhook_receiver() as rx:
        closed = rx.url  # nobody listens there once the receiver is gone
    _hook(campaign, user, closed + "/{caller}")
    intake.record([_event("9.3", WebhookEvent.INCOMING, campaign)])
    assert _send().tried == 1
    (d,) = _deliveries()
    assert d.status == "pending" and d.attempts == 1 and d.status_code is None and "ConnectError" in d.error
    with session_scope() as s:
        s.scalars(select(Webhook)).one().url = "http://exa mple.com/{caller}"  # httpx refuses it
    assert _send(d.next_attempt_at).tried == 1
    (d,) = _deliveries()
    assert d.attempts == 2 and d.status_code is None and d.error


def test_a_webhook_to_an_internal_address_is_a_failed_try_that_never_connects() -> None:
    # Saved before the address was refused, or its name now resolves to an internal address: the
    # sender checks every connection. Here no network is allowed, not even the tests' loopback.
    user = customer_id()
    campaign, _ = campaign_with_target(user)
    with webhook_receiver() as rx:
        _hook(campaign, user, rx.url + "/hook")
        intake.record([_event("9.4", WebhookEvent.INCOMING, campaign)])
        with sender.client(allow=()) as client:
            assert sender.send_due(client).tried == 1
    assert rx.got == []  # never reached
    (d,) = _deliveries()
    assert (d.status, d.attempts, d.status_code) == ("pending", 1, None)  # retried, as any failed try
    assert d.error == (
        "not sent: 127.0.0.1 is a loopback address: webhooks and bids go to public addresses only"
    )
