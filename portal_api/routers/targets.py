"""Targets (spec §7 Targets): where a buyer takes calls."""

from typing import Annotated

from fastapi import APIRouter, Query

from core.models import Target
from core.values.enums import Status
from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import BulkStatusIn, BulkStatusOut, StatusIn
from portal_api.schemas.targets import (
    AssignedTarget,
    CampaignRef,
    TargetIn,
    TargetOut,
    TargetRow,
    TargetUpdate,
)
from portal_api.services import common, targets
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/target", tags=["targets"])


@router.get(
    "/details",
    summary="Targets, paginated, with their buyer's and trunk's names (a buyer sees its own)",
)
def details(
    principal: PrincipalDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    buyer_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> Envelope[PageData[TargetRow]]:
    return ok(targets.page(session, principal, pg, user_id, buyer_id))


@router.post("/add", status_code=201, summary="Create a target for a buyer")
def add(body: TargetIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[TargetOut]:
    return ok(TargetOut.model_validate(targets.create(session, principal, body)), "Target created.")


@router.put("/{id:int}", summary="Update a target")
def update(
    id: IdPath, body: TargetUpdate, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[TargetOut]:
    return ok(TargetOut.model_validate(targets.update(session, principal, id, body)), "Target saved.")


@router.patch("/status/{id:int}", summary="Activate or deactivate (a buyer: its own targets)")
def status(id: IdPath, body: StatusIn, principal: PrincipalDep, session: SessionDep) -> Envelope[TargetOut]:
    target = common.set_status(session, Target, id, body.status.value, principal, "Target")
    return ok(TargetOut.model_validate(target), f"Target is now {body.status.value}.")


@router.post(
    "/bulk-status",
    summary="Pause or resume several targets at once, all or nothing (a buyer: its own)",
)
def bulk_status(body: BulkStatusIn, principal: PrincipalDep, session: SessionDep) -> Envelope[BulkStatusOut]:
    changed, unchanged = common.set_statuses(
        session, Target, body.ids, body.status.value, principal, "Target"
    )
    verb = "paused" if body.status == Status.INACTIVE else "resumed"
    message = f"{len(changed)} target{'s' if len(changed) != 1 else ''} {verb}"
    if unchanged:
        message += f"; {len(unchanged)} {'was' if len(unchanged) == 1 else 'were'} already"
    return ok(BulkStatusOut(changed=changed, unchanged=unchanged), f"{message}.")


@router.delete(
    "/{id:int}",
    summary="Delete a target without calls (with calls: 409, deactivate it)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    targets.delete(session, principal, id)
    return ok(None, "Target deleted.")


@router.post(
    "/getTargetsForCampaign",
    summary="Active targets of the campaign's customer not yet assigned to it",
)
def assignable(
    body: CampaignRef, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[list[TargetOut]]:
    return ok(targets.assignable(session, principal, body.campaign_id))


@router.get(
    "/getAssignedTargetsForCampaign",
    summary="Targets assigned to a campaign, in dialling order",
)
def assigned(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    campaign_id: Annotated[int, Query(ge=1, le=MAX_ID)],
    user_id: UserFilter,
) -> Envelope[list[AssignedTarget]]:
    return ok(targets.assigned(session, principal, campaign_id, user_id))
