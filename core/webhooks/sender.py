"""Sending deliveries, in the workers (docs/webhooks.md, "Retries" and "Pausing").

The next due delivery whose call has no earlier delivery to the same webhook still pending is
locked (`FOR UPDATE SKIP LOCKED`: several senders never take the same one, nor two of one call's),
posted, and its outcome logged in the same transaction. A failed try is retried after
`backoff.delay`, for a day; a webhook whose every try has failed for an hour is paused and its
owner notified. Delivered at least once: a worker killed after the POST and before the commit
posts again, with the same `X-Callroute-Delivery` id.
"""

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import orjson
from sqlalchemy import text
from sqlmodel import Session

from core.infra.db import session_scope
from core.infra.outbound import Blocked, GuardedTransport
from core.infra.settings import Network
from core.models import Buyer, Webhook, WebhookDelivery
from core.notices import bell as notices
from core.values.enums import DeliveryStatus, WebhookStatus
from core.webhooks import backoff, signing, template

TIMEOUT = httpx.Timeout(10.0, connect=5.0)  # a receiver's answer may take this long
SNIPPET = 500  # characters of the answer kept in the log
PAUSE_AFTER_FAILURES = 10  # failed tries in a row ...
PAUSE_AFTER = timedelta(hours=1)  # ... over at least this long pause the webhook

Clock = Callable[[], datetime]

_NEXT = text("""
SELECT d.id FROM webhook_delivery d JOIN webhook w ON w.id = d.webhook_id
WHERE d.status = 'pending' AND d.next_attempt_at <= :now AND w.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM webhook_delivery e
                  WHERE e.webhook_id = d.webhook_id AND e.linkedid = d.linkedid
                    AND e.status = 'pending' AND e.id < d.id)
ORDER BY d.next_attempt_at, d.id
LIMIT 1
FOR UPDATE OF d SKIP LOCKED
""")


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Answer:
    """How one POST went."""

    status_code: int | None
    latency_ms: int
    response: str | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclass
class Round:
    """What one `send_due` did: deliveries tried, the soonest retry it scheduled (s), and whether
    due work was left when its time ran out."""

    tried: int = 0
    retry_in: float | None = None
    more: bool = False


def _clean(text: str, limit: int) -> str:
    """Storable text: PostgreSQL refuses NUL characters in a string."""
    return text.replace("\x00", "")[:limit]


def client(allow: Iterable[Network] | None = None) -> httpx.Client:
    """The client deliveries are sent with: it connects only where customers' URLs may go
    (core.infra.outbound; `allow`: OUTBOUND_ALLOW_NETWORKS unless given), follows no redirect, and takes
    no proxy from the environment (one would connect in the guard's place)."""
    return httpx.Client(timeout=TIMEOUT, transport=GuardedTransport(allow), trust_env=False)


def post(client: httpx.Client, url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST `body`; only the start of the answer is read (a receiver may answer with anything)."""
    started = time.perf_counter()
    try:
        with client.stream("POST", url, content=body, headers=headers) as response:
            latency = round((time.perf_counter() - started) * 1000)
            head = b""
            for chunk in response.iter_bytes():
                head += chunk
                if len(head) >= SNIPPET * 4:
                    break
    except Blocked as exc:  # never connected: the address is an internal one
        latency = round((time.perf_counter() - started) * 1000)
        return Answer(None, latency, None, _clean(f"not sent: {exc}", 300))
    # Whatever stops a try (a timeout, a refused connection, a URL its tokens made unusable) is a
    # failed try, logged; raised, it would stop every delivery behind this one.
    except Exception as exc:
        latency = round((time.perf_counter() - started) * 1000)
        return Answer(None, latency, None, _clean(f"{type(exc).__name__}: {exc}", 300))
    text = head.decode(response.encoding or "utf-8", errors="replace")
    error = None if response.is_success else f"HTTP {response.status_code}"
    return Answer(response.status_code, latency, _clean(text, SNIPPET), error)


def send_due(client: httpx.Client, budget: float = 60.0, now: Clock = _now) -> Round:
    """Send due deliveries one by one until none is due or `budget` seconds have passed."""
    done = Round()
    deadline = time.monotonic() + budget
    while True:
        if time.monotonic() > deadline:
            done.more = True
            return done
        with session_scope() as session:
            found = session.scalar(_NEXT, {"now": now()})
            if found is None:
                return done
            retry = _send(session, client, found, now)
        done.tried += 1
        if retry is not None:
            done.retry_in = retry if done.retry_in is None else min(done.retry_in, retry)


def _send(session: Session, client: httpx.Client, delivery_id: int, now: Clock) -> float | None:
    """Send one locked delivery and log how it went; seconds until its retry when it failed."""
    delivery = session.get(WebhookDelivery, delivery_id)
    hook = session.get(Webhook, delivery.webhook_id) if delivery else None
    assert delivery is not None and hook is not None  # locked by _NEXT, the webhook by its foreign key
    if now() > delivery.retry_until:  # waited out a day unsent (its webhook was paused)
        delivery.status, delivery.error = DeliveryStatus.FAILED.value, "not sent within a day"
        session.add(delivery)
        return None
    body = orjson.dumps(delivery.body)
    url = template.render(hook.url, delivery.body)
    stamp = int(now().timestamp())
    headers = signing.headers(hook.secret, stamp, body, delivery.event, delivery_id)
    answer = post(client, url, body, headers)
    at = now()
    delivery.url, delivery.attempts, delivery.last_attempt_at = url[:2000], delivery.attempts + 1, at
    delivery.status_code, delivery.latency_ms = answer.status_code, answer.latency_ms
    delivery.response, delivery.error = answer.response, answer.error
    session.add(delivery)
    session.execute(text("SELECT 1 FROM webhook WHERE id = :id FOR UPDATE"), {"id": hook.id})
    session.refresh(hook)
    retry = None
    if answer.ok:
        delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED.value, at
        hook.failures, hook.failing_since = 0, None
    else:
        wait = backoff.delay(delivery.attempts)
        if at + timedelta(seconds=wait) > delivery.retry_until:
            delivery.status = DeliveryStatus.FAILED.value  # given up: a day of tries
        else:
            delivery.next_attempt_at, retry = at + timedelta(seconds=wait), wait
        _failed(session, hook, at)
    session.add(hook)
    return retry


def _failed(session: Session, hook: Webhook, at: datetime) -> None:
    """Count a failed try; pause a webhook failing for PAUSE_AFTER and tell its owner."""
    hook.failures += 1
    hook.failing_since = hook.failing_since or at
    if hook.failures < PAUSE_AFTER_FAILURES or at - hook.failing_since < PAUSE_AFTER:
        return
    hook.status = WebhookStatus.PAUSED.value
    hook.paused_reason = (
        f"paused after {hook.failures} failed tries since {hook.failing_since:%Y-%m-%d %H:%M} UTC"
    )
    owners = [hook.user_id]
    if hook.buyer_id is not None and (buyer := session.get(Buyer, hook.buyer_id)) and buyer.login_user_id:
        owners.append(buyer.login_user_id)
    notices.notify(
        session,
        owners,
        f"Webhook {hook.url[:200]} was paused: every try to send it call events has failed for an "
        f"hour ({hook.failures} tries). Fix the receiver, then resume it: the events already queued "
        "are sent then.",
        f"webhook_paused:{hook.id}:{hook.failing_since.isoformat()}",
        kind="webhook",
    )
