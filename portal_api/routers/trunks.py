"""SIP trunks (spec §7 Trunks). Admin only, except the outbound picker; the secret is write-only."""

from typing import Annotated

from fastapi import APIRouter, Query

from core.values.enums import Status, TrunkDirection
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import StatusIn
from portal_api.schemas.trunks import TrunkBrief, TrunkCreate, TrunkOut, TrunkUpdate
from portal_api.services import trunks

router = APIRouter(prefix="/trunk", tags=["trunks"])


@router.get(
    "/details",
    summary="Trunks, paginated; `params` matches name, host or username",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    direction: TrunkDirection | None = None,
    status: Status | None = None,
    vendor_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Supplied by this vendor")] = None,
) -> Envelope[PageData[TrunkOut]]:
    return ok(trunks.page(session, pg, direction, status, vendor_id))


@router.get(
    "/out",
    summary="Active outbound trunks, for target pickers (customers too: id, name, direction, status only)",
)
def outbound(principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[TrunkBrief]]:
    return ok(trunks.active(session, TrunkDirection.OUTBOUND))


@router.get("/imb", summary="Active inbound trunks, for pickers")
def inbound(principal: AdminDep, session: SessionDep) -> Envelope[list[TrunkBrief]]:
    return ok(trunks.active(session, TrunkDirection.INBOUND))


@router.post("/add", status_code=201, summary="Create a trunk")
def add(body: TrunkCreate, principal: AdminDep, session: SessionDep) -> Envelope[TrunkOut]:
    return ok(trunks.out(trunks.create(session, body)), "Trunk created.")


@router.patch("/status/{id:int}", summary="Activate or deactivate a trunk")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> Envelope[TrunkOut]:
    trunk = trunks.change_status(session, id, body.status, principal)
    return ok(trunks.out(trunk), f"Trunk is now {body.status.value}.")


@router.put(
    "/{id:int}",
    summary="Update a trunk; `secret` left out keeps the stored one, `null` removes it",
)
def update(id: IdPath, body: TrunkUpdate, principal: AdminDep, session: SessionDep) -> Envelope[TrunkOut]:
    return ok(trunks.out(trunks.update(session, id, body, principal)), "Trunk saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a trunk; refused (409) while targets use it or calls went through it",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> Envelope[None]:
    trunks.delete(session, id, principal)
    return ok(None, "Trunk deleted.")
