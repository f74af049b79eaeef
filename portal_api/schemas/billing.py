"""Top-ups and invoices as the API shows them."""

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from core.billing.invoices import InvoiceLine
from core.values.enums import InvoiceStatus
from core.values.money import MAX_TOPUP
from portal_api.deps import MAX_ID
from portal_api.schemas.common import (
    NO_CONTROLS,
    NO_CONTROLS_PATTERN,
    MoneyOut,
    StrictBody,
    money_parser,
    money_schema,
)


class TopupIn(StrictBody):
    user_id: int = Field(ge=1, le=MAX_ID)
    amount: Annotated[
        Decimal,
        money_parser(MAX_TOPUP, positive=True),
        money_schema(MAX_TOPUP, positive=True, example="100.00"),
    ] = Field(description='Credit to add, as a decimal string such as "100.00"')
    note: Annotated[
        str, StringConstraints(strip_whitespace=True, max_length=200), NO_CONTROLS, NO_CONTROLS_PATTERN
    ] = ""
    reference: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9._:-]{1,64}$")] | None = Field(
        default=None,
        description="Idempotency key: sending the same reference twice credits once",
    )


class PortalConfig(BaseModel):
    currency: str = Field(description="ISO 4217 code of the caller's wallet (its tariff's)")
    low_balance_threshold: MoneyOut = Field(description="A wallet below this is shown as low")


class InvoiceGenerateIn(StrictBody):
    user_id: int = Field(ge=1, le=MAX_ID)
    month: Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")] = Field(
        description='Calendar month "YYYY-MM" (in the customer\'s time zone); it must be over'
    )


class InvoiceSummary(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    number: str
    period_start: date
    period_end: date
    currency: str
    opening_balance: MoneyOut
    closing_balance: MoneyOut
    calls_total: MoneyOut
    fees_total: MoneyOut
    topups_total: MoneyOut
    total: MoneyOut
    status: InvoiceStatus
    created_at: datetime


class InvoiceDetail(InvoiceSummary):
    lines: list[InvoiceLine]
