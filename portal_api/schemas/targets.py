"""Target bodies: destination, trunk, caps, weekly schedule in the target's time zone, payout."""

import re
from datetime import datetime
from decimal import Decimal
from itertools import pairwise
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    WithJsonSchema,
    computed_field,
    field_validator,
)

from core.values.enums import Status
from core.values.money import MAX_PAYOUT
from core.values.phone import to_e164
from portal_api.deps import MAX_ID
from portal_api.schemas.common import (
    PHONE_FORMAT,
    PUBLIC_URL_SCHEMA,
    MoneyOut,
    Name,
    StrictBody,
    Timezone,
    money_parser,
    money_schema,
    outbound_url,
)
from portal_api.schemas.regions import TargetRegionRules, TargetRegionRulesOut

Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_HHMM = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$")
_SIP_URI = re.compile(r"^sips?:[A-Za-z0-9._+*#-]+@[A-Za-z0-9.-]+(:[0-9]{1,5})?$")


def _destination(value: str) -> str:
    value = value.strip()
    if value.startswith(("sip:", "sips:")):
        if not _SIP_URI.match(value):
            raise ValueError("a SIP destination must look like sip:user@host[:port]")
        return value
    try:
        return to_e164(value)
    except ValueError as exc:
        raise ValueError(f"{exc}; use an E.164 number such as +14155550100 or a sip: URI") from exc


def _window(value: tuple[str, str]) -> tuple[str, str]:
    start, end = value
    for t in (start, end):
        if not _HHMM.match(t):
            raise ValueError(f"'{t}' is not a time of day as HH:MM")
    if start >= end:
        raise ValueError(f"a window must start before it ends ({start}-{end})")
    return value


def _bid_url(value: str) -> str:
    value = value.strip()
    parts = outbound_url(value, example="https://buyer.example/bids")
    if parts.username or parts.password:
        raise ValueError("must not hold a user or password (the buyer checks the call_id instead)")
    return value


_DESTINATION_SCHEMA = {
    "anyOf": [
        {"type": "string", "format": PHONE_FORMAT, "maxLength": 255},
        {"type": "string", "pattern": r"^\s*sips?:[A-Za-z0-9._+*#-]+@[A-Za-z0-9.-]+(:[0-9]{1,5})?\s*$"},
    ],
    "examples": ["+14155550100"],
}
Destination = Annotated[
    str, Field(max_length=255), AfterValidator(_destination), WithJsonSchema(_DESTINATION_SCHEMA)
]
BidUrl = Annotated[str, Field(max_length=500), AfterValidator(_bid_url), PUBLIC_URL_SCHEMA]
BidDeadline = Annotated[
    int, Field(ge=50, le=5000, description="Milliseconds a bidder has to answer a ping (and the post)")
]
_TIME_OF_DAY = {"type": "string", "pattern": _HHMM.pattern}
Window = Annotated[
    tuple[str, str],
    AfterValidator(_window),
    WithJsonSchema(
        {"type": "array", "prefixItems": [_TIME_OF_DAY, _TIME_OF_DAY], "minItems": 2, "maxItems": 2}
    ),
]
Schedule = dict[Day, Annotated[list[Window], Field(max_length=8)]]
Cap = Annotated[int | None, Field(ge=0, le=1_000_000)]
Payout = Annotated[Decimal, money_parser(MAX_PAYOUT), money_schema(MAX_PAYOUT, example="12.5")]


class TargetFields(StrictBody):
    trunk_id: int | None = Field(default=None, ge=1, le=MAX_ID, description="Outbound trunk to dial through")
    concurrency_cap: Cap = Field(default=None, description="Live calls at once; null = no limit")
    hourly_cap: Cap = None
    daily_cap: Cap = None
    monthly_cap: Cap = None
    timezone: Timezone = Field(
        default="UTC", description="Of its open hours and caps; left out of a new target: its customer's zone"
    )
    schedule: Schedule = Field(
        default_factory=dict,
        description='Open hours per weekday in the target\'s time zone, e.g. {"mon": [["09:00", "17:00"]]}; '
        "empty = always open; a weekday left out is closed",
    )
    payout: Payout = Decimal("0")
    # Left out of an update: unchanged (null is refused: the rules always have a value).
    region_rules: TargetRegionRules = Field(
        default_factory=TargetRegionRules, description="Callers taken by region"
    )
    ping_url: BidUrl | None = Field(
        default=None, description="Real-time bidding: asked for a bid on each call; null = not a bidder"
    )
    post_url: BidUrl | None = Field(
        default=None, description='Told it won the call; null = the ping URL, with phase "post"'
    )
    bid_deadline_ms: BidDeadline = 300
    min_bid: Payout | None = Field(default=None, description="Bids below this are not taken")

    @field_validator("schedule")
    @classmethod
    def _no_overlaps(
        cls, schedule: dict[str, list[tuple[str, str]]] | None
    ) -> dict[str, list[tuple[str, str]]] | None:
        for day, windows in (schedule or {}).items():
            ordered = sorted(windows)
            for (_, end), (start, _) in pairwise(ordered):
                if start < end:
                    raise ValueError(f"{day}: open windows overlap")
        return schedule


