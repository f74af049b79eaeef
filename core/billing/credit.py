"""Credit: what a customer can still spend while calls are live (domain.md, Money).

A live call holds credit in slices: `reserve` at answer, `extend` before the slice runs out,
and the hold ends when the call is rated (`core.billing.rating` releases it in the transaction
that debits the real cost) or, if a crash left it, when it expires. Both `reserve` and `extend`
lock the user row, as wallet posts do, so parallel calls can never hold more than the balance.
"""

import dataclasses
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlalchemy import ARRAY, Connection, String, any_, bindparam, cast, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session

from core.billing.pricing import Price, call_cost
from core.models import CreditReservation, User

SLICE_SECONDS = 60
# A bridge that stops extending (it crashed) lets its hold lapse this long after the time it covered.
GRACE = timedelta(seconds=30)


# Credit held by `user_id`'s live calls at `now`. Built once: every call's credit check runs it
# (inside the customer read of core.routing.customer).
RESERVED = select(func.coalesce(func.sum(CreditReservation.amount), 0)).where(
    CreditReservation.user_id == bindparam("user_id"),
    CreditReservation.released_at.is_(None),
    CreditReservation.expires_at > bindparam("now"),
)


def reserved(session: Session, user_id: int) -> Decimal:
    """Credit held by the customer's live calls (open, unexpired reservations)."""
    total = session.scalar(RESERVED, {"user_id": user_id, "now": datetime.now(UTC)})
    return Decimal(total or 0)


def reserve(
    session: Session, user_id: int, linkedid: str, price: Price, seconds: int = SLICE_SECONDS
) -> CreditReservation | None:
    """Hold credit for the first `seconds` of an answered call; None when not even the first
    billable block fits in the available balance (the bridge warns and hangs up).

    When only part of the slice fits, the hold covers what fits: `seconds` on the returned row
    is the talk time covered from answer, when the bridge must extend or hang up. Calling again
    for the same linkedid returns the open hold unchanged. The caller commits.
    """
    user = _lock_user(session, user_id)
    if user is None:
        return None
    existing = _reservation(session, linkedid)
    if existing is not None:
        return None if existing.released_at else existing
    covered = _fit(price, user.balance - reserved(session, user_id), 0, seconds)
    if covered == 0:
        return None
    now = datetime.now(UTC)
    row = CreditReservation(
        user_id=user_id,
        linkedid=linkedid,
        amount=_hold(price, covered),
        seconds=covered,
        created_at=now,
        expires_at=now + timedelta(seconds=covered) + GRACE,
    )
    session.add(row)
    session.flush()
    return row


def extend(
    session: Session, linkedid: str, price: Price, seconds: int = SLICE_SECONDS
) -> CreditReservation | None:
    """Hold up to `seconds` more talk time for a live call; None when nothing more fits (or the
    hold was already released), so the bridge warns and hangs up. The caller commits."""
    user_id = session.scalar(select(CreditReservation.user_id).where(CreditReservation.linkedid == linkedid))
    user = _lock_user(session, user_id) if user_id is not None else None
    row = _reservation(session, linkedid, lock=True) if user is not None else None
    if user is None or row is None or row.released_at is not None:
        return None
    # The credit free for this call: the balance less every other open hold (this one counts in
    # `reserved` only while unexpired).
    free = user.balance - reserved(session, user.id or 0)
    if row.expires_at > datetime.now(UTC):
        free += row.amount
    covered = _fit(price, free, row.seconds, row.seconds + seconds)
    if covered == row.seconds:
        return None
    row.amount = _hold(price, covered)
    row.seconds = covered
    row.expires_at = row.created_at + timedelta(seconds=covered) + GRACE
    session.add(row)
    session.flush()
    return row


@dataclasses.dataclass(frozen=True)
class OfflineHold:
    """A call's hold taken while PostgreSQL was away (the bridge's journal), as it stood last."""

    linkedid: str
    user_id: int
    amount: Decimal
    seconds: int
    created_at: datetime
    expires_at: datetime

    def extended(self, amount: Decimal, seconds: int) -> "OfflineHold":
        expires = self.created_at + timedelta(seconds=seconds) + GRACE
        return dataclasses.replace(self, amount=amount, seconds=seconds, expires_at=expires)


