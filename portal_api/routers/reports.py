"""The call report (spec §7 Reports): every call row the caller may see, filtered, with its trail;
`/report/save` downloads the same rows as CSV. Admins see all calls (`user_id` narrows to one
customer); customers their own. Buyers have their own report (`/buyer/buyer-report`)."""

import csv
import io
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from sqlalchemy import Select, select
from sqlmodel import Session

from core.db import get_engine
from core.models import Call, Campaign
from portal_api.auth.principal import AdminOrCustomerDep, Principal, PrincipalDep
from portal_api.call_names import named_page, with_names
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, ErrorBody, PageData, ok
from portal_api.errors import ApiError
from portal_api.recordings import stored_recording
from portal_api.schemas.common import day_bounds
from portal_api.schemas.reports import CSV_COLUMNS, CallReportRow, ReportFilter, csv_value, report_filter
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/report", tags=["reports"])
FilterDep = Annotated[ReportFilter, Depends(report_filter)]
CSV_BATCH = 500  # rows fetched at a time while the download streams


def _like(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _calls(principal: Principal, f: ReportFilter) -> Select[Any]:
    stmt = scoped(select(Call), Call, principal, f.user_id)
    start, end = day_bounds(f.fromDate, f.toDate, principal.user.timezone)
    if start is not None:
        stmt = stmt.where(Call.started_at >= start)
    if end is not None:
        stmt = stmt.where(Call.started_at <= end)
    if f.disposition is not None:
        stmt = stmt.where(Call.disposition == f.disposition.value)
    if f.campaign_name:
        named = select(Campaign.id).where(Campaign.name.ilike(_like(f.campaign_name)))
        stmt = stmt.where(Call.campaign_id.in_(named))
    for column, part in (
        (Call.did, f.did_number),
        (Call.caller, f.caller_number),
        (Call.destination, f.target_number),
    ):
        if part:
            stmt = stmt.where(column.ilike(_like(part)))
    return stmt.order_by(Call.started_at.desc(), Call.id.desc())


@router.get(
    "",
    response_model=Envelope[PageData[CallReportRow]],
    summary="Calls, newest first, with the routing trail; filters as in the spec",
)
def report(principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, f: FilterDep) -> dict[str, Any]:
    return ok(named_page(session, _calls(principal, f), pg, CallReportRow))


@router.post(
    "/save",
    summary="The same calls as CSV (all pages), for a spreadsheet",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "call-report.csv"}
    },
)
def save(principal: AdminOrCustomerDep, f: FilterDep) -> StreamingResponse:
    stmt = _calls(principal, f).execution_options(yield_per=CSV_BATCH)

    def lines() -> Iterator[str]:
        # Its own session, open while the download streams: one snapshot read through a cursor,
        # so calls ending meanwhile neither repeat nor go missing between batches.
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        with Session(get_engine()) as session:
            for batch in session.scalars(stmt).partitions():
                for row in with_names(session, batch, CallReportRow):
                    writer.writerow([csv_value(row, c) for c in CSV_COLUMNS])
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    return StreamingResponse(
        lines(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="call-report.csv"'},
    )


@router.get(
    "/recording/{id}",
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
    call = get_visible(session, Call, id, principal, "Call")
    if not call.recording:
        raise ApiError(404, "This call was not recorded.")
    return stored_recording(call.recording)
