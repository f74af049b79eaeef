"""Campaigns (spec §7 Campaigns) and their IVR authentication settings."""

from fastapi import APIRouter

from core.models import Campaign
from core.values.enums import Status
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
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
from portal_api.services import campaigns, common
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/campaign", tags=["campaigns"])


@router.get("/details", summary="Campaigns, paginated")
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    status: Status | None = None,
) -> Envelope[PageData[CampaignOut]]:
    return ok(campaigns.page(session, principal, pg, user_id, status))


@router.get("/on-camp", summary="Active campaigns, for pickers")
def active(principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[CampaignBrief]]:
    return ok(campaigns.active(session, principal))


@router.get("/user/{id:int}", summary="The campaigns of customer `id`")
def of_user(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[CampaignBrief]]:
    return ok(campaigns.of_user(session, principal, id))


@router.get("/camp-user/{id:int}", summary="The customer owning campaign `id`")
def owner(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[CampaignOwner]:
    return ok(campaigns.owner(session, principal, id))


@router.get("/{id:int}", summary="One campaign (a customer: its own)")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[CampaignOut]:
    return ok(CampaignOut.model_validate(campaigns.visible(session, principal, id)))


@router.get("/ivr/{id:int}", summary="IVR settings of campaign `id`")
def ivr(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[IvrSettings]:
    return ok(IvrSettings.model_validate(campaigns.visible(session, principal, id), from_attributes=True))


@router.put("/ivr-edit", summary="Change a campaign's IVR settings")
def ivr_edit(body: IvrEdit, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[IvrSettings]:
    campaign = campaigns.edit_ivr(session, principal, body)
    return ok(IvrSettings.model_validate(campaign, from_attributes=True), "IVR settings saved.")


@router.post("/add", status_code=201, summary="Create a campaign")
def add(body: CampaignIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[CampaignOut]:
    return ok(CampaignOut.model_validate(campaigns.create(session, principal, body)), "Campaign created.")


@router.put("/{id:int}", summary="Update a campaign's routing settings")
def update(
    id: IdPath, body: CampaignUpdate, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[CampaignOut]:
    return ok(CampaignOut.model_validate(campaigns.update(session, principal, id, body)), "Campaign saved.")


@router.patch("/status/{id:int}", summary="Activate or deactivate")
def status(
    id: IdPath, body: StatusIn, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[CampaignOut]:
    campaign = common.set_status(session, Campaign, id, body.status.value, principal, "Campaign")
    return ok(CampaignOut.model_validate(campaign), f"Campaign is now {body.status.value}.")


@router.delete(
    "/{id:int}",
    summary="Delete a campaign without calls (with calls: 409, deactivate it)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    campaigns.delete(session, principal, id)
    return ok(None, "Campaign deleted.")
