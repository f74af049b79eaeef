"""Vendors: the carriers that supply numbers and inbound trunks (admin only)."""

from sqlalchemy import func, select
from sqlmodel import Session

from core.models import Number, Trunk, Vendor
from core.values.enums import Status
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.vendors import VendorBrief, VendorCreate, VendorOut, VendorUpdate
from portal_api.services.accounts import typed_phone
from portal_api.services.common import (
    check_name_free,
    create_row,
    delete_row,
    page_of,
    text_filter,
    update_row,
)
from portal_api.services.tenancy import get_visible


def page(session: Session, pg: PageParams) -> PageData[VendorOut]:
    stmt = text_filter(select(Vendor), pg.params, Vendor.name, Vendor.contact_name, Vendor.email)
    return page_of(session, stmt.order_by(Vendor.id.desc()), pg, VendorOut.model_validate)


def active(session: Session) -> list[VendorBrief]:
    rows = session.scalars(select(Vendor).where(Vendor.status == Status.ACTIVE).order_by(Vendor.name))
    return [VendorBrief.model_validate(v) for v in rows]


def create(session: Session, body: VendorCreate, principal: Principal) -> Vendor:
    check_name_free(session, Vendor, "vendor", body.name)
    # A national number is read in the country of the administrator's zone.
    return create_row(session, Vendor(**typed_phone(body.model_dump(), principal.user.timezone)))


def update(session: Session, vendor_id: int, body: VendorUpdate, principal: Principal) -> Vendor:
    vendor = get_visible(session, Vendor, vendor_id, principal, "Vendor")
    changes = typed_phone(body.model_dump(exclude_unset=True), principal.user.timezone)

    def check() -> None:
        if "name" in changes:
            check_name_free(session, Vendor, "vendor", changes["name"], except_id=vendor_id)

    return update_row(session, vendor, changes, required=("name",), check=check)


def _still_supplies(session: Session, vendor: Vendor) -> None:
    numbers = (
        session.scalar(select(func.count()).select_from(Number).where(Number.vendor_id == vendor.id)) or 0
    )
    trunks = session.scalar(select(func.count()).select_from(Trunk).where(Trunk.vendor_id == vendor.id)) or 0
    if numbers or trunks:
        raise DomainError(
            ErrorId.ROW_IN_USE,
            f"This vendor still supplies {numbers} number(s) and {trunks} trunk(s); "
            "move them to another vendor or deactivate this one instead.",
        )


def delete(session: Session, vendor_id: int, principal: Principal) -> None:
    delete_row(session, Vendor, vendor_id, principal, "Vendor", check=lambda v: _still_supplies(session, v))
