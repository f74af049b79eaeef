"""Call events turned into deliveries: one row per event per active webhook that wants it, in the
transaction of whoever knew the fact (the bridge's own, or the rating's), so an event is recorded
exactly once with what caused it. Once committed, the workers' sender is woken (`names.WEBHOOK_SEND`).

Order per call holds by construction: the bridge records a call's events before its final row is
handed to rating (pbx_bridge.hook_outbox), and rating records the last three; the sender sends a
call's deliveries to one webhook in the order of their ids (core.webhooks.sender).
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ARRAY, BigInteger, any_, cast, or_, select, text
from sqlalchemy import event as sa_event
from sqlmodel import Session, col

from core.infra import jobs, names
from core.infra.db import json_text, session_scope
from core.models import Call, Webhook
from core.values.enums import DeliveryStatus, RatingStatus, WebhookEvent, WebhookStatus
from core.webhooks import payload, server_event
from core.webhooks.backoff import RETRY_FOR

log = logging.getLogger(__name__)
_WAKING = "webhooks_wake"  # session.info: the sender is woken at this transaction's commit


@dataclass(frozen=True)
class Event:
    """One event of one call, as whoever saw it happen describes it."""

    linkedid: str
    kind: WebhookEvent
    campaign_id: int | None
    buyer_id: int | None
    body: payload.Body | server_event.AttributedBody
    seq: int = 0  # `routed`: which target rings (1 the first)


# In the events' order (the sender sends a call's deliveries in the order of their ids); an event
# already recorded for a webhook is skipped. The rows come as one JSON array: one parameter, whose
# text orjson writes at once (an array of bodies is escaped element by element, slowly).
_DELIVER = text("""
INSERT INTO webhook_delivery (webhook_id, linkedid, event, seq, body, status, attempts, next_attempt_at,
                              retry_until, created_at)
SELECT CAST(r.row ->> 'webhook_id' AS int), r.row ->> 'linkedid', r.row ->> 'event',
       CAST(r.row ->> 'seq' AS int), r.row -> 'body', :status, 0, :now, :until, :now
FROM jsonb_array_elements(CAST(:rows AS jsonb)) WITH ORDINALITY AS r(row, n)
ORDER BY r.n
ON CONFLICT ON CONSTRAINT uq_webhook_delivery_event DO NOTHING
""")


def _wants(hook: Webhook, event: Event) -> bool:
    if event.kind.value not in hook.events:
        return False
    if event.kind in server_event.CAMPAIGN_ONLY:
        return hook.campaign_id is not None and hook.campaign_id == event.campaign_id
    if hook.campaign_id is not None:
        return hook.campaign_id == event.campaign_id
    return hook.buyer_id is not None and hook.buyer_id == event.buyer_id


def _body_for(
    hook: Webhook, body: payload.Body | server_event.AttributedBody
) -> payload.Body | server_event.AttributedBody:
    """The body as `hook` gets it: a buyer's without the customer's cost (`attributed` bodies never
    reach a buyer's webhook: `_wants`)."""
    if hook.campaign_id is not None or "server_event" in body:
        return body
    return payload.for_buyer(body)


def add(session: Session, events: list[Event], now: datetime | None = None) -> int:
    """Deliveries for `events` in `session`'s transaction (an event already recorded is skipped);
    how many were added. The sender is woken once the transaction commits."""
    campaigns = {e.campaign_id for e in events if e.campaign_id is not None}
    buyers = {e.buyer_id for e in events if e.buyer_id is not None}
    if not campaigns and not buyers:
        return 0
    stmt = select(Webhook).where(
        Webhook.status == WebhookStatus.ACTIVE.value,
        or_(col(Webhook.campaign_id).in_(campaigns), col(Webhook.buyer_id).in_(buyers)),
    )
    hooks = list(session.scalars(stmt))
    now = now or datetime.now(UTC)
    rows = [
        {
            "webhook_id": hook.id,
            "linkedid": event.linkedid,
            "event": event.kind.value,
            "seq": event.seq,
            "body": _body_for(hook, event.body),
        }
        for event in events
        for hook in hooks
        if _wants(hook, event)
    ]
    if not rows:
        return 0
    session.execute(
        _DELIVER,
        {
            "rows": json_text(rows),
            "status": DeliveryStatus.PENDING.value,
            "now": now,
            "until": now + RETRY_FOR,
        },
    )
    wake_after_commit(session)
    return len(rows)


def wake_after_commit(session: Session) -> None:
    """Queue the sender once `session` commits (never before: it would not see the rows); once
    per transaction, however many events it added."""
    if session.info.get(_WAKING):
        return
    session.info[_WAKING] = True

    def wake(_: Session) -> None:
        session.info.pop(_WAKING, None)
        try:
            jobs.enqueue(names.WEBHOOK_SEND)
        except Exception:  # the broker away: the periodic sweep sends them
            log.exception("could not wake the webhook sender; the periodic sweep will send")

    sa_event.listen(session, "after_commit", wake, once=True)


def record(events: list[Event]) -> int:
    """`add` in a transaction of its own (the bridge's events)."""
    with session_scope() as session:
        return add(session, events)


def final_events(row: Call) -> list[Event]:
    """What rating a call tells: converted (when it was), completed, and rated (once priced)."""
    kinds = [WebhookEvent.CONVERTED] if row.converted else []
    kinds.append(WebhookEvent.COMPLETED)
    if row.rating_status == RatingStatus.RATED.value:
        kinds.append(WebhookEvent.RATED)
    return [Event(row.linkedid, k, row.campaign_id, row.buyer_id, payload.final(k, row)) for k in kinds]


def rated(session: Session, call_ids: Iterable[int]) -> int:
    """The final events of calls just rated, in the rating's transaction: only calls some active
    webhook listens to are read, and none when no webhook is active."""
    ids = list(call_ids)
    if not ids:
        return 0
    # The listeners first (a small table): a rating batch nobody listens to reads no call row again.
    owners = session.execute(
        select(Webhook.campaign_id, Webhook.buyer_id)
        .where(Webhook.status == WebhookStatus.ACTIVE.value)
        .distinct()
    ).all()
    campaigns = {c for c, _ in owners if c is not None}
    buyers = {b for _, b in owners if b is not None}
    if not campaigns and not buyers:
        return 0
    listened = or_(col(Call.campaign_id).in_(campaigns), col(Call.buyer_id).in_(buyers))
    stmt = select(Call).where(Call.id == any_(cast(ids, ARRAY(BigInteger))), listened)
    rows = list(session.scalars(stmt.execution_options(populate_existing=True)))
    events = [e for row in rows for e in final_events(row)]
    # After each call's other events (a call's deliveries go out in the order of their ids).
    events += [
        Event(row.linkedid, WebhookEvent.ATTRIBUTED, row.campaign_id, row.buyer_id, body)
        for row, body in server_event.bodies(session, rows)
    ]
    return add(session, events)
