"""A campaign's target links with everything a routing decision reads, in one query."""

from dataclasses import dataclass

from sqlalchemy import bindparam
from sqlmodel import Session, select

from core.models import Buyer, CampaignTarget, Target, Trunk
from core.routing.catalogue import cached


@dataclass(frozen=True)
class Link:
    link: CampaignTarget
    target: Target
    buyer: Buyer
    trunk: Trunk | None


_LINKS = (
    select(CampaignTarget, Target, Buyer, Trunk)
    .join(Target, Target.id == CampaignTarget.target_id)
    .join(Buyer, Buyer.id == Target.buyer_id)
    .outerjoin(Trunk, Trunk.id == Target.trunk_id)
    .where(CampaignTarget.campaign_id == bindparam("campaign_id"))
    .order_by(CampaignTarget.priority, CampaignTarget.id)
)  # built once: every call runs it


def campaign_links(session: Session, campaign_id: int) -> list[Link]:
    """Every link of the campaign, active or not (skipped ones belong in the trail too), in
    priority order, ties by link creation so round robin rotates over a stable list.

    Read once per session, or once per catalogue version with a cache attached (catalogue.py): the
    credit check and the target selection of one call both need them.
    """
    return cached(
        session,
        ("links", campaign_id),
        lambda: [Link(*row) for row in session.exec(_LINKS, params={"campaign_id": campaign_id})],
    )
