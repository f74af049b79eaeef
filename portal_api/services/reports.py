"""The call report: every call row the caller may see, filtered, with its trail; the same rows as
CSV; a call's recording. Admins see all calls (`user_id` narrows to one customer), customers their
own, buyers only the recordings of calls sent to them."""

import csv
import io
from collections.abc import Iterator
from typing import Any

from fastapi.responses import StreamingResponse
from sqlalchemy import ColumnElement, Select, SQLColumnExpression, Text, case, cast, func, literal, select
from sqlmodel import Session, col

from core.infra.db import get_engine
from core.models import Buyer, Call, CallAttribution, Campaign, Target, TrafficSource, Trunk, User
from core.pbx.nodes import node_of
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.reports import CSV_COLUMNS, CallReportRow, ReportFilter, ReportOrder, ReportSort
from portal_api.services import call_pages, call_visits, conversation
from portal_api.services.common import contains_text, within_days
from portal_api.services.recordings import stored_recording
from portal_api.services.report_measures import COST
from portal_api.services.tenancy import get_visible, scoped, visible_id

CSV_BATCH = 2000  # rows fetched at a time while the download streams


def _campaigns(session: Session, principal: Principal, f: ReportFilter, name: str) -> list[int]:
    """Ids of the campaigns named like `name` among those the caller may see: the tenant scope
    first, so a customer's filter never reads another customer's campaigns."""
    stmt = scoped(select(Campaign.id), Campaign, principal, f.user_id)
    return list(session.scalars(stmt.where(contains_text(Campaign.name, name))))


# The sortable columns' keys, each the leading column of an index (migration 0024).
SORT_KEYS: dict[ReportSort, SQLColumnExpression[Any]] = {
    ReportSort.STARTED_AT: Call.started_at,
    ReportSort.DURATION: Call.duration,
    ReportSort.COST: COST,
    ReportSort.PAYOUT: Call.payout,
}


def calls(session: Session, principal: Principal, f: ReportFilter) -> Select[Call]:
    """The caller's calls under the filters, unordered (call_pages orders and pages them). A named
    campaign, target, buyer or customer the caller may not see is a 404 on its field."""
    visible_id(session, User, f.user_id, principal, "user_id", "User")
    stmt = scoped(select(Call), Call, principal, f.user_id)
    for model, owner, row_id, name in (
        (Campaign, Call.campaign_id, f.campaign_id, "campaign"),
        (Target, Call.target_id, f.target_id, "target"),
        (Buyer, Call.buyer_id, f.buyer_id, "buyer"),
    ):
        if visible_id(session, model, row_id, principal, f"{name}_id", name.capitalize()) is not None:
            stmt = stmt.where(owner == row_id)
    stmt = within_days(stmt, Call.started_at, f.fromDate, f.toDate, principal.user.timezone)
    if f.disposition is not None:
        stmt = stmt.where(Call.disposition == f.disposition.value)
    if f.campaign_name:
        stmt = stmt.where(Call.campaign_id.in_(_campaigns(session, principal, f, f.campaign_name)))
    if visible_id(session, TrafficSource, f.source_id, principal, "source_id", "Source") is not None:
        stmt = stmt.where(Call.source_id == f.source_id)
    if f.origin.country is not None:
        stmt = stmt.where(Call.caller_country == f.origin.country)
    if f.origin.region is not None:
        stmt = stmt.where(Call.caller_region == f.origin.region)
    days, tz = (f.fromDate, f.toDate), principal.user.timezone
    stmt = call_visits.visit_filter(stmt, principal, f.visit, f.user_id, days, tz)
    if f.words:
        stmt = stmt.where(col(Call.id).in_(conversation.said(f.words)))
    if f.tag:
        stmt = stmt.where(col(Call.id).in_(conversation.tagged(f.tag)))
    for column, typed, plus in (
        (Call.did, f.did_number, True),
        (Call.caller, f.caller_number, True),
        (Call.destination, f.target_number, False),  # a target's number is stored as digits
    ):
        if typed:
            stmt = stmt.where(call_pages.number_filter(column, typed, plus))
    return stmt


def page(
    session: Session,
    principal: Principal,
    pg: PageParams,
    f: ReportFilter,
    order: ReportOrder,
    after: int | None,
) -> PageData[CallReportRow]:
    by = call_pages.Order(SORT_KEYS[order.sort], descending=order.direction == "desc")
    found = call_pages.page(session, calls(session, principal, f), pg, after, CallReportRow, by)
    call_visits.with_visits(session, found.data)
    return found


