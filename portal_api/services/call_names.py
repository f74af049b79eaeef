"""Rows for lists and reports (calls, targets, numbers), with the names of what they refer to (customer,
campaign, target, buyer, trunk): one lookup per kind for a whole page, not a join per row."""

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TypeVar

from pydantic import BaseModel
from sqlalchemy import Select, TextClause, text
from sqlmodel import Session

from core.models import Buyer, Call, Campaign, Number, Target, TrafficSource, Trunk, User
from portal_api.deps import PageParams
from portal_api.envelope import PageData, paginate

RowT = TypeVar("RowT", bound=BaseModel)
Named = Call | Target | Number | Campaign  # the rows whose references are named
NamedT = TypeVar("NamedT", Call, Target, Number, Campaign)
NameBook = dict[str, dict[int, str]]  # a `*_name` field -> id -> name

# A `*_name` field of a row: the table holding the name, and the row's column pointing at it.
NAMED: dict[str, tuple[type[User | Campaign | Target | Buyer | Trunk | TrafficSource], str]] = {
    "customer_name": (User, "user_id"),
    "campaign_name": (Campaign, "campaign_id"),
    "target_name": (Target, "target_id"),
    "buyer_name": (Buyer, "buyer_id"),
    "trunk_name": (Trunk, "trunk_id"),
    "source_name": (TrafficSource, "source_id"),
}


@cache
def _lookup(fields: tuple[str, ...]) -> TextClause:
    """Every name `fields` need, in one statement (one round trip and one plan for a page, not one
    per kind); each kind's ids bound as one array, so the text is the same for every page."""
    parts = [
        f"SELECT '{field}' AS field, id, name FROM {NAMED[field][0].__tablename__} WHERE id = ANY(:{field})"
        for field in fields
    ]
    return text(" UNION ALL ".join(parts))


def _ids(refs: Iterable[Mapping[str, object]], key: str) -> set[int]:
    return {ref_id for r in refs if isinstance(ref_id := r.get(key), int)}


def names_of(session: Session, fields: Iterable[str], refs: Iterable[Mapping[str, object]]) -> NameBook:
    """The names `fields` (keys of NAMED) refer to from `refs` (each a row's `user_id`, `campaign_id`,
    ...), by field and id, in one statement."""
    refs = list(refs)
    wanted = tuple(fields)
    found: NameBook = {field: {} for field in wanted}
    ids = {field: sorted(_ids(refs, NAMED[field][1])) for field in wanted}
    if any(ids.values()):
        for field, row_id, name in session.execute(_lookup(wanted), ids):
            found[field][row_id] = name
    return found


def with_names(session: Session, calls: Iterable[Named], schema: type[RowT]) -> list[RowT]:
    """Each row as `schema`, with whichever of the `*_name` fields the schema has filled in."""
    calls = list(calls)
    wanted = {field: NAMED[field][1] for field in schema.model_fields if field in NAMED}
    refs = [{key: getattr(c, key) for key in wanted.values()} for c in calls]
    found = names_of(session, wanted, refs)
    rows = []
    for call in calls:
        row = schema.model_validate(call)
        for field, key in wanted.items():
            setattr(row, field, found[field].get(getattr(call, key)))
        rows.append(row)
    return rows


def named_page(session: Session, stmt: Select[NamedT], pg: PageParams, schema: type[RowT]) -> PageData[RowT]:
    """One page of `stmt` (rows of calls, targets or numbers) as `schema`, names filled in."""
    return paginate(session, stmt, pg.page, pg.perpage, lambda rows: with_names(session, rows, schema))
