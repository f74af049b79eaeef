"""Rows billing works on (tariffs, rates, customers, campaigns, targets, ended calls), written
straight to the database, and read-backs of what a customer would see (balance, ledger)."""

import itertools
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlmodel import SQLModel

from core.billing.wallet import post
from core.db import session_scope
from core.enums import Disposition, Role, TransactionType
from core.models import Buyer, Call, Campaign, Notification, Rate, Target, Tariff, User, WalletTransaction
from core.routing.customer import read_customer

M = TypeVar("M", bound=SQLModel)

JAN = datetime(2026, 1, 1, tzinfo=UTC)
MAR = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
_serial = itertools.count(1)


def save(row: M) -> M:
    with session_scope() as s:
        s.add(row)
    return row


def tariff(*rates: tuple[str, str], increments: tuple[int, int] = (60, 60), **fields: Any) -> int:
    """A tariff with (prefix, rate per minute) entries in force from January 2026."""
    t = save(Tariff(name=f"Tariff {next(_serial)}"))
    for prefix, per_minute in rates:
        rate(t.id or 0, prefix, per_minute, increments=increments, **fields)
    return t.id or 0


def rate(
    tariff_id: int,
    prefix: str,
    per_minute: str,
    effective_from: datetime = JAN,
    increments: tuple[int, int] = (60, 60),
    **fields: Any,
) -> int:
    row = Rate(
        tariff_id=tariff_id,
        prefix=prefix,
        rate_per_minute=Decimal(per_minute),
        effective_from=effective_from,
        initial_increment=increments[0],
        billing_increment=increments[1],
        **fields,
    )
    return save(row).id or 0


def customer(balance: str = "0", tariff_id: int | None = None, name: str | None = None, **fields: Any) -> int:
    name = name or f"Customer {next(_serial)}"
    email = f"{name.lower().replace(' ', '.')}@example.com"
    user = save(
        User(
            email=email, password_hash="unused", name=name, role=Role.CUSTOMER, tariff_id=tariff_id, **fields
        )
    )
    if Decimal(balance):
        top_up(user.id or 0, balance)
    return user.id or 0


def admin() -> int:
    n = next(_serial)
    return (
        save(
            User(email=f"admin{n}@example.com", password_hash="unused", name=f"Admin {n}", role=Role.ADMIN)
        ).id
        or 0
    )


def top_up(user_id: int, amount: str) -> None:
    with session_scope() as s:
        post(
            s,
            user_id=user_id,
            kind=TransactionType.TOPUP,
            amount=Decimal(amount),
            reference=f"t{next(_serial)}",
        )


def campaign_with_target(user_id: int, buffer_seconds: int = 60, payout: str = "5") -> tuple[int, int]:
    """(campaign id, target id) of a campaign whose target pays `payout` per converted call."""
    c = save(Campaign(user_id=user_id, name=f"Campaign {next(_serial)}", buffer_seconds=buffer_seconds))
    b = save(Buyer(user_id=user_id, name="Buyer"))
    t = save(
        Target(
            user_id=user_id, buyer_id=b.id, name="Target", destination="+14155550100", payout=Decimal(payout)
        )
    )
    return c.id or 0, t.id or 0


def call(
    user_id: int | None,
    billsec: int,
    destination: str | None = "+447911123456",
    started_at: datetime = MAR,
    **fields: Any,
) -> int:
    """An ended call as the bridge writes it at hangup (talk time = billsec unless given)."""
    answered = billsec > 0
    fields.setdefault("talk_seconds", billsec)
    if answered:
        fields.setdefault("connected_at", started_at + timedelta(seconds=5))
    row = Call(
        linkedid=f"{1700000000 + next(_serial)}.1",
        user_id=user_id,
        did="+442071838750",
        caller="+447700900123",
        destination=destination,
        started_at=started_at,
        answered_at=started_at + timedelta(seconds=5) if answered else None,
        ended_at=started_at + timedelta(seconds=5 + billsec),
        duration=5 + billsec,
        billsec=billsec,
        disposition=(Disposition.ANSWERED if answered else Disposition.NO_ANSWER).value,
        **fields,
    )
    return save(row).id or 0


def get(model: type[M], row_id: int) -> M:
    with session_scope() as s:
        row = s.get(model, row_id)
        assert row is not None
        return row


def balance(user_id: int) -> Decimal:
    return get(User, user_id).balance


def available(user_id: int) -> Decimal:
    """What a new call may count on, as routing reads it (balance less live holds)."""
    with session_scope() as s:
        found = read_customer(s, user_id, "+447911123456")
        assert found is not None
        return found.available


def ledger(user_id: int | None = None, kind: TransactionType | None = None) -> list[WalletTransaction]:
    stmt = select(WalletTransaction).order_by(WalletTransaction.id)
    if user_id is not None:
        stmt = stmt.where(WalletTransaction.user_id == user_id)
    if kind is not None:
        stmt = stmt.where(WalletTransaction.transaction_type == kind.value)
    with session_scope() as s:
        return list(s.scalars(stmt))


def notices(user_id: int) -> list[str]:
    with session_scope() as s:
        return list(
            s.scalars(
                select(Notification.text).where(Notification.user_id == user_id).order_by(Notification.id)
            )
        )


def count(model: type[SQLModel], *where: Any) -> int:
    with session_scope() as s:
        return int(s.scalar(select(func.count()).select_from(model).where(*where)) or 0)
