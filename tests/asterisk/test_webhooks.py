"""Call webhooks on a real call: sipp as carrier and target, Asterisk, the bridge, a real Celery
worker, and a receiver on loopback that answers its first request with a 500."""

import os
import signal
from pathlib import Path

import orjson
import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.models import User, Webhook, WebhookDelivery
from core.values.enums import WebhookEvent
from core.webhooks import signing
from testkit.asterisk import AsteriskUnderTest, calls, seed_plan
from testkit.processes import start_worker
from testkit.rows import CALLER, change, save, tariff
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually_async
from testkit.webhook_receiver import webhook_receiver

pytestmark = pytest.mark.asterisk
# Every event a plain call has: `attributed` needs a website visit (test_website_numbers.py) and
# `transcribed` a recording with speech (test_conversation.py); the webhook listens for all events.
ALL = [e.value for e in WebhookEvent]
EVERY = [e for e in ALL if e not in (WebhookEvent.ATTRIBUTED, WebhookEvent.TRANSCRIBED)]


async def test_every_event_of_a_call_reaches_the_receiver_once_signed_in_order_after_a_500(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        with webhook_receiver(answers=[500]) as rx, sipp_target(sipp_binary, "answer", tmp_path) as target:
            plan = seed_plan([target.port], pushed_to=asterisk, buffer_seconds=1)
            change(User, plan.user_id, tariff_id=tariff(("1", "0.6"), increments=(1, 1)))
            hook = save(
                Webhook(
                    user_id=plan.user_id,
                    campaign_id=plan.campaign_id,
                    url=rx.url + "/calls?from={caller}&event={event}",
                    events=ALL,
                    secret="whsec_test",
                )
            )
            log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=2500)
            assert "final=SIP/2.0 200" in log, log
            (row,) = calls()

            def all_delivered() -> int:
                got = [r.answered for r in rx.got]
                assert got.count(200) == len(EVERY), (got, (tmp_path / "worker.log").read_text()[-3000:])
                return len(got)

            await eventually_async(all_delivered, timeout=60, interval=0.2)
            received = list(rx.got)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)
    bodies = [orjson.loads(r.body) for r in received]
    # The 500 was retried, and the call's later events waited for it: in order, each once.
    assert [(b["event"], r.answered) for b, r in zip(bodies, received, strict=True)] == [
        ("incoming", 500),
        *[(e, 200) for e in EVERY],
    ]
    ids = [r.headers[signing.DELIVERY_HEADER] for r in received]
    assert ids[0] == ids[1] and len(set(ids)) == len(EVERY)
    for r, b in zip(received, bodies, strict=True):
        stamp = r.headers[signing.TIMESTAMP_HEADER]
        assert signing.verify("whsec_test", stamp, r.body, r.headers[signing.SIGNATURE_HEADER], int(stamp))
        assert r.path == f"/calls?from=%2B{CALLER.lstrip('+')}&event={b['event']}"
        assert b["call"]["linkedid"] == row.linkedid
    by_event = {b["event"]: b["call"] for b in bodies}
    assert by_event["routed"]["target_id"] == plan.targets[0] and by_event["routed"]["attempt"] == 1
    assert (
        by_event["completed"]["billsec"] == row.billsec and by_event["completed"]["disposition"] == "ANSWERED"
    )
    assert by_event["rated"]["converted"] is True and by_event["rated"]["cost"] is not None
    with session_scope() as s:
        log_rows = s.exec(select(WebhookDelivery).order_by(WebhookDelivery.id)).all()
        assert [(d.event, d.status, d.attempts) for d in log_rows] == [
            (e, "delivered", 2 if e == "incoming" else 1) for e in EVERY
        ]
        assert all(d.webhook_id == hook.id and d.latency_ms is not None for d in log_rows)
