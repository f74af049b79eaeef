"""The IVR Auth screens (admin `ivr`, customer `user_ivr`): campaigns with their IVR settings."""

from fastapi import APIRouter

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.campaigns import IvrRow
from portal_api.services import campaigns
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/ivr", tags=["campaigns"])


@router.get(
    "/details",
    summary="IVR settings of the caller's campaigns, named with their customer (admin: all, or one's)",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    enabled: bool | None = None,
) -> Envelope[PageData[IvrRow]]:
    return ok(campaigns.ivr_page(session, principal, pg, user_id, enabled))
