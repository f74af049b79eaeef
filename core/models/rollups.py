"""The dashboard's rollups: the call rows of one hour (UTC) summed per customer, campaign, target
and buyer, kept as calls are rated (core/rollups.py) so the dashboard never scans call rows."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Index, Integer
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk, money


def _count() -> Any:
    return Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))


class CallRollup(SQLModel, table=True):
    __tablename__ = "call_rollup"
    __table_args__ = (
        Index("ix_call_rollup_hour", "hour"),
        Index("ix_call_rollup_user_hour", "user_id", "hour"),
        Index("ix_call_rollup_buyer_hour", "buyer_id", "hour"),
    )

    id: int | None = big_pk()
    hour: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
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
    talk_seconds: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    converted: int = _count()
    spend: Decimal = money()
    payout: Decimal = money()
