"""Request and response bodies for numbers, their payments and CSV uploads, with the field rules."""

from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from core.models import WalletTransaction
from core.values.enums import NumberStatus, TransactionType
from core.values.money import MAX_NUMBER_FEE, bounded
from core.values.phone import to_e164
from portal_api.deps import MAX_ID
from portal_api.schemas.common import PHONE_FORMAT, RowIds, StrictBody, money_schema


def parse_fee(value: object) -> Decimal:
    """A number's fee as a person writes it: a decimal amount from 0 to MAX_NUMBER_FEE, 4 places at most."""
    try:
        return bounded(value, MAX_NUMBER_FEE)
    except ValueError as exc:
        message = str(exc)
        if message == "must be a number":
            message = 'must be an amount such as "12.50"'
        raise ValueError(message) from None


def _e164(value: str) -> str:
    try:
        return to_e164(value)
    except ValueError:
        raise ValueError(
            "must be a valid phone number in international format, such as +442071838750"
        ) from None


def _iso2(value: str) -> str:
    code = value.strip().upper()
    if len(code) != 2 or not code.isalpha():
        raise ValueError("must be a two-letter country code, such as GB")
    return code


Fee = Annotated[Decimal, BeforeValidator(parse_fee), money_schema(MAX_NUMBER_FEE, example="2.50")]
E164 = Annotated[str, Field(max_length=32, json_schema_extra={"format": PHONE_FORMAT}), AfterValidator(_e164)]
Iso2 = Annotated[
    str, Field(max_length=2, json_schema_extra={"pattern": "^[A-Za-z]{2}$"}), AfterValidator(_iso2)
]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
NumberIds = RowIds


class _CountryChoice(StrictBody):
    rules = {
        "not": {
            "required": ["country_id", "iso2"],
            "properties": {"country_id": {"type": "integer"}, "iso2": {"type": "string"}},
        }
    }
    country_id: Id | None = None
    iso2: Iso2 | None = None

    @model_validator(mode="after")
    def _one_country(self) -> Self:
        if self.country_id is not None and self.iso2 is not None:
            raise ValueError("Give country_id or iso2, not both.")
        return self


class NumberCreate(_CountryChoice):
    """Without country_id or iso2, the country is the one the number belongs to."""

    number: E164
    vendor_id: Id | None = None
    setup_fee: Fee = Decimal("0.0000")
    monthly_fee: Fee = Decimal("0.0000")


class NumberUpdate(_CountryChoice):
    """An admin may change every field; a customer only campaign_id and source_id (null unlinks the
    campaign, or the traffic source)."""

    not_null = ("setup_fee", "monthly_fee", "country_id", "iso2")

    setup_fee: Fee | None = None
    monthly_fee: Fee | None = None
    vendor_id: Id | None = None
    campaign_id: Id | None = None
    source_id: Id | None = Field(
        default=None, description="The owner's traffic source its calls are attributed to"
    )


class NumberStatusIn(StrictBody):
    status: NumberStatus


class GiveIn(StrictBody):
    user_id: Id
    number_ids: NumberIds


class TakeIn(StrictBody):
    """Either chosen pool numbers, or `count` numbers of one country."""

    number_ids: NumberIds | None = None
    country_id: Id | None = None
    count: int | None = Field(default=None, ge=1, le=100)

    @model_validator(mode="after")
    def _one_way(self) -> Self:
        by_ids = self.number_ids is not None and self.country_id is None and self.count is None
        by_country = self.number_ids is None and self.country_id is not None and self.count is not None
        if not (by_ids or by_country):
            raise ValueError("Give either number_ids, or country_id with count.")
        return self


class ReleaseIn(StrictBody):
    ids: NumberIds


class NumberOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    number: str
    country_id: int | None
    vendor_id: int | None
    user_id: int | None
    campaign_id: int | None
    source_id: int | None
    setup_fee: Decimal
    monthly_fee: Decimal
    status: NumberStatus
    assigned_at: datetime | None
    paid_until: datetime | None
    batch_id: int | None
    created_at: datetime


class NumberRow(NumberOut):
    """A number in a list, with the names of its customer and campaign."""

    customer_name: str | None = None
    campaign_name: str | None = None


class PaymentType(StrEnum):
    SETUP = "setup"
    MONTHLY = "monthly"


PAYMENT_KINDS = {
    PaymentType.SETUP: TransactionType.NUMBER_SETUP,
    PaymentType.MONTHLY: TransactionType.NUMBER_MONTHLY,
}
_PAYMENT_TYPES = {kind.value: payment for payment, kind in PAYMENT_KINDS.items()}


class NumberPaymentOut(BaseModel):
    id: int
    user_id: int
    number_id: int | None
    number: str | None
    payment_type: PaymentType
    amount: Decimal
    balance_after: Decimal
    description: str
    date: datetime

    @classmethod
    def of(cls, row: WalletTransaction, number: str | None) -> "NumberPaymentOut":
        return cls(
            id=row.id or 0,
            user_id=row.user_id,
            number_id=row.number_id,
            number=number,
            payment_type=_PAYMENT_TYPES[row.transaction_type],
            amount=row.amount,
            balance_after=row.balance_after,
            description=row.description,
            date=row.created_at,
        )


class UploadLine(BaseModel):
    """A skipped line of an upload (imported lines are only counted)."""

    line: int = Field(description="Line in the file; the header is line 1")
    number: str
    status: Literal["skipped"]
    reason: str


class UploadBatchOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    filename: str
    uploaded_by: int | None
    total: int
    imported: int
    skipped: int
    created_at: datetime


class UploadReport(UploadBatchOut):
    lines: list[UploadLine] = Field(description="The skipped lines, each with its reason")
