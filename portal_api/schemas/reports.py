"""The call report (spec §7 Reports): its filters and its rows."""

from datetime import date, datetime
from enum import StrEnum
from typing import Annotated

from fastapi import Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from core.values.enums import Disposition
from core.values.errors import DomainError, ErrorId
from portal_api.deps import MAX_ID
from portal_api.schemas.common import Day, MoneyOut
from portal_api.schemas.regions import OriginFilter
from portal_api.schemas.routing import TrailEntry
from portal_api.schemas.visits import VisitFields, VisitFilter

GROUPS_SHOWN = 500  # a grouping's rows at most (numbers, hours): the totals still cover every call

_Part = Annotated[str | None, Query(max_length=64, description="Matches anywhere in the value")]
_Number = Annotated[
    str | None,
    Query(
        max_length=64,
        description="The number or how it starts, as typed: +44 7911 123, 0044 7911, 447911 (E.164 prefix)",
    ),
]


AfterDep = Annotated[
    int | None,
    Query(
        ge=1,
        le=2**63 - 1,
        description="The previous page's `next_after`: this page starts right after that call (keyset)",
    ),
]


class ReportSort(StrEnum):
    """The report's sortable columns: each one an index serves (docs/reports.md)."""

    STARTED_AT = "started_at"
    DURATION = "duration"
    COST = "cost"
    PAYOUT = "payout"


class SortDirection(StrEnum):
    DESC = "desc"
    ASC = "asc"


class ReportDimension(StrEnum):
    """What the report's calls can be grouped by (`services/report_dimensions.py`)."""

    CAMPAIGN = "campaign"
    TARGET = "target"
    BUYER = "buyer"
    NUMBER = "number"
    DAY = "day"
    HOUR = "hour"
    SOURCE = "source"
    MEDIUM = "medium"
    UTM_CAMPAIGN = "utm_campaign"
    KEYWORD = "keyword"
    LANDING_PAGE = "landing_page"
    TAG = "tag"


class ReportColumn(StrEnum):
    """The report table's columns a person may show or hide (a saved view keeps its choice)."""

    STARTED_AT = "started_at"
    CALLER = "caller"
    ORIGIN = "origin"
    DID = "did"
    CUSTOMER = "customer"
    CAMPAIGN = "campaign"
    TARGET = "target"
    BUYER = "buyer"
    DISPOSITION = "disposition"
    DURATION = "duration"
    BILLSEC = "billsec"
    HANGUP_BY = "hangup_by"
    SOURCE = "source"
    REVENUE = "revenue"
    COST = "cost"
    PUBLISHER_PAYOUT = "publisher_payout"
    PROFIT = "profit"


_IdFilter = Annotated[int | None, Query(ge=1, le=MAX_ID)]


class ReportFilter(BaseModel):
    """The spec's filters, spelled as the spec spells them; the campaign name matches a part, the
    numbers match how they start (docs/reports.md). A campaign, target or buyer may be named by id."""

    user_id: int | None = None
    campaign_id: int | None = None
    target_id: int | None = None
    buyer_id: int | None = None
    campaign_name: str | None = None
    fromDate: date | None = None
    toDate: date | None = None
    did_number: str | None = None
    disposition: Disposition | None = None
    target_number: str | None = None
    caller_number: str | None = None
    origin: OriginFilter = OriginFilter()
    visit: VisitFilter = VisitFilter()
    source_id: int | None = None
    words: str | None = None
    tag: str | None = None


def report_filter(
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Admin: one customer's calls")] = None,
    campaign_name: _Part = None,
    fromDate: Annotated[Day | None, Query(description="First day, in your time zone")] = None,
    toDate: Annotated[Day | None, Query(description="Last day, in your time zone")] = None,
    did_number: _Number = None,
    disposition: Disposition | None = None,
    target_number: _Number = None,
    caller_number: _Number = None,
    origin: Annotated[OriginFilter, Depends(OriginFilter.of_query)] = OriginFilter(),
    visit: Annotated[VisitFilter, Depends(VisitFilter.of_query)] = VisitFilter(),
    source_id: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="The calls attributed to this traffic source")
    ] = None,
    campaign_id: _IdFilter = None,
    target_id: _IdFilter = None,
    buyer_id: _IdFilter = None,
    words: Annotated[
        str | None,
        Query(
            max_length=200, description="Words said on the call (its transcript; English full-text search)"
        ),
    ] = None,
    tag: Annotated[
        str | None, Query(max_length=32, description="A tag its keyword rules gave the call")
    ] = None,
) -> ReportFilter:
    if fromDate and toDate and fromDate > toDate:
        raise DomainError(ErrorId.REPORT_DATES, "toDate can't be before fromDate.", "toDate")
    text = {
        "campaign_name": campaign_name,
        "did_number": did_number,
        "target_number": target_number,
        "caller_number": caller_number,
        "words": words,
        "tag": tag,
    }
    return ReportFilter(
        user_id=user_id,
        campaign_id=campaign_id,
        target_id=target_id,
        buyer_id=buyer_id,
        fromDate=fromDate,
        toDate=toDate,
        disposition=disposition,
        origin=origin,
        visit=visit,
        source_id=source_id,
        **{k: (v or "").strip() or None for k, v in text.items()},
    )