# A spreadsheet runs a cell starting with = @ + - as a formula (names are customers' input, callers
# the network's): such a cell is prefixed with ' ; a phone number (+447...) is left as it is.
_FORMULA = "^([=@\t\r]|[+-](?![0-9]+$))"


def _text_cell(column: SQLColumnExpression[object]) -> ColumnElement[object]:
    return case((column.op("~")(_FORMULA), literal("'") + column), else_=column)


TIME_COLUMNS = ("started_at", "ended_at")


def _time_cell(column: SQLColumnExpression[object], zone: str) -> ColumnElement[str]:
    """The wall time in the caller's zone, as spreadsheets read a date and time; the zone is in
    the column's header (csv_header)."""
    return func.to_char(func.timezone(zone, column), "YYYY-MM-DD HH24:MI:SS")


def csv_header(zone: str) -> list[str]:
    """The CSV's first line: the column names, the times' with the zone they are in."""
    return [f"{c} ({zone})" if c in TIME_COLUMNS else c for c in CSV_COLUMNS]


def _csv_cells(zone: str) -> list[SQLColumnExpression[object]]:
    """The CSV's columns as SQL, each already its cell's text (or a number): the database formats
    them, the names joined from their tables; never the trail."""
    named = {
        "customer_name": User.name,
        "campaign_name": Campaign.name,
        "target_name": Target.name,
        "buyer_name": Buyer.name,
        "trunk_name": Trunk.name,
        # The visit's: typed by visitors into their URLs, so each goes through the formula guard.
        "medium": CallAttribution.medium,
        "utm_campaign": CallAttribution.campaign,
        "keyword": CallAttribution.keyword,
        "landing_page": CallAttribution.landing_page,
        "click_id": CallAttribution.click_id,
        # The source's name, else the visit's (docs/reports.md, "Source").
        "source_name": func.coalesce(TrafficSource.name, CallAttribution.source),
    }
    cells: list[SQLColumnExpression[object]] = []
    for c in CSV_COLUMNS:
        column: SQLColumnExpression[object] = named[c] if c in named else getattr(Call, c)
        if c in TIME_COLUMNS:
            cells.append(_time_cell(column, zone))
        elif c in ("cost", "payout", "publisher_payout", "profit"):
            cells.append(cast(column, Text))  # NUMERIC(18, 4): always four places
        elif c in ("duration", "billsec"):
            cells.append(column)
        else:
            cells.append(_text_cell(column))
    return cells


def csv_lines(session: Session, principal: Principal, f: ReportFilter) -> Iterator[str]:
    """The report as CSV text, a batch of rows at a time (the query is built now, read later); times
    in the caller's zone, named in the header."""
    zone = principal.user.timezone or "UTC"
    joined = (
        Call.__table__.outerjoin(User, User.id == Call.user_id)
        .outerjoin(Campaign, Campaign.id == Call.campaign_id)
        .outerjoin(Target, Target.id == Call.target_id)
        .outerjoin(Buyer, Buyer.id == Call.buyer_id)
        .outerjoin(Trunk, Trunk.id == Call.trunk_id)
        .outerjoin(TrafficSource, TrafficSource.id == Call.source_id)
        .outerjoin(CallAttribution, CallAttribution.call_id == Call.id)
    )
    stmt = call_pages.newest_first(
        calls(session, principal, f).with_only_columns(*_csv_cells(zone)).select_from(joined)
    )

    def lines() -> Iterator[str]:
        # Its own connection, open while the download streams: one snapshot read through a
        # server-side cursor, so calls ending meanwhile neither repeat nor go missing between
        # batches, and memory holds one batch.
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(csv_header(zone))
        with get_engine().connect() as conn:
            rows = conn.execution_options(yield_per=CSV_BATCH).execute(stmt)
            for batch in rows.partitions():
                writer.writerows(batch)
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    return lines()


def recording(session: Session, principal: Principal, call_id: int) -> StreamingResponse:
    """The call's stored recording, streamed from Asterisk."""
    call = get_visible(session, Call, call_id, principal, "Call")
    if not call.recording:
        raise DomainError(ErrorId.RECORDING_NONE, "This call was not recorded.")
    return stored_recording(call.recording, node_of(call.linkedid))
