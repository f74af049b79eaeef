"""Pieces every catalogue router uses: free-text filters, pages of schemas, status changes."""

from collections.abc import Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel
from sqlalchemy import Select, or_
from sqlmodel import Session, SQLModel

from core.enums import Role, Status
from core.models import User
from portal_api.accounts import record_status
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import paginate
from portal_api.errors import field_error
from portal_api.schemas.common import StrictBody
from portal_api.tenancy import get_visible

M = TypeVar("M", bound=SQLModel)


class StatusIn(StrictBody):
    status: Status


def text_filter(stmt: Select[Any], params: str | None, *columns: Any) -> Select[Any]:
    """The spec's `params`: a case-insensitive substring over the entity's main text columns."""
    if not params:
        return stmt
    like = f"%{params}%"
    return stmt.where(or_(*(column.ilike(like) for column in columns)))


def page_of(
    session: Session,
    stmt: Select[Any],
    pg: PageParams,
    out: Callable[[Any], BaseModel],
) -> dict[str, Any]:
    """One page of `stmt`, each row turned into its response schema by `out`."""
    page = paginate(session, stmt, pg.page, pg.perpage)
    page["data"] = [out(row) for row in page["data"]]
    return page


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


def resolve_owner(session: Session, principal: Principal, user_id: int | None) -> int:
    """The customer a new row belongs to: the caller itself, or the active customer an admin names."""
    if not principal.is_admin:
        if user_id not in (None, principal.owner_id):
            raise field_error("user_id", "You can only create rows for your own account.")
        return principal.owner_id or 0
    if user_id is None:
        raise field_error("user_id", "user_id is required: name the customer this belongs to.")
    user = session.get(User, user_id)
    if user is None or user.role != Role.CUSTOMER:
        raise field_error("user_id", f"Customer {user_id} does not exist.")
    return user_id


def owned(session: Session, model: type[M], row_id: int, owner_id: int, field: str, label: str) -> M:
    """A row another row points at, which must belong to the same customer.

    A foreign row answers exactly like a missing one, so ids leak nothing.
    """
    row = session.get(model, row_id)
    if row is None or getattr(row, "user_id", None) != owner_id:
        raise field_error(field, f"{label} {row_id} does not exist.")
    return row