class ReportOrder(BaseModel):
    sort: ReportSort = ReportSort.STARTED_AT
    direction: SortDirection = SortDirection.DESC


def report_order(
    sort: Annotated[
        ReportSort,
        Query(description="The column the calls are sorted by (then by id); newest first by default"),
    ] = ReportSort.STARTED_AT,
    direction: Annotated[SortDirection, Query(description="desc (largest or newest first) or asc")] = (
        SortDirection.DESC
    ),
) -> ReportOrder:
    return ReportOrder(sort=sort, direction=direction)


class ReportMeasures(BaseModel):
    """Sums over a set of calls. Revenue is what buyers pay (the payouts), cost what the calls cost
    the customer, publisher payout what their traffic sources are owed, profit what is left; a buyer
    sees none of those three (null)."""

    calls: int
    answered: int
    converted: int
    revenue: MoneyOut
    cost: MoneyOut | None
    publisher_payout: MoneyOut | None = Field(description="What the calls' traffic sources are owed")
    profit: MoneyOut | None


class ReportGroup(ReportMeasures):
    key: str | None = Field(description="The group's id or value as text (null: calls without one)")
    name: str = Field(description="The group as a person reads it (a name, a number, a local day or hour)")


class ReportGroups(BaseModel):
    by: ReportDimension
    label: str = Field(description="The dimension's name, for a column heading")
    groups: list[ReportGroup] = Field(description=f"Busiest first, at most {GROUPS_SHOWN}")
    more: bool = Field(
        description=f"More than {GROUPS_SHOWN} groups: the busiest are shown, the totals cover all"
    )
    totals: ReportMeasures


class CallReportRow(VisitFields):
    """One call: what happened, who it reached, what it cost, and the routing trail saying why."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    linkedid: str
    started_at: datetime
    answered_at: datetime | None
    connected_at: datetime | None
    ended_at: datetime | None
    user_id: int | None
    customer_name: str | None = None
    campaign_id: int | None
    campaign_name: str | None = None
    did: str
    caller: str
    target_id: int | None
    target_name: str | None = None
    destination: str | None = Field(description="The number dialled at the target")
    buyer_id: int | None
    buyer_name: str | None = None
    trunk_id: int | None
    trunk_name: str | None = None
    disposition: Disposition
    duration: int
    billsec: int = Field(description="Answer to end, in started seconds (billsec_ms rounded up)")
    billsec_ms: int | None = Field(description="Answer to end in ms, by Asterisk's clock (null on old rows)")
    talk_seconds: int
    talk_ms: int | None = Field(description="The target's answer to end in ms (null on old rows)")
    hangup_by: str | None
    hangup_cause: int | None = Field(description="Q.850 cause of the caller's channel")
    hangup_cause_text: str | None
    sip_status: int | None = Field(description="Final SIP status of the last attempt (or of the caller)")
    ivr_result: str | None
    cost: MoneyOut | None
    payout: MoneyOut = Field(description="Revenue: the buyer's payout, once converted")
    publisher_payout: MoneyOut = Field(description="What the call's traffic source's publisher is owed")
    profit: MoneyOut | None = Field(description="payout - cost - publisher_payout; null until rated")
    source_id: int | None = Field(description="The traffic source the call is attributed to")
    source_name: str | None = Field(
        default=None,
        description="Where the call came from: its traffic source's name, else its visit's source"
        " (utm_source, the referrer's host, or direct), else null",
    )
    rating_status: str
    source: str = Field(description="bridge, or reconciled from Asterisk's own records")
    recording: str | None = Field(description="Set when the call was recorded: GET /report/recording/{id}")
    caller_country: str | None = Field(
        default=None, description='ISO country of the caller, "unknown" (null: old row)'
    )
    caller_region: str | None = Field(
        default=None, description='Region of the caller, "unknown" (null: old row)'
    )
    caller_line_type: str | None = Field(default=None, description="mobile, fixed, other, unknown")
    trail: list[TrailEntry]


CSV_COLUMNS = (
    "started_at",
    "ended_at",
    "customer_name",
    "campaign_name",
    "did",
    "caller",
    "caller_country",
    "caller_region",
    "caller_line_type",
    "target_name",
    "destination",
    "buyer_name",
    "trunk_name",
    "disposition",
    "duration",
    "billsec",
    "hangup_by",
    "cost",
    "payout",
    "publisher_payout",
    "profit",
    "source_name",
    "linkedid",
    # The visit (null when none is known): docs/conversions.md
    "medium",
    "utm_campaign",
    "keyword",
    "landing_page",
    "click_id",
)
