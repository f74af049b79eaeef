"""Field types shared by request bodies: each carries its own rule and message."""

from datetime import date, datetime, time
from decimal import Decimal
from functools import lru_cache
from typing import Annotated
from zoneinfo import ZoneInfo, available_timezones

from pydantic import AfterValidator, BaseModel, ConfigDict, EmailStr, PlainSerializer, StringConstraints

from core.enums import Status
from core.money import format_money
from core.passwords import password_problem


@lru_cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def _timezone(value: str) -> str:
    if value not in _zones():
        raise ValueError(f"'{value}' is not a known time zone; use an IANA name such as 'Europe/London'")
    return value


def _password(value: str) -> str:
    problem = password_problem(value)
    if problem:
        raise ValueError(problem)
    return value


# Money in responses: always the 4 stored places, as a string ("12.5000"), never a float.
MoneyOut = Annotated[Decimal, PlainSerializer(format_money, return_type=str, when_used="json")]
Timezone = Annotated[str, StringConstraints(strip_whitespace=True, max_length=64), AfterValidator(_timezone)]
Email = Annotated[EmailStr, StringConstraints(max_length=254), AfterValidator(lambda v: v.lower())]
Password = Annotated[str, AfterValidator(_password)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
ShortText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=160)]
Phone = Annotated[str, StringConstraints(strip_whitespace=True, max_length=32)]


class StrictBody(BaseModel):
    """Request bodies reject unknown fields, so a typo is an error instead of silently ignored."""

    model_config = ConfigDict(extra="forbid")


def day_bounds(
    from_date: date | None, to_date: date | None, tz: str
) -> tuple[datetime | None, datetime | None]:
    """Inclusive date filters read in the caller's time zone, as UTC-comparable instants."""
    zone = ZoneInfo(tz)
    start = datetime.combine(from_date, time.min, zone) if from_date else None
    end = datetime.combine(to_date, time.max, zone) if to_date else None
    return start, end


class StatusIn(StrictBody):
    status: Status
