"""The dashboard's rollups: the call rows of one hour (UTC) summed per customer, campaign, target
and buyer, and the hours of one UTC day summed again, kept as calls are rated (core/reporting/rollups.py) so
the dashboard never scans call rows."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Index, Integer, String
from sqlmodel import Field, SQLModel

from core.models.columns import MONEY, big_pk


# Columns by type (sa_type, not sa_column): each table of the two levels gets columns of its own.
# `Any`: SQLModel's Field(), as in core/models/columns.py.
def _count(kind: type[Integer] = Integer) -> Any:
    return Field(default=0, sa_type=kind, nullable=False, sa_column_kwargs={"server_default": "0"})


def _money() -> Any:
    return Field(
        default=Decimal("0"), sa_type=MONEY, nullable=False, sa_column_kwargs={"server_default": "0"}
    )


# Each rollup's key, its time first (unique, nulls included: what core/reporting/rollup_deltas.py's
# upserts find a row by; the time's ranges are what the dashboard reads).
KEYS = ("user_id", "campaign_id", "target_id", "buyer_id", "source_id")
REGION_KEYS = ("user_id", "caller_country", "caller_region", "caller_line_type")


def _text(length: int) -> Any:
    return Field(default=None, sa_type=String(length), nullable=True)


class RollupSums(SQLModel):
    """The keys and measures both levels share."""

    # The call row's own keys (no foreign keys: a rollup is derived, rebuilt from the calls).
    user_id: int | None = None
    campaign_id: int | None = None
    target_id: int | None = None
    buyer_id: int | None = None
    source_id: int | None = None
    calls: int = _count()
    # One count per disposition (core.values.enums.Disposition), named as its member in lower case.
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
    publisher_payout: Decimal = _money()
    profit: Decimal = _money()


class CallRollup(RollupSums, table=True):
    __tablename__ = "call_rollup"
    __table_args__ = (
        Index("uq_call_rollup_key", "hour", *KEYS, unique=True, postgresql_nulls_not_distinct=True),
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
        Index("uq_call_rollup_day_key", "day", *KEYS, unique=True, postgresql_nulls_not_distinct=True),
        Index("ix_call_rollup_day_user_day", "user_id", "day"),
        Index("ix_call_rollup_day_buyer_day", "buyer_id", "day"),
    )

    id: int | None = big_pk()
    day: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class RegionSums(SQLModel):
    """The keys and measures both levels by caller origin share."""

    user_id: int | None = None
    # Null for calls recorded before origins were read.
    caller_country: str | None = _text(8)
    caller_region: str | None = _text(500)
    caller_line_type: str | None = _text(8)
    calls: int = _count()
    answered: int = _count()
    converted: int = _count()
    talk_seconds: int = _count(BigInteger)
    spend: Decimal = _money()
    payout: Decimal = _money()


class CallRegionRollup(RegionSums, table=True):
    """The rated calls of one UTC hour summed per customer and caller origin (country, region, line
    type: core.calls.caller_origin), for the dashboard's breakdown by region (docs/regions.md).
    Kept beside `call_rollup`, in the same refresh and rebuild (core/reporting/region_rollups.py)."""

    __tablename__ = "call_region_rollup"
    __table_args__ = (
        Index(
            "uq_call_region_rollup_key", "hour", *REGION_KEYS, unique=True, postgresql_nulls_not_distinct=True
        ),
        Index("ix_call_region_rollup_user_hour", "user_id", "hour"),
    )

    id: int | None = big_pk()
    hour: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class CallRegionRollupDay(RegionSums, table=True):
    """The hourly rows by origin of one UTC day (`day` its midnight) summed: what the breakdown
    reads for whole days, a row per customer and origin a day instead of one per hour it had calls."""

    __tablename__ = "call_region_rollup_day"
    __table_args__ = (
        Index(
            "uq_call_region_rollup_day_key",
            "day",
            *REGION_KEYS,
            unique=True,
            postgresql_nulls_not_distinct=True,
        ),
        Index("ix_call_region_rollup_day_user_day", "user_id", "day"),
    )

    id: int | None = big_pk()
    day: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
