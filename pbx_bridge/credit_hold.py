"""A talking call's credit, held in slices (core.billing.credit): the call's hard limit.

Each slice answers how many seconds of talk time, counted from the target's answer, are paid for.
A call whose destination has no rate is not limited here: rating flags it for the admin.

While PostgreSQL is away (pbx_bridge.outage), a slice is held from the balance routing last read
less what was held offline since, and the hold is journaled; a call that held offline keeps doing
so until it ends (its hold reaches the database with the journal, before its row).
"""

import asyncio
import math
from datetime import datetime
from typing import cast

from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from core.billing import credit
from core.billing.pricing import Price, find_rate
from core.infra.db import session_scope
from core.models import Rate
from core.routing.credit import rate_key
from core.routing.customer import Customer
from pbx_bridge.outage import Outage


class CreditHold:
    def __init__(
        self,
        user_id: int,
        tariff_id: int | None,
        linkedid: str,
        destination: str,
        answered_at: datetime,
        outage: Outage | None = None,
    ) -> None:
        # The tariff the call was admitted at (its credit check's): not read again per slice.
        self.user_id, self.tariff_id, self.linkedid = user_id, tariff_id, linkedid
        self.destination, self.answered_at = destination, answered_at
        self.outage = outage
        self.covered = 0.0
        self.offline: credit.OfflineHold | None = None  # the hold as journaled, once held offline

    def _price(self, session: Session, tariff_id: int) -> Price | None:
        rate = find_rate(session, tariff_id, self.destination, self.answered_at)
        return Price.of(rate) if rate else None

    async def next_slice(self) -> float:
        """Reserve the first slice (or the next one); the talk seconds now paid for, from answer.

        0 when not even the first billable block fits; math.inf when the call has no rate (or the
        customer no tariff: then nothing is read)."""
        if self.tariff_id is None:
            self.covered = math.inf
            return self.covered
        outage = self.outage
        if outage is not None and (self.offline is not None or outage.known.offline):
            return await self._take_offline(outage, self.tariff_id)
        try:
            return await asyncio.to_thread(self._take, self.tariff_id)
        except OperationalError:
            if outage is None:
                raise
            outage.known.went_offline()
            return await self._take_offline(outage, self.tariff_id)

    def _take(self, tariff_id: int) -> float:
        with session_scope() as session:
            price = self._price(session, tariff_id)
            if price is None:
                self.covered = math.inf
                return self.covered
            if self.covered == 0:
                hold = credit.reserve(session, self.user_id, self.linkedid, price)
            else:
                hold = credit.extend(session, self.linkedid, price)
            # None: no more credit; the seconds already paid for stay what they were.
            if hold is not None:
                self.covered = float(hold.seconds)
            return self.covered

    async def _take_offline(self, outage: Outage, tariff_id: int) -> float:
        """The next slice from what routing last read; raises Unknown when it never read it."""
        known = outage.known
        rate = cast(Rate | None, known.recall(rate_key(tariff_id, self.destination)))  # core.routing.credit's
        if rate is None:
            self.covered = math.inf
            return self.covered
        price = Price.of(rate)
        customer = cast(Customer, known.recall(("customer", self.user_id)))  # core.routing.customer's
        free = customer.available - known.held(self.user_id)
        before = self.offline
        if before is None and self.covered > 0:  # held online until the database went away
            seconds = int(self.covered)
            before = credit.offline_hold(
                self.user_id, self.linkedid, price, credit.held_for(price, seconds), seconds
            )
        if before is None:
            hold = credit.offline_hold(self.user_id, self.linkedid, price, free)
        else:
            hold = credit.offline_extend(before, price, free)
        if hold is None:  # no more credit; the seconds already paid for stay what they were
            return self.covered
        known.hold(self.user_id, hold.amount - (before.amount if before else 0))
        await asyncio.to_thread(outage.journal.append, (), [hold])
        self.offline, self.covered = hold, float(hold.seconds)
        return self.covered
