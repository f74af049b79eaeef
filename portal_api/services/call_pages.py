"""Pages of calls that cost the same at page 1 and page 1,000, and the number filters of the call
reports (docs/reports.md).

Calls are read newest first, `(started_at, id)` descending, which an index serves for every
scope. A page asked "after" a call (the previous page's `next_after`) starts right below it
(keyset); a page asked by number alone skips the earlier rows by their ids only, through the index,
and reads whole rows for the page's own calls. The total is the planner's estimate, marked
`total_estimated`, when it expects more than `EXACT_UP_TO` rows, and otherwise counted (at most
EXACT_UP_TO + 1 rows read): never a full count per page.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVarTuple, cast

from sqlalchemy import ColumnElement, Select, SQLColumnExpression, func, literal, select, text, tuple_
from sqlmodel import Session

from core.models import Call
from core.values.phone import to_e164
from portal_api.deps import PageParams
from portal_api.envelope import PageData, page_data
from portal_api.services.call_names import RowT, with_names
from portal_api.services.common import TextColumn, starts_with_text

EXACT_UP_TO = 10_000
Ts = TypeVarTuple("Ts")  # a statement's columns, kept
_SEPARATORS = str.maketrans("", "", " -.()/")


def stored_number(typed: str, plus: bool) -> tuple[str, bool]:
    """A number as people type it ("+44 7911 123", "0044 7911", "447911") in the form the column
    stores it (E.164 with its "+", or a target's digits alone when not `plus`), and whether it is a
    whole valid number (matched exactly) rather than how one starts."""
    value = typed.translate(_SEPARATORS)
    value = "+" + value[2:] if value.startswith("00") else value
    if not value.lstrip("+").isdigit():
        return value, False  # not a number ("anonymous"): matched as typed
    e164 = "+" + value.lstrip("+")
    try:
        whole = to_e164(e164) == e164
    except ValueError:
        whole = False
    return (e164 if plus else e164[1:]), whole


def number_filter(column: TextColumn, typed: str, plus: bool = True) -> ColumnElement[bool]:
    """Calls whose number in `column` is the typed number, or starts with it. The value is written
    into the SQL so the planner reads the prefix off the column's pattern index even in a statement
    prepared before; an exact number reads that number's calls in time order (no sort)."""
    number, whole = stored_number(typed, plus)
    if whole:
        return column == literal(number, literal_execute=True)
    return starts_with_text(column, number)


@dataclass(frozen=True)
class Order:
    """A report's order: a key (a column, or an expression an index holds), then `id`, both the same
    way, so every call has one place and a keyset anchor splits the calls exactly."""

    key: SQLColumnExpression[Any]
    descending: bool = True

    def apply(self, stmt: Select[*Ts]) -> Select[*Ts]:
        if self.descending:
            return stmt.order_by(self.key.desc(), Call.id.desc())
        return stmt.order_by(self.key.asc(), Call.id.asc())

    def past(self, value: object, call_id: int) -> ColumnElement[bool]:
        """The calls after (`value`, `call_id`) in this order: one row comparison an index serves."""
        mine, anchor = tuple_(self.key, Call.id), tuple_(literal(value), literal(call_id))
        return mine < anchor if self.descending else mine > anchor


NEWEST = Order(Call.started_at)


def newest_first(stmt: Select[*Ts]) -> Select[*Ts]:
    return NEWEST.apply(stmt)


def after_call(session: Session, stmt: Select[Call], after: int, order: Order = NEWEST) -> Select[Call]:
    """`stmt` below call `after` in `order`. The call is looked up among `stmt`'s own (scoped,
    filtered) rows: another tenant's call tells nothing, and the page starts from the top."""
    anchor = session.execute(stmt.order_by(None).with_only_columns(order.key).where(Call.id == after)).first()
    if anchor is None:
        return stmt
    return stmt.where(order.past(anchor[0], after))


def _estimate(session: Session, stmt: Select[*Ts]) -> int:
    """The planner's estimate of the rows `stmt` matches: planning alone, no row read."""
    sql = stmt.compile(dialect=session.get_bind().dialect, compile_kwargs={"literal_binds": True})
    plan = session.execute(text(f"EXPLAIN (FORMAT JSON) {sql}")).scalar_one()
    return int(plan[0]["Plan"]["Plan Rows"])


def count(session: Session, stmt: Select[Call]) -> tuple[int, bool]:
    """(total, estimated). The planner's estimate when it expects more than EXACT_UP_TO rows;
    otherwise a count, stopped past EXACT_UP_TO (then the estimate, at least that, marked)."""
    keys = stmt.order_by(None).with_only_columns(Call.id)
    estimate = _estimate(session, keys)
    if estimate > EXACT_UP_TO:
        return estimate, True
    capped = keys.limit(EXACT_UP_TO + 1).subquery()
    exact = session.scalar(select(func.count()).select_from(capped)) or 0
    return (exact, False) if exact <= EXACT_UP_TO else (max(estimate, exact), True)


def page(
    session: Session,
    stmt: Select[Call],
    pg: PageParams,
    after: int | None,
    schema: type[RowT],
    order: Order = NEWEST,
) -> PageData[RowT]:
    """One page of calls (`stmt` filtered and scoped, unordered) in `order` as `schema`, names
    filled in."""
    total, estimated = count(session, stmt)
    offset = (pg.page - 1) * pg.perpage
    if after is not None:
        stmt, offset = after_call(session, stmt, after, order), 0
    picked = cast(Select[int, datetime], stmt.with_only_columns(Call.id, Call.started_at))
    keys = session.execute(order.apply(picked).offset(offset).limit(pg.perpage)).all()
    rows = []
    if keys:
        # The page's time span as well as its ids: only the months it covers are read (partitions).
        times = [k.started_at for k in keys]
        span = Call.started_at.between(min(times), max(times))
        rows = list(session.scalars(order.apply(select(Call).where(Call.id.in_([k.id for k in keys]), span))))
    return page_data(
        with_names(session, rows, schema),
        total,
        pg.page,
        pg.perpage,
        total_estimated=estimated,
        next_after=rows[-1].id if len(rows) == pg.perpage else None,
    )
