"""What routing last read from PostgreSQL, so the bridge can go on routing while it is away.

The catalogue (numbers, campaigns, links with their targets, buyers, trunks and schedules) is
already kept across calls by `core.routing.catalogue`. The rest of a decision is read afresh every
call: the customer (status, tariff, balance less holds, the block entry for this caller), the rate
of each destination, the calls a capped target took this period, the round-robin cursor. A
`LastKnown` attached to a routing session keeps the last answer of each (`remembered`); while the
database is unreachable the session is *offline* and those reads answer from it instead. A read
never made while the database answered raises `Unknown`: the call is refused as it was before.

Credit held while offline (the bridge's slices, journaled for later) is counted here per customer
(`hold`), so the balance a call sees offline is the last one read less what was held since.
"""

import threading
import time
from collections.abc import Callable, Hashable
from decimal import Decimal
from typing import TypeVar, cast

from sqlmodel import Session

T = TypeVar("T")
_ATTACHED = "last_known"  # session.info key: the LastKnown this session reads and records
_OFFLINE = "last_known_offline"  # session.info key: this session answers from it (no database)
# Callers' block answers are remembered per caller: past this many entries the memory starts over
# (a flood of made-up callers can't grow it without end; offline, a forgotten read is refused).
MAX_ENTRIES = 100_000


class Unknown(Exception):
    """Routing is offline and never read this while the database answered: no decision possible."""


class LastKnown:
    """The last answer of each routing read, and credit held offline; shared by routing threads."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._values: dict[Hashable, object] = {}
        self._held: dict[int, Decimal] = {}
        self._clock = clock
        self.offline = False  # the database did not answer the last routing read
        self.online_at = clock()  # when it last did

    def remember(self, key: Hashable, value: object) -> None:
        with self._lock:
            if len(self._values) >= MAX_ENTRIES and key not in self._values:
                self._values = {}
            self._values[key] = value

    def recall(self, key: Hashable) -> object:
        with self._lock:
            if key not in self._values:
                raise Unknown(f"not read while the database answered: {key!r}")
            return self._values[key]

    def recall_or(self, key: Hashable, default: object) -> object:
        with self._lock:
            return self._values.get(key, default)

    def went_offline(self) -> None:
        self.offline = True

    def came_back(self) -> None:
        """The database answered: reads are fresh again (holds it has not seen yet still count)."""
        self.offline = False
        self.online_at = self._clock()

    def offline_for(self) -> float:
        """Seconds since the database last answered (0 while it does)."""
        return self._clock() - self.online_at if self.offline else 0.0

    def hold(self, user_id: int, amount: Decimal) -> None:
        """`amount` more of the customer's credit held (or less, negative) while offline."""
        with self._lock:
            self._held[user_id] = self._held.get(user_id, Decimal(0)) + amount

    def held(self, user_id: int) -> Decimal:
        with self._lock:
            return self._held.get(user_id, Decimal(0))

    def clear_held(self) -> None:
        """The offline holds are in the database now: balances read from it count them."""
        with self._lock:
            self._held = {}


def attach(session: Session, known: LastKnown, *, offline: bool = False) -> None:
    """Routing in `session` records into `known`, or, `offline`, answers from it. Per session, not
    `known.offline`: a decision under way stays what it began as when the database returns."""
    session.info[_ATTACHED] = known
    session.info[_OFFLINE] = offline


def attached(session: Session) -> LastKnown | None:
    found: LastKnown | None = session.info.get(_ATTACHED)
    return found


def offline(session: Session) -> LastKnown | None:
    """The LastKnown answering for `session`, when the database is unreachable; else None."""
    known = attached(session)
    return known if known is not None and session.info.get(_OFFLINE) else None


def remembered(session: Session, key: Hashable, load: Callable[[], T]) -> T:
    """`load()` (remembered when a LastKnown is attached), or, offline, what it returned last."""
    known = attached(session)
    if known is not None and session.info.get(_OFFLINE):
        return cast(T, known.recall(key))  # what `load` returned for this key
    value = load()
    if known is not None:
        known.remember(key, value)
    return value
