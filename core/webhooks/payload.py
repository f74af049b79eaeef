"""The JSON body of each call event (docs/webhooks.md, "Bodies"): `event`, `occurred_at` and the
`call` as it stands at that event. The bridge's events are built from the call's live state, the
rating's from the final row. A buyer's webhook never gets the customer's cost."""

from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from core.calls.record import CallState
from core.models import Call
from core.values.enums import WebhookEvent
from core.values.money import format_money


class CallAtEvent(TypedDict):
    """The call in a body, as it stands at the event: which fields depends on the event (the
    bridge's events tell what it knows then; rating's, the final row)."""

    linkedid: str
    caller: str
    did: str
    campaign_id: int | None
    started_at: str | None
    # routed, connected, and rating's
    buyer_id: NotRequired[int | None]
    target_id: NotRequired[int | None]
    target_name: NotRequired[str | None]
    destination: NotRequired[str | None]
    attempt: NotRequired[int]  # routed: which target rings (1 the first)
    connected_at: NotRequired[str | None]
    # rating's: the final row
    answered_at: NotRequired[str | None]
    ended_at: NotRequired[str | None]
    disposition: NotRequired[str]
    duration: NotRequired[int]
    billsec: NotRequired[int]
    talk_seconds: NotRequired[int]
    hangup_by: NotRequired[str | None]
    hangup_cause: NotRequired[int | None]
    sip_status: NotRequired[int | None]
    recorded: NotRequired[bool]
    converted: NotRequired[bool]
    payout: NotRequired[str]
    cost: NotRequired[str | None]  # the customer's only (CUSTOMER_ONLY)
    rating_status: NotRequired[str]


class MatchAtEvent(TypedDict):
    """A keyword rule a call matched: the words said, by which side, when (seconds into the call)."""

    rule_id: int
    rule: str
    effect: str
    leg: str
    words: str
    start: float
    end: float


class Conversation(TypedDict):
    """`transcribed`: what the campaign's keyword rules made of the call (docs/conversation.md)."""

    tags: list[str]
    score: int
    matches: list[MatchAtEvent]


class Body(TypedDict):
    """What a webhook is sent for one call event (stored with its delivery)."""

    event: str
    occurred_at: str | None
    call: CallAtEvent
    conversation: NotRequired[Conversation]  # `transcribed` only


CUSTOMER_ONLY: tuple[Literal["cost"], ...] = ("cost",)  # fields a buyer's webhook does not get


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def live(event: WebhookEvent, state: CallState, at: datetime, attempt: int = 0) -> Body:
    """`incoming`, `routed` or `connected`, from the call as the bridge holds it now."""
    call: CallAtEvent = {
        "linkedid": state.linkedid,
        "caller": state.caller,
        "did": state.did,
        "campaign_id": state.campaign_id,
        "started_at": _iso(state.started_at),
    }
    if event is not WebhookEvent.INCOMING:
        call["buyer_id"], call["target_id"] = state.buyer_id, state.target_id
        call["target_name"], call["destination"] = state.target_name, state.destination
    if event is WebhookEvent.ROUTED:
        call["attempt"] = attempt
    if event is WebhookEvent.CONNECTED:
        call["connected_at"] = _iso(state.connected_at)
    return {"event": event.value, "occurred_at": at.isoformat(), "call": call}


def final(event: WebhookEvent, row: Call) -> Body:
    """`converted`, `completed` or `rated`, from the call's final (rated) row."""
    call: CallAtEvent = {
        "linkedid": row.linkedid,
        "caller": row.caller,
        "did": row.did,
        "campaign_id": row.campaign_id,
        "buyer_id": row.buyer_id,
        "target_id": row.target_id,
        "destination": row.destination,
        "started_at": _iso(row.started_at),
        "answered_at": _iso(row.answered_at),
        "connected_at": _iso(row.connected_at),
        "ended_at": _iso(row.ended_at),
        "disposition": row.disposition,
        "duration": row.duration,
        "billsec": row.billsec,
        "talk_seconds": row.talk_seconds,
        "hangup_by": row.hangup_by,
        "hangup_cause": row.hangup_cause,
        "sip_status": row.sip_status,
        "recorded": row.recording is not None,
    }
    if event is not WebhookEvent.COMPLETED:
        call["converted"], call["payout"] = row.converted, format_money(row.payout)
        call["cost"] = None if row.cost is None else format_money(row.cost)
        call["rating_status"] = row.rating_status
    at = row.ended_at if event is WebhookEvent.COMPLETED else row.rated_at
    return {"event": event.value, "occurred_at": _iso(at), "call": call}


def transcribed(row: Call, conversation: Conversation, at: datetime) -> Body:
    """`transcribed`: the call's final row (its conversion and payout as the rules left them), its
    tags and the rules it matched."""
    body = final(WebhookEvent.TRANSCRIBED, row)
    return {**body, "occurred_at": at.isoformat(), "conversation": conversation}


def for_buyer(body: Body) -> Body:
    """The body without what only the customer may see."""
    call = body["call"].copy()
    for field in CUSTOMER_ONLY:
        call.pop(field, None)
    return {**body, "call": call}
