"""Number purchases: a customer takes (or an admin gives) pool numbers, paying their setup fees.

All or nothing: the set is refused when the available balance (balance less what live calls
hold) can't cover the total. A bought number is paid for a month; core.billing.fees charges the
months after.
"""

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import select
from sqlmodel import Session

from core.billing import credit, wallet
from core.billing.errors import InsufficientFunds
from core.billing.periods import add_months
from core.models import Number, User
from core.values.enums import TransactionType


def buy(session: Session, numbers: list[Number], owner_id: int, by: int | None) -> Decimal:
    """Charge each number's setup fee to the owner and hand the numbers over; the caller commits.

    Raises InsufficientFunds (nothing changed) when the available balance can't cover the total.
    Returns the total charged.
    """
    total = sum((n.setup_fee for n in numbers), Decimal(0))
    # Locked and re-read before the check, so two purchases by one wallet queue instead of both passing.
    owner = session.scalars(
        select(User).where(User.id == owner_id).with_for_update().execution_options(populate_existing=True)
    ).one()
    available = owner.balance - credit.reserved(session, owner_id)
    if available < total:
        raise InsufficientFunds(available, total, "the setup fees")
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
        number.paid_until = add_months(now, 1)
        session.add(number)
    return total
