"""Prices: tariffs and their rate-card entries."""

from datetime import datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, Column, DateTime, Index, UniqueConstraint, func
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, money, string
from core.values.enums import Status, sql_in


class Tariff(SQLModel, table=True):
    __tablename__ = "tariff"
    __table_args__ = (
        CheckConstraint(sql_in("status", Status), name="status"),
        CheckConstraint("currency ~ '^[A-Z]{3}$'", name="currency"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = string(120, unique=True)
    currency: str = string(3, default="USD")
    description: str | None = string(500, nullable=True)
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()


class Rate(SQLModel, table=True):
    """Price of calls to a destination prefix, in force from `effective_from` (I/N increments)."""

    __tablename__ = "rate"
    __table_args__ = (
        UniqueConstraint("tariff_id", "prefix", "effective_from", name="uq_rate_prefix_from"),
        Index("ix_rate_lookup", "tariff_id", "prefix"),
        CheckConstraint("prefix ~ '^[0-9]{1,15}$'", name="prefix"),
        CheckConstraint("rate_per_minute >= 0 AND connection_fee >= 0", name="money"),
        CheckConstraint("initial_increment > 0 AND billing_increment > 0", name="increments"),
        CheckConstraint("min_duration >= 0", name="min_duration"),
        CheckConstraint(sql_in("status", Status), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tariff_id: int = fk("tariff.id", ondelete="CASCADE", nullable=False, index=False)
    country_id: int | None = fk("country.id")
    prefix: str = string(15)
    rate_per_minute: Decimal = money()
    connection_fee: Decimal = money()
    initial_increment: int = 60
    billing_increment: int = 60
    min_duration: int = 0
    effective_from: datetime = Field(
        sa_column=Column(DateTime(timezone=True), nullable=False, server_default=func.now())
    )
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()
