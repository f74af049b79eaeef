"""Call webhooks (docs/webhooks.md): a customer's on its campaigns and buyers, a buyer's on itself,
the admin's on all; each call's delivery log and "send again"."""

from typing import Annotated

from fastapi import APIRouter, Query

from portal_api.auth.principal import PrincipalDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.webhooks import DeliveryOut, WebhookIn, WebhookOut, WebhookStatusIn, WebhookUpdate
from portal_api.services import webhooks

router = APIRouter(prefix="/webhook", tags=["webhooks"])
OptionalId = Annotated[int | None, Query(ge=1, le=MAX_ID)]


@router.get("/details", summary="Webhooks, paginated")
def details(
    principal: PrincipalDep,
    session: SessionDep,
    pg: PageDep,
    campaign_id: OptionalId = None,
    buyer_id: OptionalId = None,
) -> Envelope[PageData[WebhookOut]]:
    return ok(webhooks.page(session, principal, pg, campaign_id, buyer_id))


@router.post(
    "/add",
    status_code=201,
    summary="Add a campaign's or a buyer's webhook",
)
def add(body: WebhookIn, principal: PrincipalDep, session: SessionDep) -> Envelope[WebhookOut]:
    return ok(WebhookOut.model_validate(webhooks.create(session, principal, body)), "Webhook added.")


@router.put("/{id:int}", summary="Change a webhook's URL or events")
def update(
    id: IdPath, body: WebhookUpdate, principal: PrincipalDep, session: SessionDep
) -> Envelope[WebhookOut]:
    return ok(WebhookOut.model_validate(webhooks.update(session, principal, id, body)), "Webhook saved.")


@router.patch(
    "/status/{id:int}",
    summary="Pause or resume a webhook (resumed: what waited is sent)",
)
def status(
    id: IdPath, body: WebhookStatusIn, principal: PrincipalDep, session: SessionDep
) -> Envelope[WebhookOut]:
    hook = webhooks.change_status(session, principal, id, body.status)
    return ok(WebhookOut.model_validate(hook), f"Webhook is now {body.status.value}.")


@router.post("/secret/{id:int}", summary="Give a webhook a new secret")
def secret(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[WebhookOut]:
    hook = webhooks.new_secret(session, principal, id)
    return ok(WebhookOut.model_validate(hook), "New secret: the old one no longer signs.")


@router.delete("/{id:int}", summary="Remove a webhook and its delivery log")
def remove(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[None]:
    webhooks.delete(session, principal, id)
    return ok(None, "Webhook removed.")


@router.get(
    "/deliveries/{id:int}",
    summary="Call `id`'s events as sent to the webhooks the caller sees",
)
def deliveries(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[list[DeliveryOut]]:
    return ok(webhooks.deliveries(session, principal, id))


@router.post("/resend/{id:int}", summary="Send delivery `id`'s event again now")
def resend(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[DeliveryOut]:
    return ok(webhooks.send_again(session, principal, id), "The event is being sent again.")
