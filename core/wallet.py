"""The wallet ledger: append-only rows, and the cached balance moved in the same transaction."""

from decimal import Decimal

from sqlmodel import Session, select

from core.enums import TransactionType
from core.models import User, WalletTransaction
from core.money import round_money


class InsufficientFunds(Exception):
    def __init__(self, balance: Decimal, needed: Decimal) -> None:
        super().__init__(f"balance {balance} does not cover {needed}")
        self.balance = balance
        self.needed = needed


def post(
    session: Session,
    *,
    user_id: int,
    kind: TransactionType,
    amount: Decimal,
    reference: str,
    description: str = "",
    require_funds: bool = False,
    created_by: int | None = None,
    call_id: int | None = None,
    number_id: int | None = None,
) -> WalletTransaction | None:
    """Append one ledger row (credit > 0, debit < 0) and move the user's balance with it.

    The user row is locked first, so concurrent posts to one wallet apply one after another and
    never lose an update. A (kind, reference) already posted is a no-op that returns None: a
    replayed task or a double click can't charge twice. With `require_funds`, a debit the
    balance can't cover raises InsufficientFunds and changes nothing. The caller commits.
    """
    amount = round_money(amount)
    user = session.exec(select(User).where(User.id == user_id).with_for_update()).one()
    already = session.exec(
        select(WalletTransaction.id).where(
            WalletTransaction.transaction_type == kind.value, WalletTransaction.reference == reference
        )
    ).first()
    if already is not None:
        return None
    balance = user.balance + amount
    if require_funds and amount < 0 and balance < 0:
        raise InsufficientFunds(user.balance, -amount)
    user.balance = balance
    row = WalletTransaction(
        user_id=user_id,
        transaction_type=kind.value,
        amount=amount,
        balance_after=balance,
        description=description,
        reference=reference,
        created_by=created_by,
        call_id=call_id,
        number_id=number_id,
    )
    session.add(user)
    session.add(row)
    session.flush()
    return row
