"""Campaigns (spec §7 Campaigns) and their IVR authentication settings."""

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select

from core.enums import Status
from core.models import Campaign, User
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import field_error
from portal_api.schemas.campaigns import (
    CampaignBrief,
    CampaignIn,
    CampaignOut,
    CampaignOwner,
    CampaignUpdate,
    IvrEdit,
    IvrSettings,
)
from portal_api.schemas.common import StatusIn
from portal_api.services.common import change_status, page_of, resolve_owner, text_filter
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/campaign", tags=["campaigns"])


def _name_taken(session: SessionDep, user_id: int, name: str, except_id: int | None = None) -> None:
    stmt = select(Campaign.id).where(Campaign.user_id == user_id, Campaign.name == name)
    if except_id is not None:
        stmt = stmt.where(Campaign.id != except_id)
    if session.scalar(stmt) is not None:
        raise field_error("name", f"A campaign named '{name}' already exists.", status=409)


@router.get("/details", response_model=Envelope[PageData[CampaignOut]], summary="Campaigns, paginated")
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    status: Status | None = None,
) -> dict:
    stmt = text_filter(scoped(select(Campaign), Campaign, principal, user_id), pg.params, Campaign.name)
    if status is not None:
        stmt = stmt.where(Campaign.status == status.value)
    return ok(page_of(session, stmt.order_by(Campaign.id.desc()), pg, CampaignOut.model_validate))  # type: ignore[union-attr]


@router.get("/on-camp", response_model=Envelope[list[CampaignBrief]], summary="Active campaigns, for pickers")
def active(principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    stmt = scoped(select(Campaign), Campaign, principal).where(Campaign.status == Status.ACTIVE)
    return ok([CampaignBrief.model_validate(c) for c in session.scalars(stmt.order_by(Campaign.name))])


@router.get(
    "/user/{id}", response_model=Envelope[list[CampaignBrief]], summary="The campaigns of customer `id`"
)
def of_user(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    get_visible(session, User, id, principal, "User")
    stmt = select(Campaign).where(Campaign.user_id == id).order_by(Campaign.name)
    return ok([CampaignBrief.model_validate(c) for c in session.scalars(stmt)])


@router.get(
    "/camp-user/{id}", response_model=Envelope[CampaignOwner], summary="The customer owning campaign `id`"
)
def owner(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, id, principal, "Campaign")
    user = session.get(User, campaign.user_id)
    assert user is not None
    return ok(CampaignOwner(campaign_id=id, user_id=user.id or 0, name=user.name, email=user.email))


@router.get("/ivr/{id}", response_model=Envelope[IvrSettings], summary="IVR settings of campaign `id`")
def ivr(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    return ok(
        IvrSettings.model_validate(
            get_visible(session, Campaign, id, principal, "Campaign"), from_attributes=True
        )
    )


@router.put("/ivr-edit", response_model=Envelope[IvrSettings], summary="Change a campaign's IVR settings")
def ivr_edit(body: IvrEdit, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, body.campaign_id, principal, "Campaign")
    for field, value in body.model_dump(exclude={"campaign_id"}).items():
        setattr(campaign, field, value)
    campaign.ivr_pins = sorted(set(body.ivr_pins))
    campaign.updated_at = datetime.now(UTC)
    session.add(campaign)
    session.commit()
    return ok(IvrSettings.model_validate(campaign, from_attributes=True), "IVR settings saved.")


@router.post("/add", response_model=Envelope[CampaignOut], status_code=201, summary="Create a campaign")
def add(body: CampaignIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    owner_id = resolve_owner(session, principal, body.user_id)
    _name_taken(session, owner_id, body.name)
    campaign = Campaign(**body.model_dump(exclude={"user_id"}), user_id=owner_id)
    session.add(campaign)
    session.commit()
    return ok(CampaignOut.model_validate(campaign), "Campaign created.")


@router.put("/{id}", response_model=Envelope[CampaignOut], summary="Update a campaign's routing settings")
def update(id: IdPath, body: CampaignUpdate, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = get_visible(session, Campaign, id, principal, "Campaign")
    changes = body.model_dump(exclude_unset=True)
    nulls = [f for f, v in changes.items() if v is None]
    if nulls:
        raise field_error(nulls[0], f"{nulls[0]} can't be empty.")
    if "name" in changes:
        _name_taken(session, campaign.user_id, changes["name"], except_id=id)
    for field, value in changes.items():
        setattr(campaign, field, value)
    campaign.updated_at = datetime.now(UTC)
    session.add(campaign)
    session.commit()
    return ok(CampaignOut.model_validate(campaign), "Campaign saved.")


@router.patch("/status/{id}", response_model=Envelope[CampaignOut], summary="Activate or deactivate")
def status(id: IdPath, body: StatusIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    campaign = change_status(session, Campaign, id, body.status.value, principal, "Campaign")
    session.commit()
    return ok(CampaignOut.model_validate(campaign), f"Campaign is now {body.status.value}.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a campaign without calls (with calls: 409, deactivate it)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    # Calls reference campaigns with RESTRICT: one with history is refused (409) by the database.
    session.delete(get_visible(session, Campaign, id, principal, "Campaign"))
    session.commit()
    return ok(None, "Campaign deleted.")
