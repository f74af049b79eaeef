"""The admin's vendors: the carriers that supply numbers and inbound trunks."""

from fastapi import APIRouter

from core.models import Vendor
from portal_api.auth.principal import AdminDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import StatusIn
from portal_api.schemas.vendors import VendorBrief, VendorCreate, VendorOut, VendorUpdate
from portal_api.services import common, vendors

router = APIRouter(prefix="/vendor", tags=["vendors"])


@router.get(
    "/details",
    summary="Vendors, paginated; `params` matches name, contact or email",
)
def details(principal: AdminDep, session: SessionDep, pg: PageDep) -> Envelope[PageData[VendorOut]]:
    return ok(vendors.page(session, pg))


@router.get("/on", summary="Active vendors, for pickers")
def active(principal: AdminDep, session: SessionDep) -> Envelope[list[VendorBrief]]:
    return ok(vendors.active(session))


@router.post("/add", status_code=201, summary="Create a vendor")
def add(body: VendorCreate, principal: AdminDep, session: SessionDep) -> Envelope[VendorOut]:
    return ok(VendorOut.model_validate(vendors.create(session, body, principal)), "Vendor created.")


@router.patch("/status/{id:int}", summary="Activate or deactivate")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> Envelope[VendorOut]:
    vendor = common.set_status(session, Vendor, id, body.status.value, principal, "Vendor")
    return ok(VendorOut.model_validate(vendor), f"Vendor is now {body.status.value}.")


@router.put("/{id:int}", summary="Update a vendor")
def update(id: IdPath, body: VendorUpdate, principal: AdminDep, session: SessionDep) -> Envelope[VendorOut]:
    return ok(VendorOut.model_validate(vendors.update(session, id, body, principal)), "Vendor saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a vendor; one that numbers or trunks still reference is refused (409)",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> Envelope[None]:
    vendors.delete(session, id, principal)
    return ok(None, "Vendor deleted.")
