"""Wallet top-ups by an admin: a ledger credit with a note, made once per reference.

The credit also settles, in the same transaction, the monthly fees the customer's numbers owe
(core.billing.fees): a number suspended for an unpaid fee is back the moment the money is.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import select
from sqlmodel import Session

from core.billing import fees, wallet
from core.billing.errors import NoSuchCustomer, ReferenceTaken, TooPrecise
from core.models import User, WalletTransaction
from core.values.enums import TransactionType
from core.values.money import minor_unit_problem


@dataclass(frozen=True)
class TopUp:
    row: WalletTransaction
    customer: User
    credited: bool  # False: this reference was credited before and nothing changed now


def top_up(
    session: Session,
    *,
    user_id: int,
    amount: Decimal,
    reference: str | None,
    note: str,
    by: int | None,
    now: datetime,
) -> TopUp:
    """Credit a customer's wallet and settle what their numbers owe; the caller commits.

    `reference` is the idempotency key (a random one when None): the same key again answers with
    the credit already made. Raises NoSuchCustomer, TooPrecise (more places than the currency's
    minor unit), and ReferenceTaken when the key credited
    another customer.
    """
    customer = wallet.customer(session, user_id)
    if customer is None:
        raise NoSuchCustomer(user_id)
    if problem := minor_unit_problem(amount, wallet.currency(session, customer)):
        raise TooPrecise(problem)
    reference = reference or uuid.uuid4().hex
    row = wallet.post(
        session,
        user_id=user_id,
        kind=TransactionType.TOPUP,
        amount=amount,
        reference=reference,
        description=note or "Top-up",
        created_by=by,
    )
    if row is None:
        row = session.scalars(
            select(WalletTransaction).where(
                WalletTransaction.transaction_type == TransactionType.TOPUP.value,
                WalletTransaction.reference == reference,
            )
        ).one()
        if row.user_id != user_id:
            raise ReferenceTaken()
        return TopUp(row, customer, credited=False)
    fees.settle(session, user_id, now)
    return TopUp(row, customer, credited=True)
