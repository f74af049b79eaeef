"""Campaign-target links (spec §7 `/camp/*`): which targets take a campaign's calls, in what order."""

from fastapi import APIRouter
from sqlalchemy import select

from core.models import Campaign, CampaignTarget, Target
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.errors import ApiError, field_error
from portal_api.schemas.targets import LinkAdd, LinkPriority, LinkRemove
from portal_api.services.common import owned
from portal_api.tenancy import get_visible

router = APIRouter(prefix="/camp", tags=["campaign targets"])


def _link(session: SessionDep, campaign_id: int, target_id: int) -> CampaignTarget | None:
    stmt = select(CampaignTarget).where(
        CampaignTarget.campaign_id == campaign_id, CampaignTarget.target_id == target_id
    )
    return session.scalars(stmt).first()


@router.post(
    "/add",
    response_model=Envelope[int],
    summary="Assign targets to a campaign with priority and weight (re-assigning updates them)",
)
def add(body: LinkAdd, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    if len({item.target_id for item in body.targets}) != len(body.targets):
        raise field_error("targets", "A target appears more than once.")
    for i, item in enumerate(body.targets):
        owned(session, Target, item.target_id, campaign.user_id, f"targets.{i}.target_id", "Target")
        link = _link(session, campaign.id or 0, item.target_id) or CampaignTarget(
            user_id=campaign.user_id, campaign_id=campaign.id or 0, target_id=item.target_id
        )
        link.priority, link.weight = item.priority, item.weight
        session.add(link)
    session.commit()
    return ok(len(body.targets), f"{len(body.targets)} target(s) assigned.")


@router.post("/rc", response_model=Envelope[None], summary="Remove a target from a campaign")
def remove(body: LinkRemove, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    link = _link(session, campaign.id or 0, body.target_id)
    if link is None:
        raise ApiError(404, "This target is not assigned to this campaign.")
    session.delete(link)
    session.commit()
    return ok(None, "Target removed from the campaign.")


@router.patch(
    "/priority/{target_id}",
    response_model=Envelope[None],
    summary="Change a target's priority (and weight) within a campaign",
)
def priority(
    target_id: IdPath, body: LinkPriority, principal: AdminOrCustomerDep, session: SessionDep
) -> dict:
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    link = _link(session, campaign.id or 0, target_id)
    if link is None:
        raise ApiError(404, "This target is not assigned to this campaign.")
    link.priority = body.priority
    if body.weight is not None:
        link.weight = body.weight
    session.add(link)
    session.commit()
    return ok(None, "Priority saved.")
