"""The report's sums: the totals of the filtered calls, and the calls grouped by one dimension with
the same totals, in one scan (`ROLLUP`: each group and the whole set). A buyer sums its own calls
and sees no cost nor profit (docs/reports.md)."""

from typing import Any

from sqlalchemy import Label, func, select
from sqlmodel import Session

from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.schemas.reports import (
    GROUPS_SHOWN,
    ReportDimension,
    ReportFilter,
    ReportGroup,
    ReportGroups,
    ReportMeasures,
)
from portal_api.services.report_dimensions import DIMENSIONS
from portal_api.services.report_measures import measures, sums
from portal_api.services.reports import calls


def totals(session: Session, principal: Principal, f: ReportFilter) -> ReportMeasures:
    row = session.execute(calls(session, principal, f).with_only_columns(*sums())).one()
    return measures(row, not principal.is_buyer)


def groups(session: Session, principal: Principal, f: ReportFilter, by: ReportDimension) -> ReportGroups:
    dimension = DIMENSIONS[by]
    if principal.is_buyer and not dimension.buyers:
        raise DomainError(
            ErrorId.REPORT_GROUP_HIDDEN, "A buyer groups its calls by target, number, day or hour.", "by"
        )
    value: Label[Any] = dimension.value(principal.user.timezone).label("value")
    summed = (
        calls(session, principal, f)
        .with_only_columns(value, func.grouping(value).label("whole"), *sums())
        .group_by(func.rollup(value))
        .subquery()
    )
    key = dimension.text(summed.c.value)
    table = dimension.named_by
    if table is None:
        stmt = select(key.label("key"), key.label("name"), summed)
    else:  # every named table has an `id` and a `name`; SQLModel, their base, declares neither
        name = table.name  # type: ignore[attr-defined]
        stmt = select(key.label("key"), name.label("name"), summed).select_from(summed)
        stmt = stmt.outerjoin(table, table.id == summed.c.value)  # type: ignore[attr-defined]
    # The whole set first (ROLLUP gives it even when no call matches), then the busiest groups.
    stmt = stmt.order_by(summed.c.whole.desc(), summed.c.calls.desc(), key).limit(GROUPS_SHOWN + 2)
    whole, *rows = session.execute(stmt).all()
    money = not principal.is_buyer
    return ReportGroups(
        by=by,
        label=dimension.label,
        groups=[
            ReportGroup(key=row.key, name=row.name or "(none)", **measures(row, money).model_dump())
            for row in rows[:GROUPS_SHOWN]
        ],
        more=len(rows) > GROUPS_SHOWN,
        totals=measures(whole, money),
    )
