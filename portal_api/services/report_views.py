"""Saved views of the call report: each person's own, whatever the role (an admin's views are its
own too); another person's view answers 404 like one that does not exist."""

from sqlalchemy import select
from sqlmodel import Session

from core.models import ReportView
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth.principal import Principal
from portal_api.schemas.report_views import ReportViewIn
from portal_api.services.common import create_row, update_row


def mine(session: Session, principal: Principal) -> list[ReportView]:
    stmt = select(ReportView).where(ReportView.user_id == principal.user.id).order_by(ReportView.name)
    return list(session.scalars(stmt))


def _own(session: Session, principal: Principal, view_id: int) -> ReportView:
    view = session.get(ReportView, view_id)
    if view is None or view.user_id != principal.user.id:
        raise not_found("Report view")
    return view


def _name_free(session: Session, principal: Principal, name: str, except_id: int | None = None) -> None:
    stmt = select(ReportView.id).where(ReportView.user_id == principal.user.id, ReportView.name == name)
    if except_id is not None:
        stmt = stmt.where(ReportView.id != except_id)
    if session.scalar(stmt) is not None:
        raise DomainError(ErrorId.ROW_NAME_TAKEN, f"You already have a view named '{name}'.", "name")


def _stored(body: ReportViewIn) -> dict[str, object]:
    return body.model_dump(mode="json")


def create(session: Session, principal: Principal, body: ReportViewIn) -> ReportView:
    _name_free(session, principal, body.name)
    assert principal.user.id is not None
    return create_row(session, ReportView(user_id=principal.user.id, **_stored(body)))


def update(session: Session, principal: Principal, view_id: int, body: ReportViewIn) -> ReportView:
    view = _own(session, principal, view_id)
    # The whole view is replaced: no grouping (null) is a value like any other.
    return update_row(
        session,
        view,
        _stored(body),
        required=(),
        check=lambda: _name_free(session, principal, body.name, view_id),
    )


def delete(session: Session, principal: Principal, view_id: int) -> None:
    session.delete(_own(session, principal, view_id))
    session.commit()
