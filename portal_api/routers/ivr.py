"""The IVR Auth screens (admin `ivr`, customer `user_ivr`): campaigns with their IVR settings."""

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select

from core.models import Campaign
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.call_names import named_page
from portal_api.crud import text_filter
from portal_api.deps import MAX_ID, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.campaigns import IvrRow
from portal_api.tenancy import scoped

router = APIRouter(prefix="/ivr", tags=["campaigns"])


@router.get(
    "/details",
    response_model=Envelope[PageData[IvrRow]],
    summary="IVR settings of the caller's campaigns, named with their customer (admin: all, or one's)",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    enabled: bool | None = None,
) -> dict:
    stmt = text_filter(scoped(select(Campaign), Campaign, principal, user_id), pg.params, Campaign.name)
    if enabled is not None:
        stmt = stmt.where(Campaign.ivr_enabled.is_(enabled))  # type: ignore[attr-defined]
    return ok(named_page(session, stmt.order_by(Campaign.id.desc()), pg, IvrRow))  # type: ignore[union-attr]
