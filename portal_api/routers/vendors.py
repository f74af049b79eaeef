"""The admin's vendors: the carriers that supply numbers and inbound trunks."""

from typing import Any

from fastapi import APIRouter
from sqlalchemy import func, select
from sqlmodel import Session

from core.enums import Status
from core.models import Number, Trunk, Vendor
from portal_api.auth.principal import AdminDep
from portal_api.crud import StatusIn, change_status, page_of, text_filter
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import ApiError, field_error
from portal_api.schemas.vendors import VendorBrief, VendorCreate, VendorOut, VendorUpdate
from portal_api.tenancy import get_visible

router = APIRouter(prefix="/vendor", tags=["vendors"])


def _check_name_free(session: Session, name: str, except_id: int | None = None) -> None:
    # Names are compared case-insensitively: "Acme" and "ACME" would be the same carrier on screen.
    stmt = select(Vendor.id).where(func.lower(Vendor.name) == name.lower())
    if except_id is not None:
        stmt = stmt.where(Vendor.id != except_id)
    if session.scalar(stmt) is not None:
        raise field_error("name", "A vendor with this name already exists.", status=409)


@router.get(
    "/details",
    response_model=Envelope[PageData[VendorOut]],
    summary="Vendors, paginated; `params` matches name, contact or email",
)
def details(principal: AdminDep, session: SessionDep, pg: PageDep) -> dict[str, Any]:
    stmt = text_filter(select(Vendor), pg.params, Vendor.name, Vendor.contact_name, Vendor.email)
    return ok(page_of(session, stmt.order_by(Vendor.id.desc()), pg, VendorOut.model_validate))


@router.get("/on", response_model=Envelope[list[VendorBrief]], summary="Active vendors, for pickers")
def active(principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    rows = session.scalars(select(Vendor).where(Vendor.status == Status.ACTIVE).order_by(Vendor.name))
    return ok([VendorBrief.model_validate(v) for v in rows])


@router.post("/add", response_model=Envelope[VendorOut], status_code=201, summary="Create a vendor")
def add(body: VendorCreate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    _check_name_free(session, body.name)
    vendor = Vendor(**body.model_dump())
    session.add(vendor)
    session.commit()
    return ok(VendorOut.model_validate(vendor), "Vendor created.")


@router.patch("/status/{id}", response_model=Envelope[VendorOut], summary="Activate or deactivate")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    vendor = change_status(session, Vendor, id, body.status.value, principal, "Vendor")
    session.commit()
    return ok(VendorOut.model_validate(vendor), f"Vendor is now {body.status.value}.")


@router.put("/{id}", response_model=Envelope[VendorOut], summary="Update a vendor")
def update(id: IdPath, body: VendorUpdate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    vendor = get_visible(session, Vendor, id, principal, "Vendor")
    changes = body.model_dump(exclude_unset=True)
    if "name" in changes:
        if changes["name"] is None:
            raise field_error("name", "name can't be empty.")
        _check_name_free(session, changes["name"], except_id=id)
    for field, value in changes.items():
        setattr(vendor, field, value)
    session.add(vendor)
    session.commit()
    return ok(VendorOut.model_validate(vendor), "Vendor saved.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a vendor; one that numbers or trunks still reference is refused (409)",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    vendor = get_visible(session, Vendor, id, principal, "Vendor")
    numbers = session.scalar(select(func.count()).select_from(Number).where(Number.vendor_id == id)) or 0
    trunks = session.scalar(select(func.count()).select_from(Trunk).where(Trunk.vendor_id == id)) or 0
    if numbers or trunks:
        raise ApiError(
            409,
            f"This vendor still supplies {numbers} number(s) and {trunks} trunk(s); "
            "move them to another vendor or deactivate this one instead.",
        )
    session.delete(vendor)
    session.commit()
    return ok(None, "Vendor deleted.")
