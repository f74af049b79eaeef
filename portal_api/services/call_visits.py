"""The call report by the visit a call came from (docs/reports.md, "Filters by the visit"): each
filter is an attribution of the call in the caller's own scope (`call_attribution.user_id`), so a
selective one reads the attributions by their (user_id, campaign) or (user_id, call_started_at)
index and then each call by its key, and a common one walks the calls newest first and checks each
by the attribution's key; a page's rows get their visit's fields in one lookup."""

from collections.abc import Sequence
from datetime import date

from sqlalchemy import ColumnElement, Select, select, tuple_
from sqlmodel import Session, col

from core.models import Call, CallAttribution
from portal_api.auth.principal import Principal
from portal_api.schemas.reports import CallReportRow
from portal_api.schemas.visits import VisitFilter
from portal_api.services.common import starts_with_text, within_days
from portal_api.services.tenancy import scoped

_A = CallAttribution
# A call's attribution, by its key alone (the call's id is unique across partitions): joining on
# the start too would make the planner expect one row of any filter and scan months of calls.
SAME_CALL = _A.call_id == Call.id
Days = tuple[date | None, date | None]  # the report's fromDate and toDate


def _matching(
    principal: Principal, f: VisitFilter, user_id: int | None, days: Days, tz: str
) -> ColumnElement[bool]:
    """Calls whose visit matches `f`: an attribution of the call in the caller's scope and the
    report's days (the planner drives from whichever side is more selective)."""
    keys = scoped(select(_A.call_id).where(SAME_CALL), _A, principal, user_id)
    keys = within_days(keys, _A.call_started_at, days[0], days[1], tz)
    for column, value in (
        (_A.medium, f.medium),
        (_A.campaign, f.utm_campaign),
        (_A.keyword, f.keyword),
    ):
        if value is not None:
            keys = keys.where(column == value)
    if f.landing_page is not None:
        keys = keys.where(starts_with_text(_A.landing_page, f.landing_page))
    if f.has_click_id:
        keys = keys.where(col(_A.click_id).is_not(None))
    # Its own call_attribution even where the statement joins one (the CSV's columns).
    return keys.correlate(Call).exists()


def visit_filter(
    stmt: Select[Call],
    principal: Principal,
    f: VisitFilter,
    user_id: int | None,
    days: Days,
    tz: str,
) -> Select[Call]:
    """`stmt` (the report's calls) narrowed to those whose visit matches `f`. `has_click_id=false`
    keeps the calls whose visit carried no click id, and those with no visit known."""
    positive = f.model_copy(update={"has_click_id": f.has_click_id or None})
    if positive.any:
        stmt = stmt.where(_matching(principal, positive, user_id, days, tz))
    if f.has_click_id is False:
        clicked = select(_A.call_id).where(SAME_CALL, col(_A.click_id).is_not(None)).correlate(Call)
        stmt = stmt.where(~clicked.exists())
    return stmt


def with_visits(session: Session, rows: Sequence[CallReportRow]) -> None:
    """Each row's visit fields, from its call's attribution (one lookup for the page); a call with
    no traffic source is named by its visit's source (docs/reports.md, "Source")."""
    if not rows:
        return
    keys = [(row.id, row.started_at) for row in rows]
    visits = {
        v.call_id: v
        for v in session.scalars(select(_A).where(tuple_(_A.call_id, _A.call_started_at).in_(keys)))
    }
    for row in rows:
        if (visit := visits.get(row.id)) is not None:
            if row.source_id is None:
                row.source_name = visit.source
            row.medium, row.utm_campaign, row.keyword = visit.medium, visit.campaign, visit.keyword
            row.landing_page, row.click_id, row.click_id_kind = (
                visit.landing_page,
                visit.click_id,
                visit.click_id_kind,
            )
