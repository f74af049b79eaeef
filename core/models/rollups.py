"""The dashboard's rollups: the call rows of one hour (UTC) summed per customer, campaign, target
and buyer, and the hours of one UTC day summed again, kept as calls are rated (core/rollups.py) so
the dashboard never scans call rows."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Index, Integer
from sqlmodel import Field, SQLModel

from core.models.columns import MONEY, big_pk


# Columns by type (sa_type, not sa_column): each table of the two levels gets columns of its own.
def _count(kind: type[Integer] = Integer) -> Any:
    return Field(default=0, sa_type=kind, nullable=False, sa_column_kwargs={"server_default": "0"})


def _money() -> Any:
    return Field(
        default=Decimal("0"), sa_type=MONEY, nullable=False, sa_column_kwargs={"server_default": "0"}
    )


class RollupSums(SQLModel):
    """The keys and measures both levels share."""

    # The call row's own keys (no foreign keys: a rollup is derived, rebuilt from the calls).
    user_id: int | None = None
    campaign_id: int | None = None
    target_id: int | None = None
    buyer_id: int | None = None
    calls: int = _count()
    # One count per disposition (core.enums.Disposition), named as its member in lower case.
    answered: int = _count()
    no_answer: int = _count()
    busy: int = _count()
    failed: int = _count()
    no_route: int = _count()
    blocked: int = _count()
    no_balance: int = _count()
    duplicate: int = _count()
    ivr_failed: int = _count()
    talk_seconds: int = _count(BigInteger)
    converted: int = _count()
    spend: Decimal = _money()
    payout: Decimal = _money()


class CallRollup(RollupSums, table=True):
    __tablename__ = "call_rollup"
    __table_args__ = (
        Index("ix_call_rollup_hour", "hour"),
        Index("ix_call_rollup_user_hour", "user_id", "hour"),
        Index("ix_call_rollup_buyer_hour", "buyer_id", "hour"),
    )

    id: int | None = big_pk()
    hour: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class CallRollupDay(RollupSums, table=True):
    """The hourly rollups of one UTC day (`day` its midnight) summed: a month is 30 of these per
    key instead of 720 hours."""

    __tablename__ = "call_rollup_day"
    __table_args__ = (
        Index("ix_call_rollup_day_day", "day"),
        Index("ix_call_rollup_day_user_day", "user_id", "day"),
        Index("ix_call_rollup_day_buyer_day", "buyer_id", "day"),
    )

    id: int | None = big_pk()
    day: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
