"""What every entity's service does the same way: filter, page, update, change status, delete.

A service owns its queries and its commit; these helpers are the one copy of the steps entities
share, so an update, a status change or a delete behaves alike on every screen.
"""

from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Protocol, TypeVar, TypeVarTuple, cast, runtime_checkable

from pydantic import BaseModel
from sqlalchemy import ColumnElement, Select, SQLColumnExpression, func, literal, or_, select
from sqlmodel import Session, SQLModel

from core.models import StatusChange, Tariff, Trunk, User, Vendor
from core.values.enums import Role
from core.values.errors import DomainError, ErrorId, missing_row
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData, paginate
from portal_api.schemas.common import day_bounds
from portal_api.services.tenancy import get_visible, scope_clause

M = TypeVar("M", bound=SQLModel)
Out = TypeVar("Out", bound=BaseModel)
E = TypeVar("E")  # the entity a statement selects
Ts = TypeVarTuple("Ts")  # a statement's columns: the helpers below keep them
# A text column a search reads (nullable or not).
TextColumn = SQLColumnExpression[str] | SQLColumnExpression[str | None]


def _literal_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def contains_text(column: TextColumn, text: str) -> ColumnElement[bool]:
    """`column` contains `text`, case-insensitively and literally: `%`, `_` and `\\` match
    themselves, never any run of characters. Every search that matches a substring goes through here."""
    return column.ilike(f"%{_literal_like(text)}%", escape="\\")


def starts_with_text(column: TextColumn, text: str) -> ColumnElement[bool]:
    """`column` starts with `text`, literally and case-sensitively, the pattern written into the SQL:
    the planner then reads the prefix off the column's pattern index, even in a prepared statement
    (no ESCAPE clause: PostgreSQL's default escape is the backslash already)."""
    return column.like(literal(_literal_like(text) + "%", literal_execute=True))


def text_filter(stmt: Select[*Ts], params: str | None, *columns: TextColumn) -> Select[*Ts]:
    """The spec's `params`: a case-insensitive substring over the entity's main text columns."""
    if not params:
        return stmt
    return stmt.where(or_(*(contains_text(column, params) for column in columns)))


def within_days(
    stmt: Select[*Ts],
    column: SQLColumnExpression[datetime],
    from_date: date | None,
    to_date: date | None,
    tz: str,
) -> Select[*Ts]:
    """`fromDate` / `toDate` filters: whole days in the caller's time zone, both inclusive."""
    start, end = day_bounds(from_date, to_date, tz)
    if start is not None:
        stmt = stmt.where(column >= start)
    if end is not None:
        stmt = stmt.where(column <= end)
    return stmt


def check_name_free(
    session: Session,
    model: type[Vendor | Trunk | Tariff],
    label: str,
    name: str,
    except_id: int | None = None,
) -> None:
    """Catalogue names are unique case-insensitively: "Acme" and "ACME" would be the same on screen."""
    stmt = select(model.id).where(func.lower(model.name) == name.lower())
    if except_id is not None:
        stmt = stmt.where(model.id != except_id)
    if session.scalar(stmt) is not None:
        raise DomainError(ErrorId.ROW_NAME_TAKEN, f"A {label} with this name already exists.", "name")


def page_of(session: Session, stmt: Select[E], pg: PageParams, out: Callable[[E], Out]) -> PageData[Out]:
    """One page of `stmt`, each row turned into its response schema by `out`."""
    return paginate(session, stmt, pg.page, pg.perpage, lambda rows: [out(row) for row in rows])


@runtime_checkable
class _Stamped(Protocol):
    updated_at: datetime | None


def touch(row: SQLModel) -> None:
    """Stamp `updated_at` on rows that keep one (vendors, tariffs and rates don't)."""
    if isinstance(row, _Stamped):
        row.updated_at = datetime.now(UTC)


def reject_nulls(changes: Mapping[str, object], required: Iterable[str] | None = None) -> None:
    """A partial update may leave a field out but not blank a required one (`None`: every field)."""
    for field in changes if required is None else required:
        if field in changes and changes[field] is None:
            raise DomainError(ErrorId.ROW_FIELD_EMPTY, f"{field} can't be empty.", field)


