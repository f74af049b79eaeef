"""Real-time bidding on the wire (docs/bidding.md): a bidder's settings, what its ping and post say,
and what its answer means.

A ping tells the buyer where the caller is (country, region and line type, core.calls.caller_origin)
and which campaign the call is for, never the caller's number: only the winner's post carries it.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

# pydantic (the API answers these) reads a TypedDict from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from core.calls.caller_origin import UNKNOWN, caller_origin
from core.models import Target
from core.values.money import MAX_PAYOUT, format_money, money_text, round_money, to_money
from core.values.phone import to_e164

DEFAULT_DEADLINE_MS = 300
PING: Literal["ping"] = "ping"
POST: Literal["post"] = "post"


@dataclass(frozen=True)
class Bidder:
    """A target's bidding settings: asked for a bid at `ping_url`, told it won at `post_url` (the
    ping URL with phase "post" when it has none), answering within `deadline_ms`."""

    ping_url: str
    post_url: str | None = None
    deadline_ms: int = DEFAULT_DEADLINE_MS
    min_bid: Decimal | None = None

    @classmethod
    def of(cls, target: Target) -> "Bidder | None":
        if not target.ping_url:
            return None
        return cls(target.ping_url, target.post_url or None, target.bid_deadline_ms, target.min_bid)

    @property
    def post_to(self) -> str:
        return self.post_url or self.ping_url


@dataclass(frozen=True)
class CallFacts:
    """What a bidder may learn of the call: everything but the caller's number goes in the ping."""

    call_id: str  # the call's linkedid (a dry run's own id): the post names the call the ping did
    campaign_id: int
    campaign_name: str
    caller: str  # E.164 when it parses; sent in the post only
    test: bool = False  # a dry run: the buyer may answer as it would, nothing is dialled


class CallerArea(TypedDict):
    """Where the caller is, as a ping tells it (nulls for what the number does not tell)."""

    country: str | None
    region: str | None
    line_type: str | None


class CallerWithNumber(CallerArea):
    number: str


class CampaignRef(TypedDict):
    id: int
    name: str


class CallBody(TypedDict):
    """What the ping and the post both tell: which call, target and campaign."""

    test: bool
    call_id: str
    target_id: int
    campaign: CampaignRef


class PingBody(CallBody):
    """The JSON a bidder is pinged with (docs/bidding.md)."""

    phase: Literal["ping"]
    caller: CallerArea
    deadline_ms: int


class PostBody(CallBody):
    """The JSON the winner is posted (docs/bidding.md): the ping's facts, the bid, the number."""

    phase: Literal["post"]
    caller: CallerWithNumber
    bid: str


def caller_area(caller: str) -> CallerArea:
    """The caller's country (ISO alpha-2), region and line type as routing reads them
    (core.calls.caller_origin, docs/regions.md), nulls for what the number does not tell."""
    origin = caller_origin(caller)

    def known(value: str) -> str | None:
        return None if value == UNKNOWN else value

    return {
        "country": known(origin.country),
        "region": known(origin.region),
        "line_type": known(origin.line_type.value),
    }


def _the_call(call: CallFacts, target_id: int) -> CallBody:
    return {
        "test": call.test,
        "call_id": call.call_id,
        "target_id": target_id,
        "campaign": {"id": call.campaign_id, "name": call.campaign_name},
    }


def ping_body(call: CallFacts, target_id: int, bidder: Bidder) -> PingBody:
    """The ping: the caller's area and the campaign, never the caller's number."""
    return {
        "phase": PING,
        **_the_call(call, target_id),
        "caller": caller_area(call.caller),
        "deadline_ms": bidder.deadline_ms,
    }


def post_body(call: CallFacts, target_id: int, bid: Decimal) -> PostBody:
    """The post to the winner: the ping's facts, the bid it won with, and the caller's number."""
    return {
        "phase": POST,
        **_the_call(call, target_id),
        "caller": {"number": call.caller, **caller_area(call.caller)},
        "bid": format_money(bid),
    }


class NotABid(ValueError):
    """An answer that is no usable bid; the message says why, for the trail."""


def read_bid(answer: object, bidder: Bidder) -> tuple[Decimal, str | None]:
    """The amount a ping's JSON answer bids and the number it asks to be dialled at (None: the
    target's own). Raises NotABid for a declined, malformed or too low bid."""
    if not isinstance(answer, dict):
        raise NotABid("the answer is not a JSON object")
    raw = answer.get("bid")
    try:
        amount = Decimal(0) if raw is None or isinstance(raw, bool) else to_money(raw)
    except ValueError:
        raise NotABid(f"bid {str(raw)[:40]!r} is not an amount") from None
    if amount <= 0:
        raise NotABid("no bid (declined)")
    if amount > MAX_PAYOUT:
        raise NotABid(f"bid {money_text(amount)} above the most a call may pay ({MAX_PAYOUT:,})")
    amount = round_money(amount)
    if bidder.min_bid is not None and amount < bidder.min_bid:
        raise NotABid(f"bid {money_text(amount)} below the minimum {money_text(bidder.min_bid)}")
    return amount, dial_number(answer.get("number"))


def dial_number(raw: object) -> str | None:
    """The E.164 number a bid or post answer asks the call to go to (None when it names none)."""
    if raw is None or raw == "":
        return None
    try:
        return to_e164(str(raw))
    except ValueError as exc:
        raise NotABid(f"the number to dial: {exc}") from None
