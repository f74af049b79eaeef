"""Tariffs and rate-card entries: request/response bodies and the field rules the CSV import shares."""

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated

import pycountry
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
)
from pydantic import StringConstraints as Str

from core.models import Rate, Tariff
from core.values.money import (
    MAX_CONNECTION_FEE,
    MAX_INCREMENT_SECONDS,
    MAX_RATE_PER_MINUTE,
    bounded,
    format_money,
)
from portal_api.deps import MAX_ID
from portal_api.schemas.common import NO_CONTROLS, NO_CONTROLS_PATTERN, Name, StrictBody, money_schema

# Each rule below raises ValueError with a text that reads after the field's name ("rate must be ...").


def rate_per_minute(value: object) -> Decimal:
    return bounded(value, MAX_RATE_PER_MINUTE)


def connection_fee(value: object) -> Decimal:
    return bounded(value, MAX_CONNECTION_FEE)


def prefix(value: object) -> str:
    """Destination prefix as E.164 digits: a leading '+' is dropped, nothing else but digits."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 4420.0 is the number 4420, as JSON readers take it
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else None
    if text is None:
        raise ValueError("must be text of digits")
    text = text.removeprefix("+")
    if not text.isascii() or not text.isdigit():
        raise ValueError("must be digits only (a leading + is allowed)")
    if len(text) > 15:
        raise ValueError("has more than 15 digits")
    if text[0] == "0":
        raise ValueError("must start with a country code (E.164 digits never start with 0)")
    return text


def increment(value: int) -> int:
    if value <= 0:
        raise ValueError("must be greater than 0")
    if value > MAX_INCREMENT_SECONDS:
        raise ValueError(f"must be at most {MAX_INCREMENT_SECONDS} seconds")
    return value


def min_duration(value: int) -> int:
    if value < 0:
        raise ValueError("can't be negative")
    if value > MAX_INCREMENT_SECONDS:
        raise ValueError(f"must be at most {MAX_INCREMENT_SECONDS} seconds")
    return value


def as_utc(value: datetime) -> datetime:
    """A time without an offset is read as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def moment(text: str) -> datetime:
    """An ISO 8601 date or date-time, as the CSV import reads `effective_from`."""
    try:
        return as_utc(datetime.fromisoformat(text))
    except ValueError:
        raise ValueError("must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z") from None


def currency(value: str) -> str:
    code = value.upper()
    if pycountry.currencies.get(alpha_3=code) is None:
        raise ValueError(f"'{value}' is not an ISO 4217 currency code (such as USD or EUR)")
    return code


PerMinute = Annotated[
    Decimal, BeforeValidator(rate_per_minute), money_schema(MAX_RATE_PER_MINUTE, example="0.0125")
]
ConnectionFee = Annotated[
    Decimal, BeforeValidator(connection_fee), money_schema(MAX_CONNECTION_FEE, example="0")
]
MoneyOut = Annotated[Decimal, PlainSerializer(format_money, return_type=str, when_used="json")]
# Up to 15 digits, not starting with 0, a leading + allowed; as text or a whole number.
_PREFIX_SCHEMA = {
    "anyOf": [
        {"type": "string", "pattern": r"^\s*\+?[1-9][0-9]{0,14}\s*$"},
        {"type": "integer", "minimum": 1, "maximum": 10**15 - 1},
    ],
    "examples": ["4420"],
}
Prefix = Annotated[str, BeforeValidator(prefix), WithJsonSchema(_PREFIX_SCHEMA)]
Increment = Annotated[
    int, AfterValidator(increment), Field(json_schema_extra={"minimum": 1, "maximum": MAX_INCREMENT_SECONDS})
]
Seconds = Annotated[
    int,
    AfterValidator(min_duration),
    Field(json_schema_extra={"minimum": 0, "maximum": MAX_INCREMENT_SECONDS}),
]


