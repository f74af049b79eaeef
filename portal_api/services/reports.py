"""The call report: every call row the caller may see, filtered, with its trail; the same rows as
CSV; a call's recording. Admins see all calls (`user_id` narrows to one customer), customers their
own, buyers only the recordings of calls sent to them."""

import csv
import io
from collections.abc import Iterator
from typing import Any

from fastapi.responses import StreamingResponse
from sqlalchemy import Select, select
from sqlmodel import Session

from core.db import get_engine
from core.models import Call, Campaign
from portal_api.auth.principal import Principal
from portal_api.call_names import named_page, with_names
from portal_api.deps import PageParams
from portal_api.errors import ApiError
from portal_api.recordings import stored_recording
from portal_api.schemas.reports import CSV_COLUMNS, CallReportRow, ReportFilter, csv_value
from portal_api.services.common import contains_text, within_days
from portal_api.tenancy import get_visible, scoped

CSV_BATCH = 500  # rows fetched at a time while the download streams


def _calls(principal: Principal, f: ReportFilter) -> Select[Any]:
    stmt = scoped(select(Call), Call, principal, f.user_id)
    stmt = within_days(stmt, Call.started_at, f.fromDate, f.toDate, principal.user.timezone)
    if f.disposition is not None:
        stmt = stmt.where(Call.disposition == f.disposition.value)
    if f.campaign_name:
        named = select(Campaign.id).where(contains_text(Campaign.name, f.campaign_name))
        stmt = stmt.where(Call.campaign_id.in_(named))
    for column, part in (
        (Call.did, f.did_number),
        (Call.caller, f.caller_number),
        (Call.destination, f.target_number),
    ):
        if part:
            stmt = stmt.where(contains_text(column, part))
    return stmt.order_by(Call.started_at.desc(), Call.id.desc())


def page(session: Session, principal: Principal, pg: PageParams, f: ReportFilter) -> dict[str, Any]:
    return named_page(session, _calls(principal, f), pg, CallReportRow)


def csv_lines(principal: Principal, f: ReportFilter) -> Iterator[str]:
    """The report as CSV text, a batch of rows at a time (the query is built now, read later)."""
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

    return lines()


def recording(session: Session, principal: Principal, call_id: int) -> StreamingResponse:
    """The call's stored recording, streamed from Asterisk."""
    call = get_visible(session, Call, call_id, principal, "Call")
    if not call.recording:
        raise ApiError(404, "This call was not recorded.")
    return stored_recording(call.recording)