def _needs_ping(name: str) -> dict[str, object]:
    """`name` left out or null, or a ping URL beside it: only a bidder has a use for it."""
    return {
        "anyOf": [
            {"properties": {name: {"type": "null"}}},
            {"required": ["ping_url"], "properties": {"ping_url": {"type": "string"}}},
        ]
    }


class TargetIn(TargetFields):
    # A post URL and a minimum bid belong to a bidder, which has a ping URL (services.targets); an
    # update's are checked against the ping URL the target already has.
    rules = {"allOf": [_needs_ping("post_url"), _needs_ping("min_bid")]}
    buyer_id: int = Field(ge=1, le=MAX_ID)
    name: Name
    destination: Destination
    status: Status = Status.ACTIVE


class TargetUpdate(TargetFields):
    not_null = ("name", "destination", "timezone", "schedule", "payout", "bid_deadline_ms")
    name: Name | None = None
    destination: Destination | None = None
    # Optional here, required-with-default in TargetFields: a subclass widening a field's type is what
    # mypy's [assignment] flags, and is how pydantic makes an update's fields optional.
    timezone: Timezone | None = None  # type: ignore[assignment]
    schedule: Schedule | None = None  # type: ignore[assignment]
    payout: Payout | None = None  # type: ignore[assignment]
    bid_deadline_ms: BidDeadline | None = None  # type: ignore[assignment]


class TargetOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    buyer_id: int
    name: str
    destination: str
    trunk_id: int | None
    concurrency_cap: int | None
    hourly_cap: int | None
    daily_cap: int | None
    monthly_cap: int | None
    timezone: str
    schedule: dict[str, list[tuple[str, str]]]
    payout: MoneyOut
    region_rules: TargetRegionRulesOut
    ping_url: str | None = None
    post_url: str | None = None
    bid_deadline_ms: int = 300
    min_bid: MoneyOut | None = None
    status: Status
    created_at: datetime


class TargetRow(TargetOut):
    """A target in the list, with the names of its buyer and trunk, and why no call reaches it."""

    buyer_name: str | None = None
    trunk_name: str | None = None

    @computed_field(description="Why no call can be dialled to this target (no trunk), or null")  # type: ignore[prop-decorator]
    @property
    def cannot_dial(self) -> str | None:
        # Every destination, number or SIP URI, is dialled through a trunk (docs/routing.md).
        return None if self.trunk_id else "No trunk: calls never reach this target until one is set."


class BuyerTarget(TargetOut):
    """A buyer's own target with the calls it was connected to in the current hour, day and month
    (in the target's zone, as its caps count them), and whether its open hours include now."""

    calls_this_hour: int
    calls_today: int
    calls_this_month: int
    open_now: bool


class CampaignRef(StrictBody):
    campaign_id: int = Field(ge=1, le=MAX_ID)


class AssignedTarget(BaseModel):
    target_id: int
    name: str
    destination: str
    buyer_id: int
    target_status: Status
    priority: int
    weight: int
    link_status: Status


Priority = Annotated[int, Field(ge=1, le=100, description="Lower rings first")]
Weight = Annotated[int, Field(ge=1, le=1000, description="Share among targets of one priority")]


class LinkItem(StrictBody):
    target_id: int = Field(ge=1, le=MAX_ID)
    priority: Priority = 1
    weight: Weight = 1


class LinkAdd(StrictBody):
    campaign_id: int = Field(ge=1, le=MAX_ID)
    targets: list[LinkItem] = Field(min_length=1, max_length=500)


class LinkRemove(StrictBody):
    campaign_id: int = Field(ge=1, le=MAX_ID)
    target_id: int = Field(ge=1, le=MAX_ID)


class LinkPriority(StrictBody):
    campaign_id: int = Field(ge=1, le=MAX_ID)
    priority: Priority
    weight: Weight | None = None