def offline_hold(
    user_id: int, linkedid: str, price: Price, free: Decimal, seconds: int = SLICE_SECONDS
) -> OfflineHold | None:
    """The first slice `reserve` would hold with `free` credit; None when no billable block fits."""
    covered = _fit(price, free, 0, seconds)
    if covered == 0:
        return None
    now = datetime.now(UTC)
    return OfflineHold(
        linkedid, user_id, _hold(price, covered), covered, now, now + timedelta(seconds=covered) + GRACE
    )


def offline_extend(
    hold: OfflineHold, price: Price, free: Decimal, seconds: int = SLICE_SECONDS
) -> OfflineHold | None:
    """`extend` on an offline hold: `free` is the credit besides this hold; None when no more fits."""
    covered = _fit(price, free + hold.amount, hold.seconds, hold.seconds + seconds)
    return None if covered == hold.seconds else hold.extended(_hold(price, covered), covered)


def restore_holds(conn: Connection, holds: list[OfflineHold]) -> None:
    """Write holds taken offline (idempotent): a hold already there grows to this one unless it was
    released (rated) meanwhile, which it stays."""
    if not holds:
        return
    stmt = insert(CreditReservation)
    stmt = stmt.on_conflict_do_update(
        index_elements=["linkedid"],
        set_={
            "amount": stmt.excluded.amount,
            "seconds": stmt.excluded.seconds,
            "expires_at": stmt.excluded.expires_at,
        },
        where=CreditReservation.released_at.is_(None) & (CreditReservation.seconds <= stmt.excluded.seconds),
    )
    conn.execute(stmt, [dataclasses.asdict(hold) for hold in holds])


def release(session: Session, linkedid: str) -> bool:
    """End a call's hold (idempotent); True when an open hold was released. The caller commits."""
    return release_many(session, [linkedid]) == 1


def release_many(session: Session, linkedids: list[str]) -> int:
    """End the holds of these calls (a rating batch); returns how many were still open."""
    result = session.exec(
        update(CreditReservation)
        .where(
            CreditReservation.linkedid == any_(cast(linkedids, ARRAY(String))),
            CreditReservation.released_at.is_(None),
        )
        .values(released_at=datetime.now(UTC))
    )
    return int(result.rowcount)


def release_expired(session: Session) -> int:
    """Close holds whose time ran out (left by a crash); they already stopped counting in `reserved`."""
    now = datetime.now(UTC)
    result = session.exec(
        update(CreditReservation)
        .where(CreditReservation.released_at.is_(None), CreditReservation.expires_at <= now)
        .values(released_at=now)
    )
    return int(result.rowcount)


def held_for(price: Price, seconds: int) -> Decimal:
    """What a hold of `seconds` of talk at `price` amounts to."""
    return _hold(price, seconds)


def _hold(price: Price, seconds: int) -> Decimal:
    """What `seconds` of talk will cost; the minimum duration is ignored, as a held call may pass it."""
    return call_cost(seconds, dataclasses.replace(price, min_duration=0))


def _fit(price: Price, free: Decimal, floor: int, ceiling: int) -> int:
    """The most seconds in (floor, ceiling] whose hold fits in `free`; `floor` when none does."""
    low, high = floor, ceiling
    while low < high:  # the hold only grows with the seconds: binary search
        middle = (low + high + 1) // 2
        if _hold(price, middle) <= free:
            low = middle
        else:
            high = middle - 1
    return low


def _lock_user(session: Session, user_id: int) -> User | None:
    stmt = select(User).where(User.id == user_id).with_for_update()
    return session.scalars(stmt.execution_options(populate_existing=True)).first()


def _reservation(session: Session, linkedid: str, lock: bool = False) -> CreditReservation | None:
    stmt = select(CreditReservation).where(CreditReservation.linkedid == linkedid)
    if lock:
        stmt = stmt.with_for_update()
    return session.scalars(stmt.execution_options(populate_existing=True)).first()
