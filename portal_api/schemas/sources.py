"""Traffic source bodies (docs/billing.md, "Publisher payout"): a name, the utm_source that means
it, and what its publisher is owed per converted call."""

from datetime import datetime
from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from core.values.enums import PayoutKind, Status
from core.values.money import MAX_PAYOUT
from portal_api.deps import MAX_ID
from portal_api.schemas.common import (
    NO_CONTROLS,
    VISIBLE_PATTERN,
    MoneyOut,
    Name,
    StrictBody,
    money_parser,
    money_schema,
)

PERCENT = Decimal(100)
UtmSource = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=128), NO_CONTROLS, VISIBLE_PATTERN
]
Amount = Annotated[Decimal, money_parser(MAX_PAYOUT), money_schema(MAX_PAYOUT, example="2.5")]
Share = Annotated[Decimal, money_parser(PERCENT), money_schema(PERCENT, example="12.5")]

_UTM = "The utm_source a visit carries that means this source (any case); null: its numbers' calls only"
_KIND = "What the publisher is owed per converted call: nothing, payout_amount, or payout_share"
_AMOUNT = "Per converted call, for payout_kind 'fixed' (the currency's 4 places)"
_SHARE = "Percent of the buyer's payout, for payout_kind 'share' (0 to 100)"


class SourceIn(StrictBody):
    user_id: int | None = Field(default=None, ge=1, le=MAX_ID, description="The customer (an admin names it)")
    name: Name
    utm_source: UtmSource | None = Field(default=None, description=_UTM)
    payout_kind: PayoutKind = Field(default=PayoutKind.NONE, description=_KIND)
    payout_amount: Amount = Field(default=Decimal("0"), description=_AMOUNT)
    payout_share: Share = Field(default=Decimal("0"), description=_SHARE)


class SourceUpdate(StrictBody):
    not_null = ("name", "payout_kind", "payout_amount", "payout_share", "status")
    name: Name | None = None
    utm_source: UtmSource | None = Field(default=None, description=_UTM)
    payout_kind: PayoutKind | None = Field(default=None, description=_KIND)
    payout_amount: Amount | None = Field(default=None, description=_AMOUNT)
    payout_share: Share | None = Field(default=None, description=_SHARE)
    status: Status | None = None


class SourceOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    name: str
    utm_source: str | None
    payout_kind: PayoutKind
    payout_amount: MoneyOut
    payout_share: MoneyOut = Field(description="Percent, with 4 places")
    status: Status
    created_at: datetime
    updated_at: datetime | None


class SourceRow(SourceOut):
    """A source in the list, with its customer's name and how many numbers it has."""

    customer_name: str | None = None
    numbers: int = 0
