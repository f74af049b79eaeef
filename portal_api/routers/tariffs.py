"""Tariffs (spec §7 Tariffs): the admin manages them; a customer reads only the one assigned to it."""

from fastapi import APIRouter

from core.models import Tariff
from core.values.enums import Status
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import StatusIn
from portal_api.schemas.rating import TariffBrief, TariffCreate, TariffOut, TariffUpdate
from portal_api.services import common, tariffs

router = APIRouter(prefix="/tariff", tags=["tariffs"])


@router.get(
    "/details",
    summary="Tariffs, paginated; `params` matches name, currency or description. A customer sees its own",
)
def details(
    principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, status: Status | None = None
) -> Envelope[PageData[TariffOut]]:
    return ok(tariffs.page(session, principal, pg, status))


@router.get("/on", summary="Active tariffs, for pickers")
def active(principal: AdminDep, session: SessionDep) -> Envelope[list[TariffBrief]]:
    return ok(tariffs.active(session))


@router.post("/add", status_code=201, summary="Create a tariff")
def add(body: TariffCreate, principal: AdminDep, session: SessionDep) -> Envelope[TariffOut]:
    return ok(TariffOut.of(tariffs.create(session, body)), "Tariff created.")


@router.patch(
    "/status/{id:int}",
    summary="Activate or deactivate a tariff (recorded)",
)
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> Envelope[TariffOut]:
    tariff = common.set_status(session, Tariff, id, body.status.value, principal, "Tariff")
    return ok(TariffOut.of(tariff), f"Tariff is now {body.status.value}.")


@router.patch(
    "/{id:int}",
    summary="Update a tariff; its currency is fixed once customers or calls use it",
)
def update(id: IdPath, body: TariffUpdate, principal: AdminDep, session: SessionDep) -> Envelope[TariffOut]:
    return ok(TariffOut.of(tariffs.update(session, id, body, principal)), "Tariff saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a tariff and its rates; refused (409) while customers or calls use it",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> Envelope[None]:
    tariffs.delete(session, id, principal)
    return ok(None, "Tariff deleted.")
