"""Tariffs (spec §7 Tariffs): the admin manages them; a customer reads only the one assigned to it."""

from typing import Any

from fastapi import APIRouter
from sqlalchemy import ColumnElement, exists, false, func, select, true
from sqlmodel import Session

from core.enums import Status
from core.models import Call, Rate, Tariff, User
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep, Principal
from portal_api.crud import StatusIn, change_status, page_of, text_filter
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import ApiError, field_error, not_found
from portal_api.schemas.rating import TariffBrief, TariffCreate, TariffOut, TariffUpdate
from portal_api.tenancy import get_visible

router = APIRouter(prefix="/tariff", tags=["tariffs"])


def tariff_scope(column: Any, principal: Principal) -> ColumnElement[bool]:
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


def _name_taken(session: Session, name: str, except_id: int | None = None) -> bool:
    stmt = select(Tariff.id).where(func.lower(Tariff.name) == name.lower())
    if except_id is not None:
        stmt = stmt.where(Tariff.id != except_id)
    return session.scalar(stmt) is not None


def _in_use(session: Session, tariff_id: int) -> str | None:
    """Why the tariff must keep its identity and currency (customers on it, calls rated at it), or None."""
    if session.scalar(select(exists().where(User.tariff_id == tariff_id))):
        return "Customers are assigned to this tariff"
    rated = select(Call.id).join(Rate, Call.rate_id == Rate.id).where(Rate.tariff_id == tariff_id)
    if session.scalar(select(rated.exists())):
        return "Calls were rated at this tariff's rates"
    return None


@router.get(
    "/details",
    response_model=Envelope[PageData[TariffOut]],
    summary="Tariffs, paginated; `params` matches name, currency or description. A customer sees its own",
)
def details(
    principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, status: Status | None = None
) -> dict[str, Any]:
    stmt = select(Tariff).where(tariff_scope(Tariff.id, principal))
    stmt = text_filter(stmt, pg.params, Tariff.name, Tariff.currency, Tariff.description)
    if status is not None:
        stmt = stmt.where(Tariff.status == status.value)
    return ok(page_of(session, stmt.order_by(Tariff.name, Tariff.id), pg, TariffOut.of))


@router.get("/on", response_model=Envelope[list[TariffBrief]], summary="Active tariffs, for pickers")
def active(principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    rows = session.scalars(select(Tariff).where(Tariff.status == Status.ACTIVE).order_by(Tariff.name))
    return ok([TariffBrief.model_validate(t) for t in rows])


@router.post("/add", response_model=Envelope[TariffOut], status_code=201, summary="Create a tariff")
def add(body: TariffCreate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    if _name_taken(session, body.name):
        raise field_error("name", "A tariff with this name already exists.", status=409)
    tariff = Tariff(**body.model_dump())
    session.add(tariff)
    session.commit()
    return ok(TariffOut.of(tariff), "Tariff created.")


@router.patch(
    "/status/{id}", response_model=Envelope[TariffOut], summary="Activate or deactivate a tariff (recorded)"
)
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    tariff = change_status(session, Tariff, id, body.status.value, principal, "Tariff")
    session.commit()
    return ok(TariffOut.of(tariff), f"Tariff is now {body.status.value}.")


@router.patch(
    "/{id}",
    response_model=Envelope[TariffOut],
    summary="Update a tariff; its currency is fixed once customers or calls use it",
)
def update(id: IdPath, body: TariffUpdate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    tariff = get_visible(session, Tariff, id, principal, "Tariff")
    changes = body.model_dump(exclude_unset=True)
    for field in ("name", "currency"):
        if field in changes and changes[field] is None:
            raise field_error(field, f"{field} can't be empty.")
    if "name" in changes and _name_taken(session, changes["name"], except_id=id):
        raise field_error("name", "A tariff with this name already exists.", status=409)
    if changes.get("currency", tariff.currency) != tariff.currency:
        reason = _in_use(session, id)
        if reason:
            raise field_error(
                "currency", f"{reason}, so its currency can't change; create a new tariff.", status=409
            )
    for field, value in changes.items():
        setattr(tariff, field, value)
    session.add(tariff)
    session.commit()
    return ok(TariffOut.of(tariff), "Tariff saved.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a tariff and its rates; refused (409) while customers or calls use it",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    tariff = get_visible(session, Tariff, id, principal, "Tariff")
    reason = _in_use(session, id)
    if reason:
        raise ApiError(409, f"{reason}, so it can't be deleted; deactivate it instead.")
    session.delete(tariff)
    session.commit()
    return ok(None, "Tariff deleted.")