def _iso_text(value: object) -> object:
    # Pydantic would also read a number as seconds since 1970: a time is written in ISO 8601.
    if isinstance(value, int | float):
        raise ValueError("must be an ISO 8601 date-time such as 2025-01-01T00:00:00Z")
    return value


When = Annotated[datetime, BeforeValidator(_iso_text), AfterValidator(as_utc)]
Currency = Annotated[
    str,
    Str(strip_whitespace=True, min_length=3, max_length=3),
    AfterValidator(currency),
    Field(json_schema_extra={"enum": sorted(c.alpha_3 for c in pycountry.currencies)}),
]
Description = Annotated[str, Str(strip_whitespace=True, max_length=500), NO_CONTROLS, NO_CONTROLS_PATTERN]
CountryCode = Annotated[
    str,
    Str(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z]{2}$"),
    Field(examples=["GB"], json_schema_extra={"enum": sorted(c.alpha_2 for c in pycountry.countries)}),
]
TariffId = Annotated[int, Field(ge=1, le=MAX_ID)]
CountryId = Annotated[int, Field(ge=1, le=MAX_ID)]


class TariffCreate(StrictBody):
    name: Name
    currency: Currency = "USD"
    description: Description | None = None


class TariffUpdate(StrictBody):
    not_null = ("name", "currency")
    name: Name | None = None
    currency: Currency | None = None
    description: Description | None = None


class TariffOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    currency: str
    description: str | None
    status: str
    created_at: datetime

    @classmethod
    def of(cls, row: Tariff) -> "TariffOut":
        return cls.model_validate(row)


class TariffBrief(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    name: str
    currency: str


# Both given must name the same country; the OpenAPI asks for one at most.
_ONE_COUNTRY = {
    "not": {
        "required": ["country_id", "country"],
        "properties": {"country_id": {"type": "integer"}, "country": {"type": "string"}},
    }
}


class RateCreate(StrictBody):
    """Country by `country_id` or ISO alpha-2 `country`; inferred from the prefix when neither is given."""

    rules = _ONE_COUNTRY

    tariff_id: TariffId
    prefix: Prefix
    country_id: CountryId | None = None
    country: CountryCode | None = None
    rate_per_minute: PerMinute
    connection_fee: ConnectionFee = Decimal("0")
    initial_increment: Increment = 60
    billing_increment: Increment = 60
    min_duration: Seconds = 0
    effective_from: When | None = Field(default=None, description="Default: now")


class RateUpdate(StrictBody):
    rules = _ONE_COUNTRY
    not_null = (
        "tariff_id",
        "prefix",
        "rate_per_minute",
        "connection_fee",
        "initial_increment",
        "billing_increment",
        "min_duration",
        "effective_from",
    )
    tariff_id: TariffId | None = None
    prefix: Prefix | None = None
    country_id: CountryId | None = None
    country: CountryCode | None = None
    rate_per_minute: PerMinute | None = None
    connection_fee: ConnectionFee | None = None
    initial_increment: Increment | None = None
    billing_increment: Increment | None = None
    min_duration: Seconds | None = None
    effective_from: When | None = None


class RateOut(BaseModel):
    id: int
    tariff_id: int
    prefix: str
    country_id: int | None
    country: str | None = Field(description="ISO 3166 alpha-2")
    rate_per_minute: MoneyOut
    connection_fee: MoneyOut
    initial_increment: int
    billing_increment: int
    min_duration: int
    effective_from: datetime
    status: str
    created_at: datetime

    @classmethod
    def of(cls, row: Rate, iso2_by_id: dict[int, str]) -> "RateOut":
        data = row.model_dump()
        return cls(**data, country=iso2_by_id.get(row.country_id) if row.country_id else None)


# A rate card's media type, as its upload part declares it: CSV whose first line names the columns
# (RFC 4180's `header` parameter). It tells it from the number upload's plain text/csv, whose
# columns differ.
RATE_CARD = "text/csv; header=present"


class RateImportOut(BaseModel):
    tariff_id: int
    rows: int = Field(description="Data lines read from the file")
    inserted: int
    replaced: int
