"""Targets: where a buyer takes calls, dialled through an outbound trunk."""

from sqlalchemy import select
from sqlmodel import Session

from core.infra import outbound
from core.models import Buyer, Campaign, CampaignTarget, Target, Trunk, User
from core.values.enums import Status, TrunkDirection
from core.values.errors import DomainError, ErrorId, missing_row
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.targets import AssignedTarget, TargetIn, TargetOut, TargetRow, TargetUpdate
from portal_api.services.call_names import named_page
from portal_api.services.common import create_row, delete_row, owned, text_filter, update_row
from portal_api.services.tenancy import get_visible, scoped, visible_id


def _check_trunk(session: Session, trunk_id: int | None) -> None:
    if trunk_id is None:
        return
    trunk = session.get(Trunk, trunk_id)
    if trunk is None:
        raise missing_row("trunk_id", "Trunk", trunk_id)
    if trunk.direction != TrunkDirection.OUTBOUND:
        raise DomainError(
            ErrorId.TARGET_TRUNK_INBOUND,
            f"Trunk {trunk.name} is inbound; targets are dialled through outbound trunks.",
            "trunk_id",
        )


def _check_bidding(ping_url: str | None, post_url: str | None, min_bid: object) -> None:
    """Post URL and minimum bid belong to a bidder: a target without a ping URL has no use for them;
    a bidding URL whose host is an internal address is refused now, not only on each call."""
    for name, url in (("ping_url", ping_url), ("post_url", post_url)):
        if url is not None and (why := outbound.url_refusal(url)):
            raise DomainError(ErrorId.URL_NOT_PUBLIC, why, name)
    if ping_url is None and post_url is not None:
        message = "A post URL needs a ping URL: the target is a bidder only with one."
        raise DomainError(ErrorId.TARGET_BID_NEEDS_PING, message, "post_url")
    if ping_url is None and min_bid is not None:
        message = "A minimum bid needs a ping URL: the target is a bidder only with one."
        raise DomainError(ErrorId.TARGET_BID_NEEDS_PING, message, "min_bid")


def page(
    session: Session, principal: Principal, pg: PageParams, user_id: int | None, buyer_id: int | None
) -> PageData[TargetRow]:
    stmt = scoped(select(Target), Target, principal, user_id)
    stmt = text_filter(stmt, pg.params, Target.name, Target.destination)
    if visible_id(session, Buyer, buyer_id, principal, "buyer_id", "Buyer") is not None:
        stmt = stmt.where(Target.buyer_id == buyer_id)
    return named_page(session, stmt.order_by(Target.id.desc()), pg, TargetRow)


def create(session: Session, principal: Principal, body: TargetIn) -> Target:
    buyer = session.get(Buyer, body.buyer_id)
    if buyer is None or (not principal.is_admin and buyer.user_id != principal.owner_id):
        raise missing_row("buyer_id", "Buyer", body.buyer_id)
    _check_trunk(session, body.trunk_id)
    _check_bidding(body.ping_url, body.post_url, body.min_bid)
    fields = body.model_dump()
    if "timezone" not in body.model_fields_set:
        # Open hours and caps count in the account's zone unless the target names its own.
        owner = session.get(User, buyer.user_id)
        fields["timezone"] = owner.timezone if owner else "UTC"
    return create_row(session, Target(**fields, user_id=buyer.user_id))


def update(session: Session, principal: Principal, target_id: int, body: TargetUpdate) -> Target:
    target = get_visible(session, Target, target_id, principal, "Target")
    changes = body.model_dump(exclude_unset=True)

    def check() -> None:
        _check_trunk(session, changes.get("trunk_id"))
        after = {k: changes.get(k, getattr(target, k)) for k in ("ping_url", "post_url", "min_bid")}
        _check_bidding(after["ping_url"], after["post_url"], after["min_bid"])

    return update_row(
        session,
        target,
        changes,
        required=TargetUpdate.not_null,
        check=check,
    )


def delete(session: Session, principal: Principal, target_id: int) -> None:
    delete_row(session, Target, target_id, principal, "Target")


def assignable(session: Session, principal: Principal, campaign_id: int) -> list[TargetOut]:
    """Active targets of the campaign's customer not yet assigned to it."""
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    linked = select(CampaignTarget.target_id).where(CampaignTarget.campaign_id == campaign.id)
    stmt = (
        select(Target)
        .where(Target.user_id == campaign.user_id, Target.status == Status.ACTIVE)
        .where(Target.id.not_in(linked))
        .order_by(Target.name)
    )
    return [TargetOut.model_validate(t) for t in session.scalars(stmt)]


def assigned(
    session: Session, principal: Principal, campaign_id: int, user_id: int | None
) -> list[AssignedTarget]:
    """The campaign's targets in dialling order."""
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    if user_id is not None:
        owned(session, Campaign, campaign_id, user_id, "campaign_id", "Campaign")
    rows = session.execute(
        select(CampaignTarget, Target)
        .join(Target, Target.id == CampaignTarget.target_id)
        .where(CampaignTarget.campaign_id == campaign.id)
        .order_by(CampaignTarget.priority, CampaignTarget.weight.desc(), Target.name)
    )
    return [
        AssignedTarget(
            target_id=t.id or 0,
            name=t.name,
            destination=t.destination,
            buyer_id=t.buyer_id,
            target_status=Status(t.status),
            priority=link.priority,
            weight=link.weight,
            link_status=Status(link.status),
        )
        for link, t in rows
    ]
