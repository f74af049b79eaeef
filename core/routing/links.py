"""A campaign's target links with everything a routing decision reads, in one query."""

from dataclasses import dataclass

from sqlmodel import Session, select

from core.models import Buyer, CampaignTarget, Target, Trunk


@dataclass(frozen=True)
class Link:
    link: CampaignTarget
    target: Target
    buyer: Buyer
    trunk: Trunk | None


def campaign_links(session: Session, campaign_id: int) -> list[Link]:
    """Every link of the campaign, active or not (skipped ones belong in the trail too), in
    priority order, ties by link creation so round robin rotates over a stable list."""
    stmt = (
        select(CampaignTarget, Target, Buyer, Trunk)
        .join(Target, Target.id == CampaignTarget.target_id)  # type: ignore[arg-type]
        .join(Buyer, Buyer.id == Target.buyer_id)  # type: ignore[arg-type]
        .outerjoin(Trunk, Trunk.id == Target.trunk_id)  # type: ignore[arg-type]
        .where(CampaignTarget.campaign_id == campaign_id)
        .order_by(CampaignTarget.priority, CampaignTarget.id)
    )
    return [Link(*row) for row in session.exec(stmt).all()]
