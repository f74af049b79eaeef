"""The response envelope and pagination of api-conventions.md."""

import math
from collections.abc import Callable
from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Select, func, select
from sqlmodel import Session

T = TypeVar("T")
R = TypeVar("R")
E = TypeVar("E")  # the entity a statement selects


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


def ok(data: T, message: str = "OK") -> Envelope[T]:
    return Envelope(message=message, data=data)


def page_data(
    rows: list[T],
    total: int,
    page: int,
    per_page: int,
    *,
    total_estimated: bool = False,
    next_after: int | None = None,
) -> PageData[T]:
    """One page's envelope data: its rows and where they stand among `total`."""
    first = (page - 1) * per_page + 1
    return PageData(
        data=rows,
        total=total,
        per_page=per_page,
        current_page=page,
        last_page=max(1, math.ceil(total / per_page)),
        from_=first if rows else None,
        to=first + len(rows) - 1 if rows else None,
        total_estimated=total_estimated,
        next_after=next_after,
    )


def paginate(
    session: Session,
    stmt: Select[E],
    page: int,
    per_page: int,
    rows_as: Callable[[list[E]], list[R]],
) -> PageData[R]:
    """Run `stmt` for one page; `rows_as` turns the ORM objects it yields into the page's rows."""
    total = session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery())) or 0
    rows = list(session.scalars(stmt.limit(per_page).offset((page - 1) * per_page)))
    return page_data(rows_as(rows), total, page, per_page)
