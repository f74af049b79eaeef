"""Tariffs: the admin manages them; a customer reads only the one assigned to it."""

from sqlalchemy import ColumnElement, SQLColumnExpression, exists, false, select, true
from sqlmodel import Session

from core.models import Call, Rate, Tariff, User
from core.values.enums import Status
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.rating import TariffBrief, TariffCreate, TariffOut, TariffUpdate
from portal_api.services.common import (
    check_name_free,
    create_row,
    delete_row,
    page_of,
    text_filter,
    update_row,
)
from portal_api.services.tenancy import get_visible


def tariff_scope(column: SQLColumnExpression[int | None], principal: Principal) -> ColumnElement[bool]:
    """`column` (a tariff id) limited to what the caller may read: all for an admin, else its own tariff."""
    if principal.is_admin:
        return true()
    tariff_id = principal.user.tariff_id
    return false() if tariff_id is None else column == tariff_id


def visible_tariff(session: Session, tariff_id: int, principal: Principal) -> Tariff:
    tariff = session.scalars(
        select(Tariff).where(Tariff.id == tariff_id, tariff_scope(Tariff.id, principal))
    ).first()
    if tariff is None:
        raise not_found("Tariff")
    return tariff


def _in_use(session: Session, tariff_id: int) -> str | None:
    """Why the tariff must keep its identity and currency (customers on it, calls rated at it), or None."""
    if session.scalar(select(exists().where(User.tariff_id == tariff_id))):
        return "Customers are assigned to this tariff"
    rated = select(Call.id).join(Rate, Call.rate_id == Rate.id).where(Rate.tariff_id == tariff_id)
    if session.scalar(select(rated.exists())):
        return "Calls were rated at this tariff's rates"
    return None


def page(
    session: Session, principal: Principal, pg: PageParams, status: Status | None
) -> PageData[TariffOut]:
    stmt = select(Tariff).where(tariff_scope(Tariff.id, principal))
    stmt = text_filter(stmt, pg.params, Tariff.name, Tariff.currency, Tariff.description)
    if status is not None:
        stmt = stmt.where(Tariff.status == status.value)
    return page_of(session, stmt.order_by(Tariff.name, Tariff.id), pg, TariffOut.of)


def active(session: Session) -> list[TariffBrief]:
    rows = session.scalars(select(Tariff).where(Tariff.status == Status.ACTIVE).order_by(Tariff.name))
    return [TariffBrief.model_validate(t) for t in rows]


def create(session: Session, body: TariffCreate) -> Tariff:
    check_name_free(session, Tariff, "tariff", body.name)
    return create_row(session, Tariff(**body.model_dump()))


def update(session: Session, tariff_id: int, body: TariffUpdate, principal: Principal) -> Tariff:
    tariff = get_visible(session, Tariff, tariff_id, principal, "Tariff")
    changes = body.model_dump(exclude_unset=True)

    def check() -> None:
        if "name" in changes:
            check_name_free(session, Tariff, "tariff", changes["name"], except_id=tariff_id)
        if changes.get("currency", tariff.currency) != tariff.currency:
            reason = _in_use(session, tariff_id)
            if reason:
                message = f"{reason}, so its currency can't change; create a new tariff."
                raise DomainError(ErrorId.ROW_CHANGE_LOCKED, message, "currency")

    return update_row(session, tariff, changes, required=("name", "currency"), check=check)


def _unused(session: Session, tariff: Tariff) -> None:
    reason = _in_use(session, tariff.id or 0)
    if reason:
        raise DomainError(ErrorId.ROW_IN_USE, f"{reason}, so it can't be deleted; deactivate it instead.")


def delete(session: Session, tariff_id: int, principal: Principal) -> None:
    delete_row(session, Tariff, tariff_id, principal, "Tariff", check=lambda t: _unused(session, t))
