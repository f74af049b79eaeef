"""Rate-card entries (spec §7 Rates) and their CSV import: the admin writes, a customer reads its own."""

from typing import Annotated

from fastapi import APIRouter, File, Query, UploadFile

from core.models import Rate
from core.values.enums import Status
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import StatusIn, upload_part
from portal_api.schemas.rating import RATE_CARD, RateCreate, RateImportOut, RateOut, RateUpdate
from portal_api.services import common, rates

router = APIRouter(prefix="/rate", tags=["rates"])


@router.get(
    "/details",
    summary="Rates, paginated; `params` matches prefix or country. A customer sees its own tariff's",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    tariff_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    status: Status | None = None,
) -> Envelope[PageData[RateOut]]:
    return ok(rates.page(session, principal, pg, tariff_id, status))


@router.get(
    "/by/{id:int}",
    summary="The rates of tariff `id`, paginated (a customer: only its own tariff)",
)
def of_tariff(
    id: IdPath, principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, status: Status | None = None
) -> Envelope[PageData[RateOut]]:
    return ok(rates.page_of_tariff(session, principal, pg, id, status))


@router.post("/add", status_code=201, summary="Add a rate to a tariff")
def add(body: RateCreate, principal: AdminDep, session: SessionDep) -> Envelope[RateOut]:
    return ok(rates.out(session, rates.create(session, body)), "Rate added.")


@router.post(
    "/import/{tariff_id:int}",
    summary="Import a rate card (CSV) into a tariff: every line or none",
    description="Columns (header line required, any order): prefix, rate (required), country "
    "(ISO alpha-2; empty: from the prefix), connection_fee (0), initial_increment (60), "
    "billing_increment (60), min_duration (0), effective_from (ISO 8601; empty: now). A line whose "
    "(prefix, effective_from) the tariff already has is refused unless `replace=true`; rates used by "
    "calls are never replaced. Any problem refuses the file with `errors` per line.",
    openapi_extra=upload_part(RATE_CARD),
)
def import_card(
    tariff_id: IdPath,
    principal: AdminDep,
    session: SessionDep,
    file: Annotated[UploadFile, File(description="UTF-8 CSV, at most 10 MB")],
    replace: Annotated[bool, Query(description="Overwrite existing (prefix, effective_from) rates")] = False,
) -> Envelope[RateImportOut]:
    result = rates.import_card(session, tariff_id, file.file, replace)
    return ok(result, f"{result.rows} rates imported.")


@router.patch("/status/{id:int}", summary="Activate or deactivate a rate")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> Envelope[RateOut]:
    rate = common.set_status(session, Rate, id, body.status.value, principal, "Rate")
    return ok(rates.out(session, rate), f"Rate is now {body.status.value}.")


@router.put(
    "/{id:int}",
    summary="Update a rate; a rate calls were rated at keeps its price (add a newer one instead)",
)
def update(id: IdPath, body: RateUpdate, principal: AdminDep, session: SessionDep) -> Envelope[RateOut]:
    return ok(rates.out(session, rates.update(session, id, body, principal)), "Rate saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a rate; refused (409) once calls were rated at it",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> Envelope[None]:
    rates.delete(session, id, principal)
    return ok(None, "Rate deleted.")
