"""How calls are routed: campaigns, buyers, targets, their links, trunks and block entries."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import ARRAY, BigInteger, CheckConstraint, Column, Integer, String, UniqueConstraint
from sqlalchemy import text as sql_text
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, jsonb, money, string, timestamp
from core.values.enums import (
    BlockMatch,
    DuplicateAction,
    RoutingStrategy,
    Status,
    TrunkAuth,
    TrunkDirection,
    TrunkTransport,
    WhisperMode,
    sql_in,
)


class Campaign(SQLModel, table=True):
    __tablename__ = "campaign"
    __table_args__ = (
        UniqueConstraint("user_id", "name", name="uq_campaign_user_name"),
        CheckConstraint(sql_in("status", Status), name="status"),
        CheckConstraint(sql_in("strategy", RoutingStrategy), name="strategy"),
        CheckConstraint(sql_in("duplicate_action", DuplicateAction), name="dup_action"),
        CheckConstraint("ring_timeout BETWEEN 5 AND 300", name="ring_timeout"),
        CheckConstraint("buffer_seconds >= 0", name="buffer"),
        CheckConstraint("duplicate_window_seconds >= 0", name="dup_window"),
        CheckConstraint("ivr_digits BETWEEN 1 AND 12", name="ivr_digits"),
        CheckConstraint("ivr_attempts BETWEEN 1 AND 10", name="ivr_attempts"),
        CheckConstraint(sql_in("whisper_mode", WhisperMode), name="whisper_mode"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    name: str = string(120)
    status: str = string(16, default=Status.ACTIVE.value)
    strategy: str = string(24, default=RoutingStrategy.PRIORITY_WEIGHT.value)
    ring_timeout: int = 30
    # Seconds connected to a target before the call counts as converted (earns the payout).
    buffer_seconds: int = 60
    duplicate_window_seconds: int = 86400
    duplicate_action: str = string(16, default=DuplicateAction.ALLOW.value)
    record: bool = False
    ivr_enabled: bool = False
    ivr_prompt: str | None = string(255, nullable=True)
    ivr_pins: list[str] = Field(
        default_factory=list,
        sa_column=Column(ARRAY(String(12)), nullable=False, server_default=sql_text("'{}'")),
    )
    ivr_digits: int = 4
    ivr_attempts: int = 3
    # The whisper the target hears before it is connected (core.calls.whisper): off, text or recording;
    # the text as typed, and the audio played (core.models.WhisperAudio, by its hash) and its length.
    whisper_mode: str = string(16, default=WhisperMode.OFF.value)
    whisper_text: str | None = string(200, nullable=True)
    whisper_sound: str | None = string(64, nullable=True)
    whisper_ms: int | None = None
    # Position of the last target used, for the round-robin strategy.
    rr_cursor: int = 0
    # Callers blocked by region and line type (core.routing.region.CampaignRule); {}: none.
    region_rules: dict[str, Any] = jsonb(dict)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class Buyer(SQLModel, table=True):
    """A customer's client who receives calls; `login_user_id` is its role-3 login."""

    __tablename__ = "buyer"
    __table_args__ = (CheckConstraint(sql_in("status", Status), name="status"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    login_user_id: int | None = fk("users.id", ondelete="SET NULL", unique=True)
    name: str = string(120)
    email: str | None = string(254, nullable=True)
    phone: str | None = string(32, nullable=True)
    status: str = string(16, default=Status.ACTIVE.value)
    # When the buyer was last mailed an invitation to choose its sign-in's password.
    invited_at: datetime | None = timestamp()
    created_at: datetime = created_at()


class Trunk(SQLModel, table=True):
    """A SIP trunk. `secret` is write-only: no API response, log or error ever carries it."""

    __tablename__ = "trunk"
    __table_args__ = (
        CheckConstraint(sql_in("direction", TrunkDirection), name="direction"),
        CheckConstraint(sql_in("transport", TrunkTransport), name="transport"),
        CheckConstraint(sql_in("auth_type", TrunkAuth), name="auth"),
        CheckConstraint(sql_in("status", Status), name="status"),
        CheckConstraint("port BETWEEN 1 AND 65535", name="port"),
        CheckConstraint("strip_digits BETWEEN 0 AND 15", name="strip"),
        CheckConstraint("max_channels IS NULL OR max_channels > 0", name="channels"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = string(64, unique=True)
    direction: str = string(16)
    vendor_id: int | None = fk("vendor.id", ondelete="SET NULL")
    host: str = string(255)
    port: int = 5060
    transport: str = string(8, default=TrunkTransport.UDP.value)
    auth_type: str = string(8, default=TrunkAuth.IP.value)
    username: str | None = string(128, nullable=True)
    secret: str | None = string(255, nullable=True)
    dial_prefix: str = string(16, default="")
    strip_digits: int = 0
    codecs: str = string(64, default="ulaw,alaw")
    max_channels: int | None = None
    # Outbound: Asterisk sends OPTIONS and dials only while they are answered. Off for a carrier
    # that ignores OPTIONS (it would look unreachable and never be dialled).
    qualify: bool = True
    failover_order: int = 0
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class Target(SQLModel, table=True):
    """Where a buyer takes calls: a number or SIP URI, dialled through an outbound trunk."""

    __tablename__ = "target"
    __table_args__ = (
        CheckConstraint(sql_in("status", Status), name="status"),
        CheckConstraint(
            "coalesce(concurrency_cap, 1) >= 0 AND coalesce(hourly_cap, 1) >= 0"
            " AND coalesce(daily_cap, 1) >= 0 AND coalesce(monthly_cap, 1) >= 0",
            name="caps",
        ),
        CheckConstraint("payout >= 0", name="payout"),
        CheckConstraint("bid_deadline_ms BETWEEN 50 AND 5000", name="bid_deadline"),
        CheckConstraint("min_bid IS NULL OR min_bid >= 0", name="min_bid"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    buyer_id: int = fk("buyer.id", ondelete="CASCADE", nullable=False)
    name: str = string(120)
    destination: str = string(255)
    trunk_id: int | None = fk("trunk.id")
    # Null caps mean "no limit".
    concurrency_cap: int | None = None
    hourly_cap: int | None = None
    daily_cap: int | None = None
    monthly_cap: int | None = None
    timezone: str = string(64, default="UTC")
    # {"mon": [["09:00", "17:00"]], ...}; empty means open at all hours.
    schedule: dict[str, Any] = jsonb(dict)
    # Callers taken by region and line type (core.routing.region.TargetRule); {}: every caller.
    region_rules: dict[str, Any] = jsonb(dict)
    payout: Decimal = money()
    # Real-time bidding (docs/bidding.md): with a ping URL the target is asked for a bid on each
    # call; the post goes to `post_url`, or to the ping URL with phase "post" when it has none.
    ping_url: str | None = string(500, nullable=True)
    post_url: str | None = string(500, nullable=True)
    bid_deadline_ms: int = Field(default=300, sa_column=Column(Integer, nullable=False, server_default="300"))
    min_bid: Decimal | None = money(default=None, nullable=True)
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()


class CampaignTarget(SQLModel, table=True):
    """A target taking a campaign's calls; lower priority numbers are tried first."""

    __tablename__ = "campaign_target"
    __table_args__ = (
        UniqueConstraint("campaign_id", "target_id", name="uq_campaign_target"),
        CheckConstraint("priority BETWEEN 1 AND 100", name="target_priority"),
        CheckConstraint("weight BETWEEN 1 AND 1000", name="target_weight"),
        CheckConstraint(sql_in("status", Status), name="target_status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = fk("users.id", ondelete="CASCADE", nullable=False)
    campaign_id: int = fk("campaign.id", ondelete="CASCADE", nullable=False)
    target_id: int = fk("target.id", ondelete="CASCADE", nullable=False)
    priority: int = 1
    weight: int = 1
    status: str = string(16, default=Status.ACTIVE.value)
    created_at: datetime = created_at()


class BlockEntry(SQLModel, table=True):
    """A blocked caller: exact number or prefix; `user_id` null means global (admin)."""

    __tablename__ = "block_entry"
    __table_args__ = (
        UniqueConstraint(
            "user_id", "pattern", "match_type", name="uq_block_entry", postgresql_nulls_not_distinct=True
        ),
        CheckConstraint(r"pattern ~ '^\+?[0-9]{1,15}$'", name="pattern"),
        CheckConstraint(sql_in("match_type", BlockMatch), name="match"),
        CheckConstraint(sql_in("status", Status), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    user_id: int | None = fk("users.id", ondelete="CASCADE")
    pattern: str = string(16)
    match_type: str = string(8, default=BlockMatch.EXACT.value)
    reason: str | None = string(255, nullable=True)
    status: str = string(16, default=Status.ACTIVE.value)
    created_by: int | None = fk("users.id", ondelete="SET NULL")
    created_at: datetime = created_at()


class CatalogueVersion(SQLModel, table=True):
    """How many times the routing catalogue changed: one row, counted up by triggers on every write
    to numbers, campaigns, links, targets, buyers and trunks (migration 0006); core.routing.catalogue
    keeps what it loaded for one count."""

    __tablename__ = "catalogue_version"

    id: int = Field(default=1, primary_key=True)
    version: int = Field(sa_type=BigInteger)
