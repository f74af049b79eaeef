"""Conversions back to the ad platforms (docs/conversions.md): a customer's converted calls that a
Google click brought, as the file Google Ads imports. Customers export their own; an admin names the
customer (`user_id`). The Meta-style server event is the `attributed` webhook event (docs/webhooks.md)."""

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import SessionDep
from portal_api.schemas.conversions import GoogleAdsExport, google_ads_export
from portal_api.services import conversions
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/conversions", tags=["reports"])


@router.get(
    "/google-ads",
    summary="Converted calls with a Google click id, as Google Ads' offline click conversions CSV",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/csv": {"schema": {"type": "string"}}},
            "description": "google-ads-conversions-<fromDate>-<toDate>.csv",
        }
    },
)
def google_ads(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    q: Annotated[GoogleAdsExport, Depends(google_ads_export)],
    user_id: UserFilter = None,
) -> StreamingResponse:
    return StreamingResponse(
        conversions.google_ads_csv(session, principal, user_id, q),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{conversions.filename(q)}"'},
    )
