"""The `attributed` event: a converted call with an attribution told as a Meta-style server event,
recorded by rating and sent by the real sender to a receiver on loopback; a buyer never gets it."""

import hashlib
from datetime import datetime
from decimal import Decimal

import orjson
from sqlmodel import select

from core.billing import rating
from core.infra.db import session_scope
from core.models import Call, CallAttribution, Target, Tariff, User, Webhook, WebhookDelivery
from core.values.enums import WebhookEvent
from core.values.money import in_minor_unit, minor_unit
from core.webhooks import sender, server_event, signing
from testkit.rows import MAR, call, campaign_with_target, change, customer_id, get, save, tariff
from testkit.webhook_receiver import webhook_receiver

# sha256("447700900123"), computed apart from the code (coreutils' sha256sum).
CALLER_SHA256 = "033134b911b137918338415ee3d20a064b24773d36a3b02e8b99fdd3fcd6b4cd"
FBCLID = "IwAR2F4-dbP0l7Mn1IawQQ"  # case-sensitive: sent exactly as the visit carried it
LANDED = "2026-03-10T11:58:00+00:00"  # 1773143880 s since 1970


def _attribute(call_id: int, user_id: int, kind: str, click_id: str) -> None:
    save(
        CallAttribution(
            call_id=call_id,
            call_started_at=MAR,
            user_id=user_id,
            status="matched",
            source="facebook",
            medium="paid_social",
            campaign="spring",
            keyword="roof repair",
            landing_page="https://roofs.example/offer?fbclid=" + click_id,
            click_id=click_id,
            click_id_kind=kind,
            pages=[{"url": "https://roofs.example/offer", "at": LANDED}, {"url": "/call", "at": "later"}],
        )
    )


def test_a_converted_attributed_call_is_sent_as_a_server_event_to_campaign_webhooks_only() -> None:
    user = customer_id(tariff_id=tariff(("44", "0.6")))
    campaign, target = campaign_with_target(user, buffer_seconds=10, payout="12.345")
    buyer_id = get(Target, target).buyer_id
    every = [e.value for e in WebhookEvent]
    converted = call(user, 30, campaign_id=campaign, target_id=target, buyer_id=buyer_id)
    short = call(user, 5, campaign_id=campaign, target_id=target, buyer_id=buyer_id)  # under the buffer
    unattributed = call(user, 40, campaign_id=campaign, target_id=target, buyer_id=buyer_id)
    _attribute(converted, user, "fbclid", FBCLID)
    _attribute(short, user, "gclid", "Cj0")
    with webhook_receiver() as rx:
        save(Webhook(user_id=user, campaign_id=campaign, url=rx.url + "/c", events=every, secret="sek"))
        # Saved before the API refused it: the buyer's webhook still gets no customer's traffic.
        save(Webhook(user_id=user, buyer_id=buyer_id, url=rx.url + "/b", events=every, secret="b"))
        with session_scope() as s:
            for call_id in (converted, short, unattributed):
                rating.rate_call(s, call_id)
        with sender.client() as client:
            while sender.send_due(client).tried:
                pass
    attributed = [r for r in rx.got if r.headers[signing.EVENT_HEADER] == "attributed"]
    assert [r.path for r in attributed] == ["/c"]  # one call, the campaign's webhook alone
    (sent,) = attributed
    stamp = sent.headers[signing.TIMESTAMP_HEADER]
    assert signing.verify("sek", stamp, sent.body, sent.headers[signing.SIGNATURE_HEADER], int(stamp))
    body = orjson.loads(sent.body)
    assert body["server_event"] == {
        "event_name": "Lead",
        "event_time": int(MAR.timestamp()),  # the call's start, by Asterisk's clock
        "event_id": body["call"]["linkedid"],
        "action_source": "phone_call",
        "user_data": {
            "ph": [CALLER_SHA256],
            "fbc": f"fb.1.{1773143880 * 1000}.{FBCLID}",
        },
        "custom_data": {"value": 12.35, "currency": "USD"},  # 12.345 in cents, half up
    }
    assert hashlib.sha256(b"447700900123").hexdigest() == CALLER_SHA256
    assert body["attribution"] == {
        "status": "matched",
        "source": "facebook",
        "medium": "paid_social",
        "campaign": "spring",
        "keyword": "roof repair",
        "content": None,
        "landing_page": "https://roofs.example/offer?fbclid=" + FBCLID,
        "referrer": None,
        "click_id": FBCLID,
        "click_id_kind": "fbclid",
    }
    assert body["call"]["payout"] == "12.3450" and body["call"]["converted"] is True
    assert body["call"]["caller"] == "+447700900123" and body["occurred_at"]
    # Sent after the call's other events, each once, in order.
    to_campaign = [r.headers[signing.EVENT_HEADER] for r in rx.got if r.path == "/c"]
    assert to_campaign.count("attributed") == 1
    assert to_campaign.index("attributed") > to_campaign.index("converted")
    with session_scope() as s:
        rows = s.scalars(select(WebhookDelivery).where(WebhookDelivery.event == "attributed")).all()
        assert [(r.status, r.attempts) for r in rows] == [("delivered", 1)]


def test_a_gclid_visit_has_no_fbc_and_a_withheld_caller_no_phone() -> None:
    user = customer_id(tariff_id=save(Tariff(name="Yen", currency="JPY")).id)
    campaign, target = campaign_with_target(user, buffer_seconds=10, payout="1234.5")
    change(User, user, timezone="Asia/Tokyo")
    call_id = call(user, 30, campaign_id=campaign, target_id=target)
    change(Call, call_id, caller="anonymous")  # withheld
    _attribute(call_id, user, "gclid", "Cj0KCQ")
    url = "http://127.0.0.1:9/x"
    save(Webhook(user_id=user, campaign_id=campaign, url=url, events=["attributed"], secret="s"))
    with session_scope() as s:
        rating.rate_call(s, call_id)
        (delivery,) = s.scalars(select(WebhookDelivery)).all()
    event = delivery.body["server_event"]
    assert event["user_data"] == {}
    assert event["custom_data"] == {"value": 1235, "currency": "JPY"}  # yen have no minor unit


def test_meta_phone_rule_and_currency_minor_units() -> None:
    # Digits with the country code, no '+', no punctuation; anything not a number is not hashed.
    assert server_event.hashed_phone("+447700900123") == CALLER_SHA256
    assert server_event.hashed_phone("447700900123") == CALLER_SHA256  # carriers drop the '+'
    assert server_event.hashed_phone("anonymous") is None and server_event.hashed_phone("") is None
    assert server_event.fbc("AbC", datetime.fromisoformat(LANDED)) == "fb.1.1773143880000.AbC"
    assert [minor_unit(c) for c in ("USD", "eur", "JPY", "KWD", "CLF", "XYZ")] == [2, 2, 0, 3, 4, 2]
    assert in_minor_unit(Decimal("5.0050"), "USD") == Decimal("5.01")
    assert in_minor_unit(Decimal("5.0049"), "EUR") == Decimal("5.00")
    assert in_minor_unit(Decimal("1.0005"), "KWD") == Decimal("1.001")
    assert in_minor_unit(Decimal("1234.5"), "JPY") == Decimal("1235")
