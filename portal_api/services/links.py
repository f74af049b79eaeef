"""Campaign-target links: which targets take a campaign's calls, in what order."""

from sqlalchemy import select
from sqlmodel import Session

from core.models import Campaign, CampaignTarget, Target
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.schemas.targets import LinkAdd, LinkPriority, LinkRemove
from portal_api.services.common import owned
from portal_api.services.tenancy import get_visible


def _link(session: Session, campaign_id: int, target_id: int) -> CampaignTarget | None:
    stmt = select(CampaignTarget).where(
        CampaignTarget.campaign_id == campaign_id, CampaignTarget.target_id == target_id
    )
    return session.scalars(stmt).first()


def _existing_link(
    session: Session, principal: Principal, campaign_id: int, target_id: int
) -> CampaignTarget:
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    link = _link(session, campaign.id or 0, target_id)
    if link is None:
        raise DomainError(ErrorId.CAMPAIGN_TARGET_NOT_LINKED, "This target is not assigned to this campaign.")
    return link


def assign(session: Session, principal: Principal, body: LinkAdd) -> int:
    """Links each target with its priority and weight (re-assigning updates them); how many."""
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    if len({item.target_id for item in body.targets}) != len(body.targets):
        raise DomainError(ErrorId.CAMPAIGN_TARGET_TWICE, "A target appears more than once.", "targets")
    for i, item in enumerate(body.targets):
        owned(session, Target, item.target_id, campaign.user_id, f"targets.{i}.target_id", "Target")
        link = _link(session, campaign.id or 0, item.target_id) or CampaignTarget(
            user_id=campaign.user_id, campaign_id=campaign.id or 0, target_id=item.target_id
        )
        link.priority, link.weight = item.priority, item.weight
        session.add(link)
    session.commit()
    return len(body.targets)


def unassign(session: Session, principal: Principal, body: LinkRemove) -> None:
    session.delete(_existing_link(session, principal, body.campaign_id, body.target_id))
    session.commit()


def set_priority(session: Session, principal: Principal, target_id: int, body: LinkPriority) -> None:
    link = _existing_link(session, principal, body.campaign_id, target_id)
    link.priority = body.priority
    if body.weight is not None:
        link.weight = body.weight
    session.add(link)
    session.commit()
