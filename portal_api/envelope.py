"""The response envelope and pagination of api-conventions.md."""

import math
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Select, func, select
from sqlmodel import Session

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    message: str
    data: T


class PageData(BaseModel, Generic[T]):
    model_config = ConfigDict(populate_by_name=True)

    data: list[T]
    total: int
    # Call reports count exactly up to a threshold and estimate past it (docs/reports.md); other
    # lists are always exact.
    total_estimated: bool = Field(
        default=False, description="true: `total` is the database's estimate (past 10,000 rows)"
    )
    next_after: int | None = Field(
        default=None, description="Call reports: pass as `after` with the next page to read it by keyset"
    )
    per_page: int
    current_page: int
    last_page: int
    from_: int | None = Field(default=None, alias="from")
    to: int | None = None


class ErrorBody(BaseModel):
    message: str
    errors: dict[str, list[str]] | None = None


def ok(data: Any = None, message: str = "OK") -> dict[str, Any]:
    return {"message": message, "data": data}


def paginate(session: Session, stmt: Select[Any], page: int, per_page: int) -> dict[str, Any]:
    """Run `stmt` for one page; rows are returned as the statement yields them (ORM objects)."""
    total = session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
    rows = list(session.scalars(stmt.limit(per_page).offset((page - 1) * per_page)))
    first = (page - 1) * per_page + 1
    return {
        "data": rows,
        "total": total,
        "per_page": per_page,
        "current_page": page,
        "last_page": max(1, math.ceil(total / per_page)),
        "from": first if rows else None,
        "to": first + len(rows) - 1 if rows else None,
    }
