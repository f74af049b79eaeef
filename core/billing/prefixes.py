"""A tariff's rate card in memory, for batch jobs: the same answer as `pricing.find_rate` (longest
prefix among active rates in force at the moment) without a query per call."""

from collections import defaultdict
from datetime import datetime

from sqlalchemy import select
from sqlmodel import Session

from core.billing.pricing import Price
from core.models import Rate
from core.values.enums import Status
from core.values.phone import digits

MAX_PREFIX = 15  # as Rate.prefix and find_rate


class PrefixMap:
    def __init__(self, rates: list[tuple[int, str, datetime, Price]]) -> None:
        self._by_prefix: dict[str, list[tuple[datetime, int, Price]]] = defaultdict(list)
        for rate_id, prefix, effective_from, price in rates:
            self._by_prefix[prefix].append((effective_from, rate_id, price))
        for versions in self._by_prefix.values():
            versions.sort(key=lambda v: v[0], reverse=True)  # newest first

    @classmethod
    def load(cls, session: Session, tariff_id: int) -> "PrefixMap":
        stmt = select(
            Rate.id,
            Rate.prefix,
            Rate.effective_from,
            Rate.rate_per_minute,
            Rate.connection_fee,
            Rate.initial_increment,
            Rate.billing_increment,
            Rate.min_duration,
        ).where(Rate.tariff_id == tariff_id, Rate.status == Status.ACTIVE.value)
        return cls([(r[0], r[1], r[2], Price(*r[3:])) for r in session.execute(stmt)])

    def lookup(self, number: str, at: datetime) -> tuple[int, Price] | None:
        """(rate id, price) of the longest prefix of `number` with a rate in force at `at`."""
        # Stored numbers are E.164 ("+" and digits): skip the general clean-up for those.
        plain = number[1:]
        number_digits = plain if number[:1] == "+" and plain.isdigit() else digits(number)
        for length in range(min(len(number_digits), MAX_PREFIX), 0, -1):
            for effective_from, rate_id, price in self._by_prefix.get(number_digits[:length], ()):
                if effective_from <= at:
                    return rate_id, price
        return None


class TariffCache:
    """PrefixMaps loaded once per tariff for the length of one job."""

    def __init__(self) -> None:
        self._maps: dict[int, PrefixMap] = {}

    def lookup(
        self, session: Session, tariff_id: int | None, number: str, at: datetime
    ) -> tuple[int, Price] | None:
        if tariff_id is None:
            return None
        if tariff_id not in self._maps:
            self._maps[tariff_id] = PrefixMap.load(session, tariff_id)
        return self._maps[tariff_id].lookup(number, at)
