"""Call webhooks: who subscribes to which call events, and each event's delivery (docs/webhooks.md)."""

from datetime import datetime
from typing import Any

from sqlalchemy import ARRAY, CheckConstraint, Column, Index, String, UniqueConstraint
from sqlalchemy import text as sql_text
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk, created_at, fk, jsonb, string, timestamp
from core.values.enums import DeliveryStatus, WebhookStatus, sql_in


class Webhook(SQLModel, table=True):
    """A URL told of a campaign's calls, or of a buyer's; `user_id` is the customer who owns it."""

    __tablename__ = "webhook"
    __table_args__ = (
        CheckConstraint("(campaign_id IS NULL) <> (buyer_id IS NULL)", name="one_owner"),
        CheckConstraint(sql_in("status", WebhookStatus), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    campaign_id: int | None = fk("campaign.id", ondelete="CASCADE")
    buyer_id: int | None = fk("buyer.id", ondelete="CASCADE")
    url: str = string(2000)
    events: list[str] = Field(
        default_factory=list,
        sa_column=Column(ARRAY(String(16)), nullable=False, server_default=sql_text("'{}'")),
    )
    secret: str = string(80)
    status: str = string(16, default=WebhookStatus.ACTIVE.value)
    paused_reason: str | None = string(200, nullable=True)
    # Failed attempts in a row, and since when: what pauses a subscriber that keeps failing.
    failures: int = 0
    failing_since: datetime | None = timestamp()
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class WebhookDelivery(SQLModel, table=True):
    """One call event for one webhook: its body, and how sending it went (the call's delivery log)."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (
        # Each event of a call once per subscriber (`seq`: which target rang, for `routed`).
        UniqueConstraint("webhook_id", "linkedid", "event", "seq", name="uq_webhook_delivery_event"),
        CheckConstraint(sql_in("status", DeliveryStatus), name="status"),
        # A call's events go out in order: the sender looks for an earlier one still pending.
        Index(
            "ix_webhook_delivery_chain", "webhook_id", "linkedid", "id", postgresql_where="status = 'pending'"
        ),
        Index("ix_webhook_delivery_due", "next_attempt_at", postgresql_where="status = 'pending'"),
        Index("ix_webhook_delivery_call", "linkedid"),
    )

    id: int | None = big_pk()
    webhook_id: int = fk("webhook.id", ondelete="CASCADE", nullable=False, index=False)
    linkedid: str = string(64)
    event: str = string(16)
    seq: int = 0
    body: dict[str, Any] = jsonb(dict)  # the event's JSON (core/webhooks/payload.py)
    status: str = string(16, default=DeliveryStatus.PENDING.value)
    attempts: int = 0
    next_attempt_at: datetime = timestamp(nullable=False)
    retry_until: datetime = timestamp(nullable=False)
    url: str | None = string(2000, nullable=True)  # as last sent (its template filled in)
    status_code: int | None = None
    latency_ms: int | None = None
    response: str | None = string(500, nullable=True)  # the start of the receiver's answer
    error: str | None = string(300, nullable=True)  # why no answer came (timeout, refused)
    created_at: datetime = created_at()
    last_attempt_at: datetime | None = timestamp()
    delivered_at: datetime | None = timestamp()
