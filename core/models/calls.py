"""The call record (CDR), one row per call keyed by Asterisk's linkedid.

The table is partitioned by month on `started_at` (core/calls/call_partitions.py, docs/reports.md): its
keys include `started_at`, which a call keeps from its first write; `id` stays unique from its
sequence and is what the ORM and the API address a call by."""

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, Column, DateTime, Index, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from core.models.columns import big_pk, created_at, fk, jsonb, money, string, timestamp
from core.values.enums import Disposition, LineType, RatingStatus, sql_in

# The report's sort key for cost (its index's expression too): an unrated call's cost counts as 0.
COST_KEY = "coalesce(cost, 0)"


class Call(SQLModel, table=True):
    __tablename__ = "call"
    __table_args__ = (
        CheckConstraint(sql_in("disposition", Disposition), name="disposition"),
        CheckConstraint(sql_in("rating_status", RatingStatus), name="rating_status"),
        CheckConstraint(sql_in("caller_line_type", LineType), name="caller_line_type"),
        CheckConstraint("duration >= 0 AND billsec >= 0 AND talk_seconds >= 0", name="seconds"),
        # The report's pages, newest first, "after this call" (docs/reports.md): all calls, a
        # customer's, a buyer's; `id` breaks ties between calls started in the same microsecond.
        Index("ix_call_started", "started_at", "id"),
        Index("ix_call_user_started", "user_id", "started_at", "id"),
        Index("ix_call_buyer_started", "buyer_id", "started_at", "id"),
        # The report sorted by a measure (migration 0024): all calls, a customer's; `id` breaks ties.
        # An unrated call's cost (null) sorts as 0, so the key is never null and keyset pages hold.
        *(
            Index(f"ix_call{scope}_{name}", *columns, key, "id")
            for scope, columns in (("", ()), ("_user", ("user_id",)))
            for name, key in (("duration", "duration"), ("payout", "payout"), ("cost", text(COST_KEY)))
        ),
        # The report's number filters are prefixes (a full number is one): pattern operators let
        # a btree serve LIKE 'prefix%' whatever the database's collation.
        Index("ix_call_caller", "caller", "started_at", postgresql_ops={"caller": "text_pattern_ops"}),
        # The same in a customer's and a buyer's scope: only their own calls are read.
        Index(
            "ix_call_user_caller",
            "user_id",
            "caller",
            "started_at",
            "id",
            postgresql_ops={"caller": "text_pattern_ops"},
        ),
        Index(
            "ix_call_buyer_caller",
            "buyer_id",
            "caller",
            "started_at",
            "id",
            postgresql_ops={"caller": "text_pattern_ops"},
        ),
        Index("ix_call_did", "did", "started_at", postgresql_ops={"did": "text_pattern_ops"}),
        Index(
            "ix_call_destination",
            "destination",
            "started_at",
            postgresql_ops={"destination": "text_pattern_ops"},
        ),
        Index("ix_call_disposition", "disposition", "started_at"),
        # A customer's calls by disposition or by where callers are from, a buyer's by disposition
        # (its report's filter; migration 0027): only the scope's own rows are read and counted,
        # whatever other tenants' calls share the value (docs/reports.md).
        Index("ix_call_user_disposition", "user_id", "disposition", "started_at", "id"),
        Index("ix_call_buyer_disposition", "buyer_id", "disposition", "started_at", "id"),
        Index("ix_call_user_origin", "user_id", "caller_country", "caller_region", "started_at", "id"),
        Index("ix_call_campaign_caller", "campaign_id", "caller", "started_at"),
        Index("ix_call_unrated", "rating_status", postgresql_where="rating_status = 'pending'"),
        # The report's country and region filters (docs/regions.md).
        Index("ix_call_caller_origin", "caller_country", "caller_region", "started_at"),
        # The report's source filter and the dashboard's by-source view (and a source's deletion
        # checks no call names it): only attributed calls are in it.
        Index("ix_call_source_started", "source_id", "started_at", postgresql_where="source_id IS NOT NULL"),
        # The bridge's reconciliation looks for calls left open (no end) every minute.
        Index("ix_call_open", "started_at", postgresql_where="ended_at IS NULL"),
        # A partitioned table's unique keys include its partition key: the bridge's upsert is on both.
        UniqueConstraint("linkedid", "started_at"),
    )
    __mapper_args__ = {"primary_key": ["id"]}  # the key is (id, started_at); id alone is unique

    id: int | None = big_pk()
    linkedid: str = string(64)
    # Null on calls that never reached a customer (NO_ROUTE).
    user_id: int | None = fk("users.id", index=False)
    campaign_id: int | None = fk("campaign.id", index=False)
    number_id: int | None = fk("number.id")
    # The traffic source the call is attributed to (the number's, or the visitor session's).
    source_id: int | None = fk("traffic_source.id", index=False)
    did: str = string(32)
    caller: str = string(64)
    target_id: int | None = fk("target.id")
    buyer_id: int | None = fk("buyer.id", index=False)
    trunk_id: int | None = fk("trunk.id")
    rate_id: int | None = fk("rate.id")
    # The number actually dialled at the target (E.164 digits): what the call is rated on.
    destination: str | None = string(64, nullable=True)
    started_at: datetime = Field(sa_column=Column(DateTime(timezone=True), primary_key=True))
    answered_at: datetime | None = timestamp()
    # When the target answered (IVR time before it is not talk time).
    connected_at: datetime | None = timestamp()
    ended_at: datetime | None = timestamp()
    duration: int = 0
    billsec: int = 0
    talk_seconds: int = 0
    # The same to the millisecond (billsec and talk_seconds are these rounded up); empty on rows
    # recorded before they were kept, which keep their whole seconds. BIGINT: the longest call the
    # seconds columns allow (2^31-1 s) is 1000 times that in ms.
    billsec_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    talk_ms: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    disposition: str = string(16)
    hangup_cause: int | None = None  # Q.850
    hangup_cause_text: str | None = string(64, nullable=True)
    # The final SIP status of the call's last attempt at a target (200 answered, 486 busy...), or
    # of the caller's INVITE when no target was dialled (404, 403, 486, 503...).
    sip_status: int | None = None
    hangup_by: str | None = string(16, nullable=True)
    ivr_result: str | None = string(16, nullable=True)
    converted: bool = False
    cost: Decimal | None = money(default=None, nullable=True)
    payout: Decimal = money()
    # The winning bid of a real-time bidder (docs/bidding.md): the payout in place of the target's.
    bid: Decimal | None = money(default=None, nullable=True)
    # What the traffic source's publisher is owed for this call, and what the call left: payout - cost
    # - publisher_payout (core.billing.publisher); profit is null until the call is rated.
    publisher_payout: Decimal = money()
    profit: Decimal | None = money(default=None, nullable=True)
    rating_status: str = string(16, default=RatingStatus.PENDING.value)
    rated_at: datetime | None = timestamp()
    # Why rating failed, when rating_status is 'error'.
    rating_error: str | None = string(500, nullable=True)
    # Routing trail: each decision (candidate taken/skipped and why, dial attempts, trunk used);
    # entries as core.calls.record.entry writes them.
    trail: list[Any] = jsonb()
    recording: str | None = string(255, nullable=True)
    # "bridge" when the bridge wrote it, "reconciled" when rebuilt from Asterisk's own records.
    source: str = string(16, default="bridge")
    # Where the caller's number is from, as routing read it (core.calls.caller_origin): ISO country or
    # "unknown", the region's name or "unknown", the line type. Null on rows from before.
    caller_country: str | None = string(8, nullable=True)
    caller_region: str | None = string(500, nullable=True)
    caller_line_type: str | None = string(8, nullable=True)
    created_at: datetime = created_at()
    updated_at: datetime | None = timestamp()
