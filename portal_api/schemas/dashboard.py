"""The dashboard (spec §7 Reports and dashboard): call counts for a period, and where calls went."""

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from portal_api.schemas.common import MoneyOut


class Period(StrEnum):
    TODAY = "today"
    YESTERDAY = "yesterday"
    WEEK = "week"  # the last 7 days, today included
    MONTH = "month"  # this calendar month


class Counts(BaseModel):
    calls: int
    answered: int
    missed: int = Field(description="Routed but not answered: NO ANSWER, BUSY, FAILED")
    refused: int = Field(
        description="Stopped before a target: NO_ROUTE, BLOCKED, NO_BALANCE, DUPLICATE, IVR_FAILED"
    )
    talk_seconds: int
    converted: int


class Bucket(BaseModel):
    at: datetime = Field(
        description="Start of the hour (today, yesterday) or day (week, month), your time zone"
    )
    calls: int
    answered: int


class DashboardCalls(Counts):
    period: Period
    start: datetime
    end: datetime
    answer_rate: float = Field(description="answered / calls, 0 when there were none")
    average_talk_seconds: int
    spend: MoneyOut | None = Field(description="What the calls cost (admin, customers); null for buyers")
    payout: MoneyOut
    live_calls: int
    series: list[Bucket]


class Slice(BaseModel):
    id: int | None
    name: str
    calls: int
    answered: int
    talk_seconds: int


class DispositionCount(BaseModel):
    disposition: str
    calls: int


class CallDetail(BaseModel):
    period: Period
    by_disposition: list[DispositionCount]
    by_campaign: list[Slice] = Field(description="The 10 busiest")
    by_target: list[Slice] = Field(description="The 10 busiest")


class PartyCounts(BaseModel):
    id: int
    name: str
    live_calls: int
    today: Counts
    month: Counts


class OriginSlice(BaseModel):
    """Calls from one place (docs/regions.md): `region` "unknown" when the numbers didn't say,
    null (with `country` null) for calls recorded before origins were read."""

    country: str | None = None
    region: str | None = None
    line_type: str | None = None
    calls: int
    answered: int
    talk_seconds: int


class CallRegions(BaseModel):
    period: Period
    by_region: list[OriginSlice] = Field(description="The 10 regions with most calls")
    by_country: list[OriginSlice] = Field(description="The 10 countries with most calls")
    by_line_type: list[OriginSlice]


class SourceSlice(BaseModel):
    """The calls of one traffic source (`id` null: calls with none) and what they earned (docs/reports.md)."""

    id: int | None
    name: str
    calls: int
    answered: int
    converted: int
    revenue: MoneyOut = Field(description="The buyers' payouts")
    cost: MoneyOut
    publisher_payout: MoneyOut
    profit: MoneyOut = Field(description="revenue - cost - publisher_payout, of the rated calls")


class CallSources(BaseModel):
    period: Period
    by_source: list[SourceSlice] = Field(description="Every source with calls, most calls first")
    total: SourceSlice = Field(description="All the period's calls (id null)")
