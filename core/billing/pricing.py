"""Pricing: which rate applies to a call, and what the call costs (domain.md, step 5).

With billsec `d`, initial block `I`, increment `N` and a minimum duration: below the minimum the
call is free; otherwise billable = I when d <= I, else I + ceil((d - I) / N) * N; cost =
connection fee + rate per minute * billable / 60, rounded once, half up, to 4 places.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import bindparam, func, select
from sqlmodel import Session

from core.models import Rate
from core.values.enums import Status
from core.values.money import round_money
from core.values.phone import digit_prefixes


@dataclass(frozen=True)
class Price:
    """The parts of a rate the formula needs (a Rate row, or a cached copy of one)."""

    rate_per_minute: Decimal
    connection_fee: Decimal
    initial_increment: int
    billing_increment: int
    min_duration: int

    @classmethod
    def of(cls, rate: Rate) -> "Price":
        return cls(
            rate.rate_per_minute,
            rate.connection_fee,
            rate.initial_increment,
            rate.billing_increment,
            rate.min_duration,
        )


def billable_seconds(billsec: int, price: Price) -> int:
    if billsec <= 0 or billsec < price.min_duration:
        return 0
    first, step = price.initial_increment, price.billing_increment
    if billsec <= first:
        return first
    return first + -(-(billsec - first) // step) * step  # ceiling division, in integers


def call_cost(billsec: int, price: Price) -> Decimal:
    seconds = billable_seconds(billsec, price)
    if seconds == 0:
        return round_money(Decimal(0))
    return round_money(price.connection_fee + price.rate_per_minute * seconds / 60)


def minimum_charge(price: Price) -> Decimal:
    """What the first billable block costs: the credit a call must be able to cover to start."""
    return round_money(price.connection_fee + price.rate_per_minute * price.initial_increment / 60)


_RATE = (
    select(Rate)
    .where(Rate.tariff_id == bindparam("tariff_id"), Rate.status == Status.ACTIVE.value)
    .where(Rate.prefix.in_(bindparam("prefixes", expanding=True)), Rate.effective_from <= bindparam("at"))
    .order_by(func.length(Rate.prefix).desc(), Rate.effective_from.desc())
    .limit(1)
)  # built once: every call's credit check and every rating runs it


def find_rate(session: Session, tariff_id: int, number: str, at: datetime) -> Rate | None:
    """The active rate of `tariff_id` with the longest prefix of `number`, in force at `at`.

    Every prefix of the number is looked up by the (tariff_id, prefix) index: a handful of index
    probes whatever the size of the rate card.
    """
    prefixes = digit_prefixes(number)
    if not prefixes:
        return None
    return session.scalars(_RATE, {"tariff_id": tariff_id, "prefixes": prefixes, "at": at}).first()
