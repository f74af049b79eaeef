"""The call report (spec §7 Reports): every call row the caller may see, filtered, with its trail;
`/report/save` downloads the same rows as CSV. Admins see all calls (`user_id` narrows to one
customer); customers their own. Buyers have their own report (`/buyer/buyer-report`)."""

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse

from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, ErrorBody, PageData, ok
from portal_api.schemas.reports import (
    AfterDep,
    CallReportRow,
    ReportDimension,
    ReportFilter,
    ReportGroups,
    ReportMeasures,
    ReportOrder,
    report_filter,
    report_order,
)
from portal_api.services import report_groups, reports

router = APIRouter(prefix="/report", tags=["reports"])
FilterDep = Annotated[ReportFilter, Depends(report_filter)]
OrderDep = Annotated[ReportOrder, Depends(report_order)]


@router.get(
    "",
    summary="Calls, newest first or by duration, cost or payout, with the routing trail; the spec's filters",
)
def report(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    f: FilterDep,
    order: OrderDep,
    after: AfterDep = None,
) -> Envelope[PageData[CallReportRow]]:
    return ok(reports.page(session, principal, pg, f, order, after))


@router.get(
    "/totals", summary="The report's filtered calls summed: calls, answered, converted, revenue, cost, profit"
)
def totals(principal: PrincipalDep, session: SessionDep, f: FilterDep) -> Envelope[ReportMeasures]:
    return ok(report_groups.totals(session, principal, f))


@router.get(
    "/groups",
    summary="The filtered calls grouped by campaign, target, buyer, number, local day or hour, with totals",
)
def groups(
    principal: PrincipalDep,
    session: SessionDep,
    f: FilterDep,
    by: Annotated[ReportDimension, Query(description="What the calls are grouped by")],
) -> Envelope[ReportGroups]:
    return ok(report_groups.groups(session, principal, f, by))


@router.post(
    "/save",
    summary="The same calls as CSV (all pages), for a spreadsheet",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "call-report.csv"}
    },
)
def save(principal: AdminOrCustomerDep, session: SessionDep, f: FilterDep) -> StreamingResponse:
    return StreamingResponse(
        reports.csv_lines(session, principal, f),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="call-report.csv"'},
    )


@router.get(
    "/recording/{id:int}",
    summary="The call's recording (WAV) when its campaign records; buyers may hear their own calls",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"audio/wav": {"schema": {"type": "string", "format": "binary"}}},
            "description": "WAV",
        },
        502: {"model": ErrorBody, "description": "Asterisk answered with an error"},
        503: {"model": ErrorBody, "description": "Asterisk can't be reached"},
    },
)
def recording(id: IdPath, principal: PrincipalDep, session: SessionDep) -> StreamingResponse:
    return reports.recording(session, principal, id)
