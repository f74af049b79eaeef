"""The JSON body of each call event (docs/webhooks.md, "Bodies"): `event`, `occurred_at` and the
`call` as it stands at that event. The bridge's events are built from the call's live state, the
rating's from the final row. A buyer's webhook never gets the customer's cost."""

from datetime import datetime
from typing import Any

from core.calls import CallState
from core.enums import WebhookEvent
from core.models import Call
from core.money import format_money

Body = dict[str, Any]
CUSTOMER_ONLY = ("cost",)  # fields a buyer's webhook does not get


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def live(event: WebhookEvent, state: CallState, at: datetime, attempt: int = 0) -> Body:
    """`incoming`, `routed` or `connected`, from the call as the bridge holds it now."""
    call: Body = {
        "linkedid": state.linkedid,
        "caller": state.caller,
        "did": state.did,
        "campaign_id": state.campaign_id,
        "started_at": _iso(state.started_at),
    }
    if event is not WebhookEvent.INCOMING:
        call |= {
            "buyer_id": state.buyer_id,
            "target_id": state.target_id,
            "target_name": state.target_name,
            "destination": state.destination,
        }
    if event is WebhookEvent.ROUTED:
        call["attempt"] = attempt
    if event is WebhookEvent.CONNECTED:
        call["connected_at"] = _iso(state.connected_at)
    return {"event": event.value, "occurred_at": at.isoformat(), "call": call}


def final(event: WebhookEvent, row: Call) -> Body:
    """`converted`, `completed` or `rated`, from the call's final (rated) row."""
    call: Body = {
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
        call |= {
            "converted": row.converted,
            "payout": format_money(row.payout),
            "cost": None if row.cost is None else format_money(row.cost),
            "rating_status": row.rating_status,
        }
    at = row.ended_at if event is WebhookEvent.COMPLETED else row.rated_at
    return {"event": event.value, "occurred_at": _iso(at), "call": call}


def for_buyer(body: Body) -> Body:
    """The body without what only the customer may see."""
    call = {k: v for k, v in body["call"].items() if k not in CUSTOMER_ONLY}
    return {**body, "call": call}
