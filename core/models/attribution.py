"""Attribution (issue 33, docs/billing.md, docs/attribution.md): a customer's traffic sources, each
with what its publisher is owed per converted call, and one row per attributed call saying where the
caller came from."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Column, DateTime, Index, Numeric, text
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, jsonb, money, string, timestamp
from core.values.enums import AttributionStatus, ClickIdKind, PayoutKind, Status, sql_in

# A publisher's share of the buyer's payout, in percent with 4 places (12.5000 = 12.5%).
SHARE = Numeric(7, 4)


class TrafficSource(SQLModel, table=True):
    """A customer's source of calls: a publisher or affiliate, or a channel ("Google Ads")."""

    __tablename__ = "traffic_source"
    __table_args__ = (
        # Names are unique per customer whatever their case: "Google" and "google" are one source.
        Index("uq_traffic_source_user_name", "user_id", text("lower(name)"), unique=True),
        CheckConstraint(sql_in("status", Status), name="status"),
        CheckConstraint(sql_in("payout_kind", PayoutKind), name="payout_kind"),
        CheckConstraint("payout_amount >= 0", name="payout_amount"),
        CheckConstraint("payout_share BETWEEN 0 AND 100", name="payout_share"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False, index=False)
    name: str = string(128)
    # The utm_source a visit carries that means this source (matched case-insensitively); null: the
    # source is static only (its numbers').
    utm_source: str | None = string(128, nullable=True)
    payout_kind: str = string(16, default=PayoutKind.NONE.value)
    payout_amount: Decimal = money()  # per converted call, for 'fixed'
    payout_share: Decimal = Field(
        default=Decimal("0"), sa_column=Column(SHARE, nullable=False, server_default="0")
    )  # percent of the buyer's payout, for 'share'
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class CallAttribution(SQLModel, table=True):
    """Where one call's caller came from: the visitor session that held the number it dialled
    (matched, or ambiguous between candidates), or the number's own source (static)."""

    __tablename__ = "call_attribution"
    __table_args__ = (
        CheckConstraint(sql_in("status", AttributionStatus), name="status"),
        CheckConstraint(
            "click_id_kind IS NULL OR " + sql_in("click_id_kind", ClickIdKind), name="click_id_kind"
        ),
        Index("ix_call_attribution_user_started", "user_id", "call_started_at"),
        Index("ix_call_attribution_user_campaign", "user_id", "campaign"),
        Index("ix_call_attribution_user_source", "user_id", "source"),
        Index("ix_call_attribution_click_id", "click_id", postgresql_where="click_id IS NOT NULL"),
    )

    # The call's id (no foreign key: `call` is partitioned, its keys hold `started_at`).
    call_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    call_started_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    user_id: int  # the tenant scope
    status: str = string(16)
    session_id: str | None = string(64, nullable=True)
    visitor_id: str | None = string(64, nullable=True)
    # utm_source, else the referrer's host, else 'direct'.
    source: str = string(128)
    medium: str | None = string(128, nullable=True)
    campaign: str | None = string(256, nullable=True)  # utm_campaign
    keyword: str | None = string(256, nullable=True)  # utm_term
    content: str | None = string(256, nullable=True)  # utm_content
    landing_page: str | None = string(2048, nullable=True)
    referrer: str | None = string(2048, nullable=True)
    click_id: str | None = string(256, nullable=True)
    click_id_kind: str | None = string(16, nullable=True)
    pages: list[Any] = jsonb()  # the visitor's pages: [{url, at}]
    candidates: list[Any] = jsonb()  # when ambiguous: [{session_id, source, landing_page, last_seen}]
    created_at: datetime = created_at()
