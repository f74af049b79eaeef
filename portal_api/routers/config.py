"""The business constants the portal shows money with (spec §9), so the UI hard-codes none."""

from fastapi import APIRouter

from portal_api.auth.principal import PrincipalDep
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.billing import PortalConfig
from portal_api.services import accounts

router = APIRouter(tags=["account"])


@router.get(
    "/config",
    summary="The caller's currency and the low-balance threshold, for showing money",
)
def config(principal: PrincipalDep, session: SessionDep) -> Envelope[PortalConfig]:
    return ok(accounts.portal_config(session, principal.user))
