"""The wallet ledger: append-only rows, and the cached balance moved in the same transaction."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import cast

from psycopg import Connection
from psycopg.errors import UniqueViolation
from psycopg.rows import TupleRow
from sqlalchemy import text
from sqlmodel import Session, select

from core.billing import notices
from core.billing.errors import InsufficientFunds
from core.infra.settings import get_settings
from core.models import Tariff, User, WalletTransaction
from core.models.columns import utcnow
from core.values.enums import Role, TransactionType
from core.values.money import round_money


def customer(session: Session, user_id: int) -> User | None:
    """The user with this id when it is a customer: only customers have a wallet to bill."""
    user = session.get(User, user_id)
    return user if user is not None and user.role == Role.CUSTOMER else None


def currency(session: Session, user: User) -> str:
    """The wallet's currency: its tariff's (USD without one)."""
    return session.scalar(select(Tariff.currency).where(Tariff.id == user.tariff_id)) or "USD"


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
    balance can't cover raises InsufficientFunds and changes nothing. A debit that takes the
    balance below the low-balance threshold notifies the user once (see `_low_balance`). The
    caller commits.
    """
    amount = round_money(amount)
    # populate_existing: a User already loaded in this session (the caller, say) must be refreshed
    # with the locked row, or the balance read here could be stale and a concurrent post lost.
    user = session.exec(
        select(User).where(User.id == user_id).with_for_update().execution_options(populate_existing=True)
    ).one()
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
    user.low_balance_notified_at = _low_balance(
        session, user_id, balance, amount < 0, user.low_balance_notified_at
    )
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


@dataclass(frozen=True)
class Entry:
    """One ledger row for post_many (credit > 0, debit < 0)."""

    user_id: int
    kind: TransactionType
    amount: Decimal
    reference: str
    description: str = ""
    call_id: int | None = None
    number_id: int | None = None


_LOCK_USERS = text(
    "SELECT id, balance, low_balance_notified_at FROM users WHERE id = ANY(:ids) ORDER BY id FOR UPDATE"
)
_COPY = (
    "COPY wallet_transaction (user_id, transaction_type, amount, balance_after, description, reference,"
    " call_id, number_id, created_at) FROM STDIN"
)
_POSTED = text(
    "SELECT transaction_type, reference FROM wallet_transaction"
    " WHERE transaction_type = ANY(:kinds) AND reference = ANY(:references)"
)
_MOVE_BALANCES = text(
    "UPDATE users u SET balance = d.balance, low_balance_notified_at = d.notified_at"
    " FROM unnest(CAST(:ids AS int[]), CAST(:balances AS numeric[]), CAST(:notified AS timestamptz[]))"
    " AS d(id, balance, notified_at) WHERE u.id = d.id"
)


def post_many(session: Session, entries: Sequence[Entry]) -> int:
    """post() for batch jobs: the same rules, a few statements for the whole batch.

    The users are locked in id order (two batches can't deadlock) and the rows are streamed in
    with COPY, each balance moving once, all in the caller's transaction. A (kind, reference)
    repeated in the batch counts once. The unique index is the "posted before?" check: when a
    replayed batch trips it, the COPY is undone to a savepoint and redone without the rows already
    in the ledger, so balance_after always follows. ORM User objects already loaded in `session`
    are not refreshed. Returns how many rows were appended.
    """
    unique: dict[tuple[str, str], Entry] = {}
    for e in entries:
        unique.setdefault((e.kind.value, e.reference), e)
    if not unique:
        return 0
    session.flush()
    users = session.execute(_LOCK_USERS, {"ids": sorted({e.user_id for e in unique.values()})}).all()
    while True:
        batch = list(unique.values())
        balances = {u.id: u.balance for u in users}
        rows, now = [], utcnow()
        for e in batch:
            amount = round_money(e.amount)
            balances[e.user_id] += amount
            rows.append((e.user_id, e.kind.value, amount, balances[e.user_id], e.description, e.reference))
        try:
            with session.begin_nested():
                raw = cast(
                    Connection[TupleRow], session.connection().connection.driver_connection
                )  # psycopg 3
                with raw.cursor() as cursor, cursor.copy(_COPY) as copy:
                    for row, e in zip(rows, batch, strict=True):
                        copy.write_row((*row, e.call_id, e.number_id, now))
            break
        except UniqueViolation:
            kinds, references = sorted({k for k, _ in unique}), [r for _, r in unique]
            posted = [tuple(k) for k in session.execute(_POSTED, {"kinds": kinds, "references": references})]
            if not posted:
                raise
            for key in posted:
                unique.pop(key, None)
            if not unique:
                return 0
    debited = {e.user_id for e in batch if e.amount < 0}
    moved = [u for u in users if balances[u.id] != u.balance]
    notified = [
        _low_balance(session, u.id, balances[u.id], u.id in debited, u.low_balance_notified_at) for u in moved
    ]
    session.execute(
        _MOVE_BALANCES,
        {"ids": [u.id for u in moved], "balances": [balances[u.id] for u in moved], "notified": notified},
    )
    return len(batch)


def _low_balance(
    session: Session, user_id: int, balance: Decimal, debit: bool, notified_at: datetime | None
) -> datetime | None:
    """The user's new `low_balance_notified_at`: one notice when a debit crosses below the
    threshold, cleared once the balance is back at or above it (so one notice per dip, not per call)."""
    threshold = Decimal(str(get_settings().low_balance_threshold))
    if balance >= threshold:
        return None
    if notified_at is None and debit:
        now = utcnow()
        notices.low_balance(session, user_id, balance, threshold, now)
        return now
    return notified_at
