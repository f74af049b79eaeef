"""The business constants the portal shows money with (spec §9), so the UI hard-codes none."""

from fastapi import APIRouter

from core.money import to_money
from core.settings import get_settings
from portal_api.accounts import wallet_currency
from portal_api.auth.principal import PrincipalDep
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.billing import PortalConfig

router = APIRouter(tags=["account"])


@router.get(
    "/config",
    response_model=Envelope[PortalConfig],
    summary="The caller's currency and the low-balance threshold, for showing money",
)
def config(principal: PrincipalDep, session: SessionDep) -> dict:
    threshold = to_money(get_settings().low_balance_threshold)
    currency = wallet_currency(session, principal.user)
    return ok(PortalConfig(currency=currency, low_balance_threshold=threshold))
