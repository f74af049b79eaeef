"""Traffic sources (issue 33, docs/billing.md "Publisher payout"): a customer's own, an admin's of
any customer; a buyer has none. Reached from the dashboard's by-source card and the number form."""

from typing import Annotated

from fastapi import APIRouter, Query

from core.values.enums import Status
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.sources import SourceIn, SourceOut, SourceRow, SourceUpdate
from portal_api.services import sources
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/sources", tags=["sources"])
StatusQuery = Annotated[Status | None, Query(description="Only active or only inactive sources")]


@router.get("", summary="Traffic sources, paginated, by name; `params` matches the name or utm_source")
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    status: StatusQuery = None,
) -> Envelope[PageData[SourceRow]]:
    return ok(sources.page(session, principal, pg, user_id, status))


@router.post("", status_code=201, summary="Add a traffic source")
def add(body: SourceIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[SourceOut]:
    return ok(SourceOut.model_validate(sources.create(session, principal, body)), "Source added.")


@router.put(
    "/{id:int}", summary="Change a traffic source (its payout applies to calls rated from now, and re-rated)"
)
def update(
    id: IdPath, body: SourceUpdate, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[SourceOut]:
    return ok(SourceOut.model_validate(sources.update(session, principal, id, body)), "Source saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a traffic source (its numbers keep routing without one; refused while calls name it)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    sources.delete(session, principal, id)
    return ok(None, "Source deleted.")