def update_row(
    session: Session,
    row: M,
    changes: Mapping[str, object],
    *,
    required: Iterable[str] | None = None,
    check: Callable[[], None] | None = None,
    complete: Callable[[M], None] | None = None,
) -> M:
    """The update every entity shares: null check, the entity's own `check` (before anything
    changes), the new values, `complete` (what follows from them), `updated_at`, commit."""
    reject_nulls(changes, required)
    if check is not None:
        check()
    for field, value in changes.items():
        setattr(row, field, value)
    if complete is not None:
        complete(row)
    touch(row)
    session.add(row)
    session.commit()
    return row


def record_status(
    session: Session, entity: str, entity_id: int, old: str | None, new: str, changed_by: int | None
) -> None:
    session.add(
        StatusChange(
            entity=entity, entity_id=entity_id, old_status=old, new_status=new, changed_by=changed_by
        )
    )


def change_status(
    session: Session, model: type[M], row_id: int, status: str, principal: Principal, label: str
) -> M:
    """Set a visible row's status and record who changed it (the caller commits)."""
    row = get_visible(session, model, row_id, principal, label)
    # Every model passed here has a `status` column; a TypeVar can't say "a table with a status".
    old = row.status  # type: ignore[attr-defined]
    record_status(session, cast(str, model.__tablename__), row_id, old, status, principal.user.id)
    row.status = status
    session.add(row)
    return row


def set_status(
    session: Session,
    model: type[M],
    row_id: int,
    status: str,
    principal: Principal,
    label: str,
    *,
    complete: Callable[[M], None] | None = None,
) -> M:
    """The status change every entity shares: recorded, `complete` (what follows), committed."""
    row = change_status(session, model, row_id, status, principal, label)
    if complete is not None:
        complete(row)
    touch(row)
    session.commit()
    return row


def set_statuses(
    session: Session, model: type[M], ids: list[int], status: str, principal: Principal, label: str
) -> tuple[list[int], list[int]]:
    """A bulk status change, all or nothing: every id must be the caller's to see (else 404 naming
    the others, nothing changed); returns the ids changed and those that had `status` already."""
    # Every model passed here has `id` and `status` columns; a TypeVar can't say so.
    id_col, status_col = model.id, model.status  # type: ignore[attr-defined]
    stmt = select(id_col, status_col).where(id_col.in_(ids)).where(scope_clause(model, principal))
    found = dict(session.execute(stmt).tuples().all())
    missing = [i for i in ids if i not in found]
    if missing:
        listed = ", ".join(map(str, missing))
        raise DomainError(ErrorId.ROW_MISSING, f"{label} {listed} not found: nothing was changed.", "ids")
    changed = [i for i in ids if found[i] != status]
    for row_id in changed:
        change_status(session, model, row_id, status, principal, label)
    session.commit()
    return changed, [i for i in ids if found[i] == status]


def delete_row(
    session: Session,
    model: type[M],
    row_id: int,
    principal: Principal,
    label: str,
    *,
    check: Callable[[M], None] | None = None,
    complete: Callable[[M], None] | None = None,
) -> M:
    """The delete every entity shares: the visible row, the entity's `check` (raises to refuse),
    the delete (flushed first when `complete` removes what hangs off it), commit.

    Rows that history references with RESTRICT are refused by the database (409, errors.py)."""
    row = get_visible(session, model, row_id, principal, label)
    if check is not None:
        check(row)
    session.delete(row)
    if complete is not None:
        session.flush()
        complete(row)
    session.commit()
    return row


def resolve_owner(session: Session, principal: Principal, user_id: int | None) -> int:
    """The customer a new row belongs to: the caller itself, or the active customer an admin names."""
    if not principal.is_admin:
        if user_id not in (None, principal.owner_id):
            raise DomainError(
                ErrorId.OWNER_NOT_YOURS, "You can only create rows for your own account.", "user_id"
            )
        return principal.owner_id or 0
    if user_id is None:
        raise DomainError(
            ErrorId.OWNER_REQUIRED, "user_id is required: name the customer this belongs to.", "user_id"
        )
    user = session.get(User, user_id)
    if user is None or user.role != Role.CUSTOMER:
        raise missing_row("user_id", "Customer", user_id)
    return user_id


def owned(session: Session, model: type[M], row_id: int, owner_id: int, field: str, label: str) -> M:
    """A row another row points at, which must belong to the same customer.

    A foreign row answers exactly like a missing one, so ids leak nothing.
    """
    row = session.get(model, row_id)
    if row is None or getattr(row, "user_id", None) != owner_id:
        raise missing_row(field, label, row_id)
    return row


def create_row(session: Session, row: M) -> M:
    """A new row, committed (its id filled in)."""
    session.add(row)
    session.commit()
    return row
