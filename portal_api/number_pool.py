"""Handing pool numbers to customers and taking them back: row locks, setup fees, paid-until dates."""

import calendar
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Select, select
from sqlmodel import Session

from core.billing import credit, wallet
from core.enums import NumberStatus, TransactionType
from core.models import Number, User
from core.money import format_money
from portal_api.errors import ApiError


def add_month(moment: datetime) -> datetime:
    """The same day next month, clipped to that month's end (31 January -> 28/29 February)."""
    year, month = moment.year + moment.month // 12, moment.month % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def lock(session: Session, stmt: Select[Any], skip_locked: bool = False) -> list[Number]:
    """The numbers `stmt` selects, locked until commit in id order (no deadlocks between takers).

    Rows are re-read, so a change another request committed while this one waited is seen.
    """
    stmt = stmt.order_by(Number.id).with_for_update(skip_locked=skip_locked)
    return list(session.scalars(stmt.execution_options(populate_existing=True)))


def refuse_unless_free(numbers: list[Number], ids: list[int]) -> None:
    """409 naming every id that is not an active pool number (unknown, taken or inactive alike)."""
    free = {n.id for n in numbers if n.user_id is None and n.status == NumberStatus.ACTIVE}
    gone = [str(i) for i in ids if i not in free]
    if gone:
        message = f"Number(s) {', '.join(gone)} are not free in the pool any more; pick others."
        raise ApiError(409, message, {"number_ids": [message]})


def assign(session: Session, numbers: list[Number], owner_id: int, by: int | None) -> Decimal:
    """Charge each number's setup fee to the owner and hand the numbers over; the caller commits.

    The whole set is refused (402, nothing changed) when the available balance (balance minus
    what live calls hold) can't cover the total. Returns the total charged.
    """
    total = sum((n.setup_fee for n in numbers), Decimal(0))
    # Locked and re-read before the check, so two purchases by one wallet queue instead of both passing.
    owner = session.scalars(
        select(User).where(User.id == owner_id).with_for_update().execution_options(populate_existing=True)
    ).one()
    available = owner.balance - credit.reserved(session, owner_id)
    if available < total:
        raise ApiError(
            402,
            f"The available balance ({format_money(available)}) does not cover the setup fees "
            f"({format_money(total)}); top up at least {format_money(total - available)} first.",
        )
    now = datetime.now(UTC)
    for number in numbers:
        if number.setup_fee > 0:
            wallet.post(
                session,
                user_id=owner_id,
                kind=TransactionType.NUMBER_SETUP,
                amount=-number.setup_fee,
                reference=f"number:{number.id}:setup:{now.isoformat()}",
                description=f"Setup fee for {number.number}",
                require_funds=True,
                created_by=by,
                number_id=number.id,
            )
        number.user_id = owner_id
        number.assigned_at = now
        number.paid_until = add_month(now)
        session.add(number)
    return total


def release(session: Session, numbers: list[Number]) -> None:
    """Back to the pool, unlinked from its campaign; the ledger keeps what was paid."""
    for number in numbers:
        number.user_id = None
        number.campaign_id = None
        number.assigned_at = None
        number.paid_until = None
        session.add(number)
