"""Campaigns and their IVR authentication settings, scoped to the caller's tenant."""

from sqlalchemy import select
from sqlmodel import Session

from core.models import Campaign, User
from core.values.enums import Status
from core.values.errors import DomainError, ErrorId
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.campaigns import (
    CampaignBrief,
    CampaignIn,
    CampaignOut,
    CampaignOwner,
    CampaignUpdate,
    IvrEdit,
    IvrRow,
)
from portal_api.services import prompts
from portal_api.services.call_names import named_page
from portal_api.services.common import (
    create_row,
    delete_row,
    page_of,
    resolve_owner,
    text_filter,
    update_row,
)
from portal_api.services.tenancy import get_visible, scoped


def _check_name_free(session: Session, user_id: int, name: str, except_id: int | None = None) -> None:
    stmt = select(Campaign.id).where(Campaign.user_id == user_id, Campaign.name == name)
    if except_id is not None:
        stmt = stmt.where(Campaign.id != except_id)
    if session.scalar(stmt) is not None:
        raise DomainError(ErrorId.ROW_NAME_TAKEN, f"A campaign named '{name}' already exists.", "name")


def page(
    session: Session, principal: Principal, pg: PageParams, user_id: int | None, status: Status | None
) -> PageData[CampaignOut]:
    stmt = text_filter(scoped(select(Campaign), Campaign, principal, user_id), pg.params, Campaign.name)
    if status is not None:
        stmt = stmt.where(Campaign.status == status.value)
    return page_of(session, stmt.order_by(Campaign.id.desc()), pg, CampaignOut.model_validate)


def ivr_page(
    session: Session, principal: Principal, pg: PageParams, user_id: int | None, enabled: bool | None
) -> PageData[IvrRow]:
    """The IVR Auth screens: the caller's campaigns with their IVR settings."""
    stmt = text_filter(scoped(select(Campaign), Campaign, principal, user_id), pg.params, Campaign.name)
    if enabled is not None:
        stmt = stmt.where(Campaign.ivr_enabled.is_(enabled))
    return named_page(session, stmt.order_by(Campaign.id.desc()), pg, IvrRow)


def active(session: Session, principal: Principal) -> list[CampaignBrief]:
    stmt = scoped(select(Campaign), Campaign, principal).where(Campaign.status == Status.ACTIVE)
    return [CampaignBrief.model_validate(c) for c in session.scalars(stmt.order_by(Campaign.name))]


def of_user(session: Session, principal: Principal, user_id: int) -> list[CampaignBrief]:
    get_visible(session, User, user_id, principal, "User")
    stmt = select(Campaign).where(Campaign.user_id == user_id).order_by(Campaign.name)
    return [CampaignBrief.model_validate(c) for c in session.scalars(stmt)]


def owner(session: Session, principal: Principal, campaign_id: int) -> CampaignOwner:
    campaign = get_visible(session, Campaign, campaign_id, principal, "Campaign")
    user = session.get(User, campaign.user_id)
    assert user is not None
    return CampaignOwner(campaign_id=campaign_id, user_id=user.id or 0, name=user.name, email=user.email)


def visible(session: Session, principal: Principal, campaign_id: int) -> Campaign:
    return get_visible(session, Campaign, campaign_id, principal, "Campaign")


def edit_ivr(session: Session, principal: Principal, body: IvrEdit) -> Campaign:
    campaign = visible(session, principal, body.campaign_id)
    prompts.check(session, campaign, body.ivr_prompt)
    changes = body.model_dump(exclude={"campaign_id"}) | {"ivr_pins": sorted(set(body.ivr_pins))}
    return update_row(session, campaign, changes, required=())


def create(session: Session, principal: Principal, body: CampaignIn) -> Campaign:
    owner_id = resolve_owner(session, principal, body.user_id)
    _check_name_free(session, owner_id, body.name)
    return create_row(session, Campaign(**body.model_dump(exclude={"user_id"}), user_id=owner_id))


def update(session: Session, principal: Principal, campaign_id: int, body: CampaignUpdate) -> Campaign:
    campaign = visible(session, principal, campaign_id)
    changes = body.model_dump(exclude_unset=True)

    def check() -> None:
        if "name" in changes:
            _check_name_free(session, campaign.user_id, changes["name"], except_id=campaign_id)

    return update_row(session, campaign, changes, check=check)


def delete(session: Session, principal: Principal, campaign_id: int) -> None:
    # Calls reference campaigns with RESTRICT: one with history is refused (409) by the database.
    delete_row(session, Campaign, campaign_id, principal, "Campaign")
