"""Webhooks: a customer's on its campaigns and its buyers, a buyer's on itself (tenancy.py scopes
them by `user_id` and `buyer_id`); each call's delivery log and "send again"."""

from datetime import UTC, datetime

from sqlalchemy import select
from sqlmodel import Session

from core.infra import outbound
from core.models import Buyer, Call, Campaign, Webhook, WebhookDelivery
from core.values.enums import DeliveryStatus, WebhookEvent, WebhookStatus
from core.values.errors import DomainError, ErrorId, missing_row, not_found
from core.webhooks import intake, signing, template
from core.webhooks.backoff import RETRY_FOR
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.webhooks import DeliveryOut, WebhookIn, WebhookOut, WebhookUpdate
from portal_api.services.common import create_row, delete_row, page_of, set_status, text_filter, update_row
from portal_api.services.tenancy import get_visible, scope_clause, scoped, visible_id

_NO_INCOMING = "A buyer's webhook can't take 'incoming': the buyer is known only once the call is routed."
_NO_ATTRIBUTED = "A buyer's webhook can't take 'attributed': where a call came from is the customer's."


def _check_buyer_events(events: list[WebhookEvent]) -> None:
    """The events a buyer's webhook may not take: refused when saved, so none is silently never sent."""
    if WebhookEvent.INCOMING in events:
        raise DomainError(ErrorId.WEBHOOK_BUYER_INCOMING, _NO_INCOMING, "events")
    if WebhookEvent.ATTRIBUTED in events:
        raise DomainError(ErrorId.WEBHOOK_BUYER_ATTRIBUTED, _NO_ATTRIBUTED, "events")


def page(
    session: Session, principal: Principal, pg: PageParams, campaign_id: int | None, buyer_id: int | None
) -> PageData[WebhookOut]:
    stmt = text_filter(scoped(select(Webhook), Webhook, principal), pg.params, Webhook.url)
    if visible_id(session, Campaign, campaign_id, principal, "campaign_id", "Campaign") is not None:
        stmt = stmt.where(Webhook.campaign_id == campaign_id)
    if visible_id(session, Buyer, buyer_id, principal, "buyer_id", "Buyer") is not None:
        stmt = stmt.where(Webhook.buyer_id == buyer_id)
    return page_of(session, stmt.order_by(Webhook.id), pg, WebhookOut.model_validate)


def _owner(session: Session, principal: Principal, body: WebhookIn) -> int:
    """The customer owning the campaign or buyer the new webhook is for, if the caller may use it."""
    if (body.campaign_id is None) == (body.buyer_id is None):
        message = "Name either a campaign or a buyer for the webhook."
        raise DomainError(ErrorId.WEBHOOK_OWNER, message, "campaign_id")
    if body.campaign_id is not None:
        campaign = session.get(Campaign, body.campaign_id)
        if (
            campaign is None
            or principal.is_buyer
            or (principal.is_customer and campaign.user_id != principal.owner_id)
        ):
            raise missing_row("campaign_id", "Campaign", body.campaign_id)
        return campaign.user_id
    buyer = session.get(Buyer, body.buyer_id)
    mine = principal.buyer.id if principal.buyer is not None else None
    if buyer is None or (principal.is_buyer and buyer.id != mine):
        raise missing_row("buyer_id", "Buyer", body.buyer_id)
    if principal.is_customer and buyer.user_id != principal.owner_id:
        raise missing_row("buyer_id", "Buyer", body.buyer_id)
    return buyer.user_id


def _check_reachable(url: str) -> None:
    """A URL whose host is an internal address is refused now, not only on each try."""
    if why := outbound.url_refusal(template.render(url, {})):
        raise DomainError(ErrorId.URL_NOT_PUBLIC, why, "url")


def create(session: Session, principal: Principal, body: WebhookIn) -> Webhook:
    owner = _owner(session, principal, body)
    _check_reachable(body.url)
    if body.buyer_id is not None:
        _check_buyer_events(body.events)
    hook = Webhook(
        user_id=owner,
        campaign_id=body.campaign_id,
        buyer_id=body.buyer_id,
        url=body.url,
        events=[e.value for e in dict.fromkeys(body.events)],
        secret=signing.new_secret(),
    )
    return create_row(session, hook)


def update(session: Session, principal: Principal, hook_id: int, body: WebhookUpdate) -> Webhook:
    hook = get_visible(session, Webhook, hook_id, principal, "Webhook")
    changes = body.model_dump(exclude_unset=True)
    if changes.get("url") is not None:
        _check_reachable(changes["url"])
    if "events" in changes and changes["events"] is not None:
        if hook.buyer_id is not None:
            _check_buyer_events(changes["events"])
        changes["events"] = [e.value for e in dict.fromkeys(changes["events"])]
    return update_row(session, hook, changes)


def change_status(session: Session, principal: Principal, hook_id: int, status: WebhookStatus) -> Webhook:
    """Pause, or resume: a resumed webhook starts counting failures afresh and gets what waited."""

    def complete(hook: Webhook) -> None:
        if status is WebhookStatus.ACTIVE:
            hook.failures, hook.failing_since, hook.paused_reason = 0, None, None
            intake.wake_after_commit(session)
        else:
            hook.paused_reason = "paused by its owner"

    return set_status(session, Webhook, hook_id, status.value, principal, "Webhook", complete=complete)


def new_secret(session: Session, principal: Principal, hook_id: int) -> Webhook:
    """A new signing secret; the old one stops at once."""
    hook = get_visible(session, Webhook, hook_id, principal, "Webhook")
    return update_row(session, hook, {"secret": signing.new_secret()})


def delete(session: Session, principal: Principal, hook_id: int) -> None:
    delete_row(session, Webhook, hook_id, principal, "Webhook")


def deliveries(session: Session, principal: Principal, call_id: int) -> list[DeliveryOut]:
    """The call's events as sent to the webhooks the caller may see, in order."""
    call = get_visible(session, Call, call_id, principal, "Call")
    stmt = (
        select(WebhookDelivery)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.linkedid == call.linkedid, scope_clause(Webhook, principal))
        .order_by(WebhookDelivery.id)
    )
    return [DeliveryOut.model_validate(d) for d in session.scalars(stmt)]


def send_again(session: Session, principal: Principal, delivery_id: int) -> DeliveryOut:
    """The event sent once more now (and retried for a day again should it fail)."""
    stmt = (
        select(WebhookDelivery)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(WebhookDelivery.id == delivery_id, scope_clause(Webhook, principal))
        .with_for_update(of=WebhookDelivery)
    )
    delivery = session.scalars(stmt).first()
    if delivery is None:
        raise not_found("Delivery")
    now = datetime.now(UTC)
    delivery.status, delivery.next_attempt_at, delivery.retry_until = (
        DeliveryStatus.PENDING.value,
        now,
        now + RETRY_FOR,
    )
    session.add(delivery)
    intake.wake_after_commit(session)
    session.commit()
    return DeliveryOut.model_validate(delivery)
