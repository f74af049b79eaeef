"""Call webhooks' pure logic: the signature, URL templates, retry delays, the bodies."""

import hashlib
import hmac
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.calls.record import CallState, Result, Step
from core.values.enums import WebhookEvent
from core.webhooks import backoff, payload, signing, template
from pbx_bridge.hook_outbox import attempt

BODY = b'{"event":"completed","call":{"caller":"+14155550123"}}'


def test_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    expected = hmac.new(b"whsec_x", b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert signing.sign("whsec_x", 1700000000, BODY) == f"v1={expected}"


def test_verify_refuses_another_secret_a_changed_body_and_an_old_timestamp() -> None:
    now = time.time()
    stamp = int(now)
    good = signing.sign("s1", stamp, BODY)
    assert signing.verify("s1", str(stamp), BODY, good, now)
    assert not signing.verify("s2", str(stamp), BODY, good, now)
    assert not signing.verify("s1", str(stamp), BODY + b" ", good, now)
    assert not signing.verify("s1", str(stamp), BODY, good, now + 301)
    assert not signing.verify("s1", "soon", BODY, good, now)


def test_headers_carry_timestamp_signature_event_and_delivery() -> None:
    h = signing.headers("s", 1700000000, BODY, "completed", 42)
    assert h[signing.TIMESTAMP_HEADER] == "1700000000" and h[signing.DELIVERY_HEADER] == "42"
    assert h[signing.SIGNATURE_HEADER] == signing.sign("s", 1700000000, BODY)


def test_new_secrets_differ() -> None:
    assert signing.new_secret() != signing.new_secret()


def test_template_fills_tokens_url_encoded_and_unknown_ones_are_found() -> None:
    body = {"event": "rated", "call": {"caller": "+1 415", "payout": "5.0000", "converted": True}}
    url = "https://x.example/p?c={caller}&p={payout}&e={event}&v={converted}&d={duration}"
    assert template.render(url, body) == "https://x.example/p?c=%2B1%20415&p=5.0000&e=rated&v=true&d="
    assert template.unknown_tokens("https://x.example/{caller}/{calller}") == ["calller"]


def test_backoff_doubles_from_two_seconds_up_to_an_hour() -> None:
    assert [backoff.delay(n) for n in (1, 2, 3, 4)] == [2, 4, 8, 16]
    assert backoff.delay(30) == backoff.LONGEST == 3600
    waits, tries = 0.0, 0
    while waits < backoff.RETRY_FOR.total_seconds():
        tries += 1
        waits += backoff.delay(tries)
    assert 30 <= tries <= 40  # a day of tries, no more


def _state() -> CallState:
    at = datetime(2026, 3, 1, 12, tzinfo=UTC)
    return CallState(
        linkedid="1.1", did="+442071838750", caller="+447700900123", started_at=at, campaign_id=7
    )


def test_routed_counts_failovers_and_incoming_names_no_target() -> None:
    state = _state()
    assert attempt(state) == 1
    state.note(Step.DIAL, Result.FAILED, "busy", state.started_at)
    assert attempt(state) == 2
    incoming = payload.live(WebhookEvent.INCOMING, state, state.started_at)
    assert incoming["event"] == "incoming" and "target_id" not in incoming["call"]
    routed = payload.live(WebhookEvent.ROUTED, state, state.started_at, 2)
    assert routed["call"]["attempt"] == 2 and routed["call"]["campaign_id"] == 7


def test_buyer_bodies_lose_the_customer_cost() -> None:
    body = {"event": "rated", "occurred_at": None, "call": {"cost": "1.0000", "payout": "5.0000"}}
    assert payload.for_buyer(body)["call"] == {"payout": "5.0000"}
    assert body["call"]["cost"] == "1.0000"  # the campaign's copy is untouched


def test_the_documented_verification_recipe_accepts_our_requests_and_refuses_forgeries() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    code = doc.split("```python\n", 1)[1].split("```", 1)[0]
    recipe: dict[str, Any] = {}
    exec(code, recipe)  # the snippet a receiver copies, run as written
    sent = signing.headers("whsec_doc", int(time.time()), BODY, "completed", 1)
    assert recipe["verify"]("whsec_doc", sent, BODY)
    assert not recipe["verify"]("whsec_other", sent, BODY)
    assert not recipe["verify"]("whsec_doc", sent, BODY.replace(b"0123", b"0999"))
