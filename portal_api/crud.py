"""Pieces every catalogue router uses: free-text filters, pages of schemas, status changes."""

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlalchemy import Select, or_
from sqlmodel import Session, SQLModel

from core.enums import Status
from portal_api.accounts import record_status
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import paginate
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


def page_of(session: Session, stmt: Select[Any], pg: PageParams, out: Callable[[Any], BaseModel]) -> dict:
    """One page of `stmt`, each row turned into its response schema by `out`."""
    page = paginate(session, stmt, pg.page, pg.perpage)
    page["data"] = [out(row) for row in page["data"]]
    return page


def change_status(
    session: Session, model: type[M], row_id: int, status: str, principal: Principal, label: str
) -> M:
    """Set a visible row's status and record who changed it (the caller commits)."""
    row = get_visible(session, model, row_id, principal, label)
    record_status(session, model.__tablename__, row_id, row.status, status, principal.user.id)  # type: ignore[attr-defined]
    row.status = status  # type: ignore[attr-defined]
    session.add(row)
    return row
