"""Monthly number fees (domain.md, step 6).

A number is paid up to `paid_until`; on that anniversary its owner is charged the monthly fee
(reference `number:{id}:monthly:{period start}`, so a period is charged once however often the
job runs) and `paid_until` moves to the next anniversary. An owner who can't pay gets the number
suspended (it routes nothing) and a notice; a top-up settles what is due and brings it back.
"""

from datetime import datetime

from sqlalchemy import select
from sqlmodel import Session

from core.billing import notices, wallet
from core.billing.errors import InsufficientFunds
from core.billing.periods import next_anniversary
from core.infra.db import session_scope
from core.models import Number, User
from core.values.enums import NumberStatus, TransactionType
from core.values.money import money_text


def charge_number(session: Session, number_id: int, now: datetime) -> None:
    """Charge every period of one number that fell due by `now`, suspending it when the owner
    can't pay and restoring it once everything due is paid. The caller commits."""
    owner = session.scalar(select(Number.user_id).where(Number.id == number_id))
    if owner is None:
        return
    # The owner is locked before the number, the order a top-up takes them in (credit, then fees).
    session.execute(select(User.id).where(User.id == owner).with_for_update())
    stmt = select(Number).where(Number.id == number_id).with_for_update()
    number = session.scalars(stmt.execution_options(populate_existing=True)).first()
    if number is None or number.user_id != owner or number.paid_until is None:
        return
    anchor = number.assigned_at or number.paid_until
    while number.paid_until <= now:
        start = number.paid_until
        end = next_anniversary(anchor, start)
        if number.monthly_fee > 0:
            try:
                wallet.post(
                    session,
                    user_id=number.user_id,
                    kind=TransactionType.NUMBER_MONTHLY,
                    amount=-number.monthly_fee,
                    reference=f"number:{number.id}:monthly:{start.date().isoformat()}",
                    description=f"Monthly fee for {number.number}, {start:%Y-%m-%d} to {end:%Y-%m-%d}",
                    require_funds=True,
                    number_id=number.id,
                )
            except InsufficientFunds as short:
                _suspend(session, number, start, short)
                return
        number.paid_until = end
        session.add(number)
    if number.status == NumberStatus.SUSPENDED:
        number.status = NumberStatus.ACTIVE.value
        session.add(number)
        notices.notify(
            session,
            [number.user_id],
            f"Number {number.number} is active again: its monthly fee is paid.",
            f"number:{number.id}:restored:{now.isoformat()}",
        )
    session.flush()


def charge_due(now: datetime, user_id: int | None = None) -> int:
    """Charge every assigned number due by `now` (of one owner when given), a transaction each,
    so one owner's shortfall never holds up the others. Returns how many numbers were looked at."""
    with session_scope() as session:
        ids = due_numbers(session, now, user_id)
    for number_id in ids:
        with session_scope() as session:
            charge_number(session, number_id, now)
    return len(ids)


def settle(session: Session, user_id: int, now: datetime) -> None:
    """After a top-up: pay what the owner's numbers owe, in the caller's transaction (so a
    suspended number is back the moment the credit is)."""
    for number_id in due_numbers(session, now, user_id):
        charge_number(session, number_id, now)


def due_numbers(session: Session, now: datetime, user_id: int | None = None) -> list[int]:
    stmt = select(Number.id).where(Number.user_id.is_not(None), Number.paid_until <= now)
    if user_id is not None:
        stmt = stmt.where(Number.user_id == user_id)
    return list(session.scalars(stmt.order_by(Number.id)))


def _suspend(session: Session, number: Number, start: datetime, short: InsufficientFunds) -> None:
    if number.status == NumberStatus.SUSPENDED:
        return
    number.status = NumberStatus.SUSPENDED.value
    session.add(number)
    notices.notify(
        session,
        [number.user_id or 0],
        f"Number {number.number} is suspended and takes no calls: its monthly fee of "
        f"{money_text(short.needed)} is more than your balance ({money_text(short.balance)}). "
        "Top up and it comes back at once.",
        f"number:{number.id}:suspended:{start.date().isoformat()}",
    )
    session.flush()
