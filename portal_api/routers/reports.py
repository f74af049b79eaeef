"""The call report (spec §7 Reports): every call row the caller may see, filtered, with its trail;
`/report/save` downloads the same rows as CSV. Admins see all calls (`user_id` narrows to one
customer); customers their own. Buyers have their own report (`/buyer/buyer-report`)."""

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse

from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, ErrorBody, PageData, ok
from portal_api.schemas.reports import AfterDep, CallReportRow, ReportFilter, report_filter
from portal_api.services import reports

router = APIRouter(prefix="/report", tags=["reports"])
FilterDep = Annotated[ReportFilter, Depends(report_filter)]


@router.get(
    "",
    summary="Calls, newest first, with the routing trail; filters as in the spec",
)
def report(
    principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, f: FilterDep, after: AfterDep = None
) -> Envelope[PageData[CallReportRow]]:
    return ok(reports.page(session, principal, pg, f, after))


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
