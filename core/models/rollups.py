"""The dashboard's rollups: the call rows of one hour (UTC) summed per customer, campaign, target
and buyer, kept as calls are rated (core/rollups.py) so the dashboard never scans call rows."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Index, Integer
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk, money, string


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


class CallRegionRollup(SQLModel, table=True):
    """The rated calls of one UTC hour summed per customer, campaign and caller origin (country,
    region, line type: core.caller_origin), for the dashboard's breakdown by region (docs/regions.md).
    Kept beside `call_rollup`, in the same refresh and rebuild (core/region_rollups.py)."""

    __tablename__ = "call_region_rollup"
    __table_args__ = (
        Index("ix_call_region_rollup_hour", "hour"),
        Index("ix_call_region_rollup_user_hour", "user_id", "hour"),
    )

    id: int | None = big_pk()
    hour: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    user_id: int | None = None
    campaign_id: int | None = None
    # Null for calls recorded before origins were read.
    caller_country: str | None = string(8, nullable=True)
    caller_region: str | None = string(500, nullable=True)
    caller_line_type: str | None = string(8, nullable=True)
    calls: int = _count()
    answered: int = _count()
    converted: int = _count()
    talk_seconds: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    spend: Decimal = money()
    payout: Decimal = money()
