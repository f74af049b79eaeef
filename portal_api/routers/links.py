"""Campaign-target links (spec §7 `/camp/*`): which targets take a campaign's calls, in what order."""

from fastapi import APIRouter

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.targets import LinkAdd, LinkPriority, LinkRemove
from portal_api.services import links

router = APIRouter(prefix="/camp", tags=["campaign targets"])


@router.post(
    "/add",
    summary="Assign targets to a campaign with priority and weight (re-assigning updates them)",
)
def add(body: LinkAdd, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[int]:
    count = links.assign(session, principal, body)
    return ok(count, f"{count} target(s) assigned.")


@router.post("/rc", summary="Remove a target from a campaign")
def remove(body: LinkRemove, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    links.unassign(session, principal, body)
    return ok(None, "Target removed from the campaign.")


@router.patch(
    "/priority/{target_id:int}",
    summary="Change a target's priority (and weight) within a campaign",
)
def priority(
    target_id: IdPath, body: LinkPriority, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[None]:
    links.set_priority(session, principal, target_id, body)
    return ok(None, "Priority saved.")
