"""A talking call's credit, held in slices (core.credit): the call's hard limit.

Each slice answers how many seconds of talk time, counted from the target's answer, are paid for.
A call whose destination has no rate is not limited here: rating flags it for the admin.
"""

import math
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlmodel import Session

from core import credit
from core.db import session_scope
from core.models import User
from core.rating import Price, find_rate
from pbx_bridge import call_record

# The customer's tariff alone (a whole user row loaded per answered call was 7 % of the bridge).
_TARIFF = select(User.tariff_id).where(User.id == bindparam("user_id"))


class CreditHold:
    def __init__(self, user_id: int, linkedid: str, destination: str, answered_at: datetime) -> None:
        self.user_id, self.linkedid = user_id, linkedid
        self.destination, self.answered_at = destination, answered_at
        self.covered = 0.0

    def _price(self, session: Session) -> Price | None:
        tariff_id = session.scalar(_TARIFF, {"user_id": self.user_id})
        if tariff_id is None:
            return None
        rate = find_rate(session, tariff_id, self.destination, self.answered_at)
        return Price.of(rate) if rate else None

    def take(self, row: dict[str, Any] | None = None) -> float:
        """Reserve the first slice (or the next one); the talk seconds now paid for, from answer.
        `row`, the call's row, is written in the same transaction.

        0 when not even the first billable block fits; math.inf when the call has no rate.
        """
        with session_scope() as session:
            if row is not None:
                call_record.save(row, session.connection())
            price = self._price(session)
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
