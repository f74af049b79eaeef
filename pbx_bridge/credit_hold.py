"""A talking call's credit, held in slices (core.billing.credit): the call's hard limit.

Each slice answers how many seconds of talk time, counted from the target's answer, are paid for.
A call whose destination has no rate is not limited here: rating flags it for the admin.
"""

import asyncio
import math
from datetime import datetime

from sqlmodel import Session

from core.billing import credit
from core.billing.pricing import Price, find_rate
from core.infra.db import session_scope


class CreditHold:
    def __init__(
        self, user_id: int, tariff_id: int | None, linkedid: str, destination: str, answered_at: datetime
    ) -> None:
        # The tariff the call was admitted at (its credit check's): not read again per slice.
        self.user_id, self.tariff_id, self.linkedid = user_id, tariff_id, linkedid
        self.destination, self.answered_at = destination, answered_at
        self.covered = 0.0

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
        return await asyncio.to_thread(self._take, self.tariff_id)

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
