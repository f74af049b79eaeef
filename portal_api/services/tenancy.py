"""Tenant scoping, one layer for every entity.

Admin sees all (and may filter by `user_id`); a customer sees only rows it owns; a buyer only
rows of its own buyer record. A row outside the caller's scope answers 404, exactly like a row
that does not exist, so ids leak nothing.
"""

from typing import Annotated, TypeVar, TypeVarTuple

from fastapi import Depends, Query
from sqlalchemy import ColumnElement, Select, false, select, true
from sqlalchemy.orm import QueryableAttribute
from sqlmodel import Session, SQLModel

from core.models import Buyer, User
from core.values.errors import missing_row, not_found
from portal_api.auth.principal import Principal, PrincipalDep
from portal_api.deps import MAX_ID, SessionDep

M = TypeVar("M", bound=SQLModel)
Ts = TypeVarTuple("Ts")


def _owner_column(model: type[SQLModel]) -> QueryableAttribute[int | None] | None:
    return model.id if model is User else getattr(model, "user_id", None)


def _buyer_column(model: type[SQLModel]) -> QueryableAttribute[int | None] | None:
    if model is Buyer:
        return Buyer.id
    return getattr(model, "buyer_id", None)


def scope_clause(model: type[SQLModel], principal: Principal) -> ColumnElement[bool]:
    """The SQL condition selecting the rows of `model` this caller may see."""
    if principal.is_admin:
        return true()
    if principal.is_buyer:
        if model is User:
            return User.id == principal.user.id
        column = _buyer_column(model)
        if column is None or principal.buyer is None:
            return false()
        return column == principal.buyer.id
    column = _owner_column(model)
    return false() if column is None else column == principal.user.id


def scoped(
    stmt: Select[*Ts], model: type[SQLModel], principal: Principal, user_id: int | None = None
) -> Select[*Ts]:
    """`stmt` restricted to the caller's rows; an admin's optional `user_id` filter applies too."""
    stmt = stmt.where(scope_clause(model, principal))
    if principal.is_admin and user_id is not None:
        column = _owner_column(model)
        if column is not None:
            stmt = stmt.where(column == user_id)
    return stmt


def get_visible(session: Session, model: type[M], row_id: int, principal: Principal, label: str) -> M:
    """The row with `row_id` if the caller may see it; otherwise 404 `label not found.`"""
    # Every table has an `id`; SQLModel, the bound of M, declares none.
    stmt = select(model).where(model.id == row_id).where(scope_clause(model, principal))  # type: ignore[attr-defined]
    row = session.scalars(stmt).first()
    if row is None:
        raise not_found(label)
    return row


def visible_id(
    session: Session,
    model: type[SQLModel],
    row_id: int | None,
    principal: Principal,
    field: str,
    label: str,
    *,
    shared: bool = False,
) -> int | None:
    """A filter's id (query or body), checked: one naming no row the caller may see is a 404 on
    `field`, as an id in a path is, never an empty list that hides whether the row exists.
    `shared`: a catalogue every caller reads (countries), checked for existence only."""
    if row_id is None:
        return None
    # Every table has an `id`; SQLModel declares none.
    stmt = select(model.id).where(model.id == row_id)  # type: ignore[attr-defined]
    if not shared:
        stmt = stmt.where(scope_clause(model, principal))
    if session.scalar(stmt) is None:
        raise missing_row(field, label, row_id)
    return row_id


def _user_filter(
    principal: PrincipalDep,
    session: SessionDep,
    user_id: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="Whose rows (an admin's filter)")
    ] = None,
) -> int | None:
    return visible_id(session, User, user_id, principal, "user_id", "User")


# The `user_id` query filter of a list: an account the caller may see, else a 404.
UserFilter = Annotated[int | None, Depends(_user_filter)]
