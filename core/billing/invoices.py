"""Monthly invoices (domain.md, step 6): one per customer per calendar month, in the customer's
time zone, made from what the ledger recorded in that month.

Calls are grouped by destination country and rate prefix (with their re-rating adjustments),
number fees by number, and credits listed one by one; the opening and closing balances are the
ledger's own, so closing = opening + credits - calls - fees. An invoice is made once: running a
month again returns it unchanged.
"""

from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any, Literal
from zoneinfo import ZoneInfo

from sqlalchemy import Row, exists, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session

# pydantic (the API answers these) reads a TypedDict from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from core.billing import wallet
from core.billing.errors import MonthNotOver, NoSuchCustomer
from core.billing.periods import month_bounds, previous_month
from core.infra.db import session_scope
from core.models import Invoice, User, WalletTransaction
from core.values.enums import Role
from core.values.money import format_money, round_money

MINUTES = Decimal("0.01")


class CallLine(TypedDict):
    """The calls to one destination prefix, with their re-rating adjustments."""

    kind: Literal["calls"]
    country: str
    prefix: str
    calls: int
    minutes: str
    amount: str


class FeeLine(TypedDict):
    """A number's setup or monthly fees."""

    kind: Literal["number_setup", "number_monthly"]
    number: str
    count: int
    amount: str


class CreditLine(TypedDict):
    """One credit: a top-up, a refund or an adjustment that is no call's."""

    kind: Literal["topup", "refund", "adjustment"]
    date: str
    description: str
    amount: str


# An invoice's lines as stored (Invoice.lines, JSON) and answered; money as strings with 4 places.
InvoiceLine = CallLine | FeeLine | CreditLine


def invoice_number(user_id: int, month: date) -> str:
    return f"INV-{month:%Y%m}-{user_id}"


def generate_invoice(session: Session, user_id: int, month: date, now: datetime) -> tuple[Invoice, bool]:
    """The customer's invoice for `month` (any day of it), made if missing: (invoice, created).

    Raises NoSuchCustomer for anyone but a customer, and MonthNotOver while the month is still
    running in the customer's time zone. The caller commits.
    """
    user = wallet.customer(session, user_id)
    if user is None:
        raise NoSuchCustomer(user_id)
    existing = _find(session, user_id, month)
    if existing is not None:
        return existing, False
    start, end = month_bounds(month, user.timezone)
    if end > now:
        raise MonthNotOver(month, user.timezone)
    window = {"user": user_id, "start": start, "end": end}
    calls = [_call_line(r) for r in session.execute(_CALLS, window)]
    fees = [_fee_line(r) for r in session.execute(_FEES, window)]
    credits = [_credit_line(r, user.timezone) for r in session.execute(_CREDITS, window)]
    calls_total = sum((Decimal(line["amount"]) for line in calls), Decimal(0))
    fees_total = sum((Decimal(line["amount"]) for line in fees), Decimal(0))
    currency = wallet.currency(session, user)
    lines: list[InvoiceLine] = [*calls, *fees, *credits]
    values = {
        "user_id": user_id,
        "number": invoice_number(user_id, month),
        "period_start": start.date(),
        "period_end": end.date() - timedelta(days=1),
        "currency": currency,
        "opening_balance": _balance_before(session, user_id, start),
        "closing_balance": _balance_before(session, user_id, end),
        "calls_total": calls_total,
        "fees_total": fees_total,
        "topups_total": sum((Decimal(line["amount"]) for line in credits), Decimal(0)),
        "total": calls_total + fees_total,
        "lines": lines,
    }
    # Beat and an admin asking at the same moment: the unique (user, period) keeps one.
    created = session.scalar(insert(Invoice).values(values).on_conflict_do_nothing().returning(Invoice.id))
    invoice = _find(session, user_id, month)
    assert invoice is not None
    return invoice, created is not None


