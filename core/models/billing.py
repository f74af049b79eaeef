"""Money: the append-only wallet ledger, credit reservations and invoices."""

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Column, Date, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk, created_at, fk, jsonb, money, string, timestamp
from core.values.enums import InvoiceStatus, TransactionType, sql_in


class WalletTransaction(SQLModel, table=True):
    """A ledger row. Credits are positive, debits negative; rows are never updated or deleted."""

    __tablename__ = "wallet_transaction"
    __table_args__ = (
        # A replayed debit (same kind, same source) is refused by the database itself.
        UniqueConstraint("transaction_type", "reference", name="uq_wallet_transaction_reference"),
        CheckConstraint(sql_in("transaction_type", TransactionType), name="transaction_type"),
        Index("ix_wallet_transaction_user_created", "user_id", "created_at"),
    )

    id: int | None = big_pk()
    user_id: int = fk("users.id", nullable=False, index=False)
    transaction_type: str = string(16)
    amount: Decimal = money(default=None)
    balance_after: Decimal = money(default=None)
    description: str = string(255, default="")
    reference: str = string(128)
    # No foreign key: a partitioned call table has no key on `id` alone, and the ledger outlives
    # the months of calls archived away (docs/reports.md, "Retention").
    call_id: int | None = Field(default=None, sa_column=Column(BigInteger, index=True))
    number_id: int | None = fk("number.id")
    created_by: int | None = fk("users.id", ondelete="SET NULL", index=False)
    # The administrator who caused the row while impersonating the wallet's owner (or its buyer).
    acting_admin_id: int | None = fk("users.id", ondelete="SET NULL", index=False)
    created_at: datetime = created_at()


class CreditReservation(SQLModel, table=True):
    """Credit held by a live call, in slices; released at hangup, expired if a crash left it."""

    __tablename__ = "credit_reservation"
    __table_args__ = (
        CheckConstraint("amount >= 0", name="reservation_amount"),
        Index("ix_credit_reservation_open", "user_id", postgresql_where="released_at IS NULL"),
    )

    id: int | None = big_pk()
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False, index=False)
    linkedid: str = string(64, unique=True)
    amount: Decimal = money()
    seconds: int = 0
    created_at: datetime = created_at()
    expires_at: datetime = timestamp(nullable=False)
    released_at: datetime | None = timestamp()


class Invoice(SQLModel, table=True):
    __tablename__ = "invoice"
    __table_args__ = (
        UniqueConstraint("user_id", "period_start", name="uq_invoice_user_period"),
        CheckConstraint(sql_in("status", InvoiceStatus), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", nullable=False)
    number: str = string(32, unique=True)
    period_start: date = Field(sa_column=Column(Date, nullable=False))
    period_end: date = Field(sa_column=Column(Date, nullable=False))
    currency: str = string(3, default="USD")
    opening_balance: Decimal = money()
    closing_balance: Decimal = money()
    calls_total: Decimal = money()
    fees_total: Decimal = money()
    topups_total: Decimal = money()
    total: Decimal = money()
    # Calls grouped by destination, fees and top-ups, as shown on the PDF (core.billing.invoices.InvoiceLine).
    lines: list[Any] = jsonb()
    status: str = string(16, default=InvoiceStatus.ISSUED.value)
    created_at: datetime = created_at()
