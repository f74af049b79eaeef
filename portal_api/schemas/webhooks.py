"""Webhook bodies (docs/webhooks.md): a URL (optionally with tokens), the events it wants, and
the delivery log a call's detail shows."""

from datetime import datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from core.values.enums import DeliveryStatus, WebhookEvent, WebhookStatus
from core.webhooks import template
from portal_api.deps import MAX_ID
from portal_api.schemas.common import PUBLIC_URL_SCHEMA, StrictBody, outbound_url


def _url(value: str) -> str:
    if unknown := template.unknown_tokens(value):
        known = ", ".join("{" + t + "}" for t in template.TOKENS)
        raise ValueError(f"{{{unknown[0]}}} is no token; a URL may use {known}")
    outbound_url(template.render(value, {}), example="https://crm.example/calls?id={linkedid}")
    return value


WebhookUrl = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=2000, pattern=r"^https?://\S+$"),
    AfterValidator(_url),
    PUBLIC_URL_SCHEMA,
]
Events = Annotated[list[WebhookEvent], Field(min_length=1, max_length=len(WebhookEvent))]


_CAMPAIGN_ONLY = {"items": {"not": {"enum": [WebhookEvent.INCOMING.value, WebhookEvent.ATTRIBUTED.value]}}}


class WebhookIn(StrictBody):
    # Exactly one of the two names whose calls the webhook gets (the other left out or null); a
    # buyer's webhook can't take `incoming` (the buyer is known only once the call is routed) nor
    # `attributed` (where the call came from is the customer's).
    rules = {
        "oneOf": [
            {
                "required": ["campaign_id"],
                "properties": {"campaign_id": {"type": "integer"}, "buyer_id": {"type": "null"}},
            },
            {
                "required": ["buyer_id"],
                "properties": {
                    "buyer_id": {"type": "integer"},
                    "campaign_id": {"type": "null"},
                    "events": _CAMPAIGN_ONLY,
                },
            },
        ]
    }
    campaign_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="A campaign's calls (or buyer_id)"
    )
    buyer_id: int | None = Field(
        default=None, ge=1, le=MAX_ID, description="A buyer's calls (or campaign_id)"
    )
    url: WebhookUrl
    events: Events


class WebhookUpdate(StrictBody):
    not_null = ("url", "events")
    url: WebhookUrl | None = None
    events: Events | None = None


class WebhookStatusIn(StrictBody):
    status: WebhookStatus


class WebhookOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    user_id: int
    campaign_id: int | None
    buyer_id: int | None
    url: str
    events: list[WebhookEvent]
    secret: str = Field(description="Signs every request (X-Callroute-Signature); only its owners see it")
    status: WebhookStatus
    paused_reason: str | None
    failures: int = Field(description="Failed tries in a row")
    created_at: datetime
    updated_at: datetime | None


class DeliveryOut(BaseModel):
    """One event of the call sent to one webhook, and how the last try went."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    webhook_id: int
    event: WebhookEvent
    seq: int
    status: DeliveryStatus
    attempts: int
    url: str | None
    status_code: int | None
    latency_ms: int | None
    response: str | None
    error: str | None
    created_at: datetime
    last_attempt_at: datetime | None
    next_attempt_at: datetime
    delivered_at: datetime | None