def generate_due(now: datetime) -> int:
    """Invoices for last month of every customer with ledger activity in it (the beat job, safe
    to run daily: months already invoiced are skipped). Returns how many were made."""
    with session_scope() as session:
        customers = session.execute(select(User.id, User.timezone).where(User.role == Role.CUSTOMER)).all()
    made = 0
    for user_id, timezone in customers:
        month = previous_month(now, timezone)
        start, end = month_bounds(month, timezone)
        with session_scope() as session:
            active = session.scalar(
                select(
                    exists().where(
                        WalletTransaction.user_id == user_id,
                        WalletTransaction.created_at >= start,
                        WalletTransaction.created_at < end,
                    )
                )
            )
            if active:
                made += generate_invoice(session, user_id, month, now)[1]
    return made


def _find(session: Session, user_id: int, month: date) -> Invoice | None:
    stmt = select(Invoice).where(Invoice.user_id == user_id, Invoice.period_start == month.replace(day=1))
    return session.scalars(stmt).first()


def _balance_before(session: Session, user_id: int, moment: datetime) -> Decimal:
    stmt = (
        select(WalletTransaction.balance_after)
        .where(WalletTransaction.user_id == user_id, WalletTransaction.created_at < moment)
        .order_by(WalletTransaction.created_at.desc(), WalletTransaction.id.desc())
        .limit(1)
    )
    return session.scalar(stmt) or round_money(Decimal(0))


_WINDOW = "w.user_id = :user AND w.created_at >= :start AND w.created_at < :end"
_CALLS = text(f"""
SELECT coalesce(co.name, 'Other') AS country, coalesce(r.prefix, '') AS prefix,
       count(*) FILTER (WHERE w.transaction_type = 'call') AS calls,
       coalesce(sum(c.billsec) FILTER (WHERE w.transaction_type = 'call'), 0) AS seconds,
       -sum(w.amount) AS amount
FROM wallet_transaction w
JOIN call c ON c.id = w.call_id
LEFT JOIN rate r ON r.id = c.rate_id
LEFT JOIN country co ON co.id = r.country_id
WHERE {_WINDOW} AND w.transaction_type IN ('call', 'adjustment')
GROUP BY 1, 2 ORDER BY 1, 2
""")
_FEES = text(f"""
SELECT coalesce(n.number, '') AS number, w.transaction_type AS kind, count(*) AS count,
       -sum(w.amount) AS amount
FROM wallet_transaction w
LEFT JOIN number n ON n.id = w.number_id
WHERE {_WINDOW} AND w.transaction_type IN ('number_setup', 'number_monthly')
GROUP BY 1, 2 ORDER BY 1, 2
""")
_CREDITS = text(f"""
SELECT w.created_at, w.transaction_type AS kind, w.description, w.amount
FROM wallet_transaction w
WHERE {_WINDOW}
  AND (w.transaction_type IN ('topup', 'refund') OR (w.transaction_type = 'adjustment' AND w.call_id IS NULL))
ORDER BY w.created_at, w.id
""")


# The rows of _CALLS, _FEES and _CREDITS: SQLAlchemy can't type a text query's rows.
def _call_line(row: Row[Any]) -> CallLine:
    minutes = (Decimal(row.seconds) / 60).quantize(MINUTES)
    return {
        "kind": "calls",
        "country": row.country,
        "prefix": row.prefix,
        "calls": row.calls,
        "minutes": str(minutes),
        "amount": format_money(row.amount),
    }


def _fee_line(row: Row[Any]) -> FeeLine:
    # `count` by name: `row.count` is the tuple's method to the type checker.
    count: int = row._mapping["count"]
    return {"kind": row.kind, "number": row.number, "count": count, "amount": format_money(row.amount)}


def _credit_line(row: Row[Any], timezone: str) -> CreditLine:
    return {
        "kind": row.kind,
        "date": row.created_at.astimezone(ZoneInfo(timezone)).date().isoformat(),
        "description": row.description,
        "amount": format_money(row.amount),
    }
