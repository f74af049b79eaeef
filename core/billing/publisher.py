"""What a call's traffic source's publisher is owed, and what the call left (issue 33, docs/billing.md).

A publisher is owed only for converted calls: a fixed amount per call, or a share (percent) of the
buyer's payout, rounded half up to the 4 stored places. Profit = revenue (the buyer's payout) - cost -
publisher payout; it is unknown (None) while the call's cost is (a call no rate matched).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlmodel import Session

from core.models import TrafficSource
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


def terms_of(session: Session, source_ids: Iterable[int | None]) -> dict[int, PublisherTerms]:
    """The payout terms of these sources as they are now, by id: one read for a batch of calls
    (most have no source), rather than a join on every call claimed."""
    ids = sorted({i for i in source_ids if i is not None})
    if not ids:
        return {}
    stmt = select(
        TrafficSource.id, TrafficSource.payout_kind, TrafficSource.payout_amount, TrafficSource.payout_share
    )
    return {
        source_id: PublisherTerms(PayoutKind(kind), amount, share)
        for source_id, kind, amount, share in session.execute(stmt.where(TrafficSource.id.in_(ids)))
    }


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
