"""The `attributed` event (docs/conversions.md): a converted call that has an attribution, told as a
Meta-style server event (the Conversions API's `event_name`, `event_time`, `user_data` with the
caller's phone hashed, `custom_data` with value and currency) beside the call and where it came from,
so a receiver can forward `server_event` to Meta as it is and read the rest for its own books.

Recorded by rating with `converted` (in its transaction, core.webhooks.intake.rated), for campaign
webhooks only: a buyer sees nothing of the customer's traffic (CAMPAIGN_ONLY)."""

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal, NotRequired, TypedDict

from sqlalchemy import select
from sqlmodel import Session, col

from core.models import Call, CallAttribution, Tariff, User
from core.values.enums import ClickIdKind, WebhookEvent
from core.values.money import format_money, in_minor_unit
from core.values.phone import to_e164

EVENT_NAME = "Lead"  # Meta's standard event for a prospect who got in touch
ACTION_SOURCE: Literal["phone_call"] = "phone_call"  # Meta's action_source for a call
DEFAULT_CURRENCY = "USD"  # a customer without a tariff is billed in it (invoices do the same)
CAMPAIGN_ONLY = frozenset({WebhookEvent.ATTRIBUTED})  # events a buyer's webhook never gets


class UserData(TypedDict):
    """Meta's customer information parameters: what matches the event to a person."""

    ph: NotRequired[list[str]]  # the caller's phone, hashed (hashed_phone): absent when withheld
    fbc: NotRequired[str]  # the visit's fbclid as Meta's click id cookie: fb.1.<ms>.<fbclid>


class CustomData(TypedDict):
    value: float  # the buyer's payout in the currency's minor unit (Meta reads a number)
    currency: str  # ISO 4217


class ServerEvent(TypedDict):
    """One event of Meta's Conversions API (`data[]` of a POST to /<pixel>/events)."""

    event_name: str
    event_time: int  # unix seconds: the call's start, by Asterisk's clock
    event_id: str  # the call's linkedid: Meta drops a second event with the same id
    action_source: Literal["phone_call"]
    user_data: UserData
    custom_data: CustomData


class Visit(TypedDict):
    """Where the call came from (the call's attribution, docs/attribution.md)."""

    status: str  # matched | ambiguous | static
    source: str
    medium: str | None
    campaign: str | None  # utm_campaign
    keyword: str | None  # utm_term
    content: str | None  # utm_content
    landing_page: str | None
    referrer: str | None
    click_id: str | None
    click_id_kind: str | None  # gclid | gbraid | wbraid | fbclid | msclkid


class ConvertedCall(TypedDict):
    linkedid: str
    caller: str
    did: str
    campaign_id: int | None
    buyer_id: int | None
    target_id: int | None
    started_at: str
    converted: bool
    payout: str  # 4 places, as every event's


class AttributedBody(TypedDict):
    event: str
    occurred_at: str | None
    call: ConvertedCall
    attribution: Visit
    server_event: ServerEvent


def hashed_phone(caller: str) -> str | None:
    """Meta's rule for `ph`: the number's digits with its country code (no '+', no leading zeros,
    no punctuation), SHA-256, lowercase hex. None when the caller is no phone number (withheld)."""
    try:
        e164 = to_e164(caller, require_valid=False)
    except ValueError:
        return None
    return hashlib.sha256(e164.removeprefix("+").encode()).hexdigest()


def fbc(fbclid: str, clicked_at: datetime) -> str:
    """Meta's click id parameter from a landing page's fbclid: `fb.1.<creation time in ms>.<fbclid>`
    (subdomain index 1: the site's own domain), the fbclid unchanged (it is case-sensitive)."""
    return f"fb.1.{int(clicked_at.timestamp() * 1000)}.{fbclid}"


def _clicked_at(visit: CallAttribution) -> datetime:
    """When the visitor landed (the first page's time), else the call's start."""
    first = visit.pages[0] if visit.pages else None
    at = first.get("at") if isinstance(first, dict) else None
    try:
        landed = datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        landed = None
    if landed is None:
        return visit.call_started_at
    return landed if landed.tzinfo else landed.replace(tzinfo=UTC)


def body(row: Call, visit: CallAttribution, currency: str) -> AttributedBody:
    """The `attributed` event of a converted call `row` and its attribution `visit`."""
    user_data: UserData = {}
    if (phone := hashed_phone(row.caller)) is not None:
        user_data["ph"] = [phone]
    if visit.click_id and visit.click_id_kind == ClickIdKind.FBCLID:
        user_data["fbc"] = fbc(visit.click_id, _clicked_at(visit))
    return {
        "event": WebhookEvent.ATTRIBUTED.value,
        "occurred_at": row.rated_at.isoformat() if row.rated_at else None,
        "call": {
            "linkedid": row.linkedid,
            "caller": row.caller,
            "did": row.did,
            "campaign_id": row.campaign_id,
            "buyer_id": row.buyer_id,
            "target_id": row.target_id,
            "started_at": row.started_at.isoformat(),
            "converted": row.converted,
            "payout": format_money(row.payout),
        },
        "attribution": {
            "status": visit.status,
            "source": visit.source,
            "medium": visit.medium,
            "campaign": visit.campaign,
            "keyword": visit.keyword,
            "content": visit.content,
            "landing_page": visit.landing_page,
            "referrer": visit.referrer,
            "click_id": visit.click_id,
            "click_id_kind": visit.click_id_kind,
        },
        "server_event": {
            "event_name": EVENT_NAME,
            "event_time": int(row.started_at.timestamp()),
            "event_id": row.linkedid,
            "action_source": ACTION_SOURCE,
            "user_data": user_data,
            # A float holds any amount of 2 or 3 decimals up to 10^12 exactly as written.
            "custom_data": {"value": float(in_minor_unit(row.payout, currency)), "currency": currency},
        },
    }


def bodies(session: Session, rows: Sequence[Call]) -> list[tuple[Call, AttributedBody]]:
    """The `attributed` events of `rows` (calls just rated): those converted with an attribution."""
    converted = {row.id: row for row in rows if row.converted and row.id is not None}
    if not converted:
        return []
    visits = session.scalars(select(CallAttribution).where(col(CallAttribution.call_id).in_(converted)))
    found = {v.call_id: v for v in visits}
    if not found:
        return []
    owners = {converted[i].user_id for i in found} - {None}
    priced = select(User.id, Tariff.currency).join(Tariff, col(Tariff.id) == User.tariff_id)
    currencies = {uid: code for uid, code in session.execute(priced.where(col(User.id).in_(owners))).all()}
    return [
        (row, body(row, found[i], currencies.get(row.user_id or 0, DEFAULT_CURRENCY)))
        for i, row in converted.items()
        if i in found
    ]
