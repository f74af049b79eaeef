"""The call report (spec §7 Reports): its filters and its rows."""

from datetime import date, datetime
from typing import Annotated

from fastapi import Depends, Query
from pydantic import BaseModel, ConfigDict, Field

from core.values.enums import Disposition
from core.values.errors import DomainError, ErrorId
from portal_api.deps import MAX_ID
from portal_api.schemas.common import Day, MoneyOut
from portal_api.schemas.regions import OriginFilter
from portal_api.schemas.routing import TrailEntry

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


class ReportFilter(BaseModel):
    """The spec's filters, spelled as the spec spells them; the campaign name matches a part, the
    numbers match how they start (docs/reports.md)."""

    user_id: int | None = None
    campaign_name: str | None = None
    fromDate: date | None = None
    toDate: date | None = None
    did_number: str | None = None
    disposition: Disposition | None = None
    target_number: str | None = None
    caller_number: str | None = None
    origin: OriginFilter = OriginFilter()
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
        fromDate=fromDate,
        toDate=toDate,
        disposition=disposition,
        origin=origin,
        **{k: (v or "").strip() or None for k, v in text.items()},
    )


class CallReportRow(BaseModel):
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
    payout: MoneyOut
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
    "linkedid",
)
