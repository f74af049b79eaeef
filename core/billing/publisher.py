"""What a call's traffic source's publisher is owed, and what the call left (issue 33, docs/billing.md).

A publisher is owed only for converted calls: a fixed amount per call, or a share (percent) of the
buyer's payout, rounded half up to the 4 stored places. Profit = revenue (the buyer's payout) - cost -
publisher payout; it is unknown (None) while the call's cost is (a call no rate matched).
"""

from dataclasses import dataclass
from decimal import Decimal

from core.values.enums import PayoutKind
from core.values.money import round_money

ZERO = round_money(Decimal(0))
_PERCENT = Decimal(100)


@dataclass(frozen=True)
class PublisherTerms:
    """A traffic source's payout terms (core.models.TrafficSource's payout columns)."""

    kind: PayoutKind
    amount: Decimal  # per converted call, for FIXED
    share: Decimal  # percent of the buyer's payout, for SHARE

    @classmethod
    def of(cls, kind: str | None, amount: Decimal | None, share: Decimal | None) -> "PublisherTerms | None":
        """The terms from a source's columns as a query read them; None for a call with no source."""
        if kind is None:
            return None
        return cls(PayoutKind(kind), amount or ZERO, share or ZERO)


def publisher_payout(terms: PublisherTerms | None, converted: bool, payout: Decimal) -> Decimal:
    """What the publisher is owed for a call that earned the buyer's `payout`."""
    if terms is None or not converted:
        return ZERO
    if terms.kind is PayoutKind.FIXED:
        return round_money(terms.amount)
    if terms.kind is PayoutKind.SHARE:
        return round_money(payout * terms.share / _PERCENT)
    return ZERO


def profit(payout: Decimal, cost: Decimal | None, publisher: Decimal) -> Decimal | None:
    """Revenue - cost - publisher payout; None while the cost is unknown."""
    return None if cost is None else round_money(payout - cost - publisher)
