"""What was said on recorded calls, and the keyword rules that read it (docs/conversation.md)."""

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Computed,
    Index,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSVECTOR
from sqlmodel import Field, SQLModel

from core.models.columns import created_at, fk, jsonb, string, timestamp
from core.values.enums import KeywordEffect, KeywordSide, Leg, sql_in


class KeywordRule(SQLModel, table=True):
    """A campaign's rule: when `side` says one of `phrases` (core.conversation.rules), `effect`."""

    __tablename__ = "keyword_rule"
    __table_args__ = (
        CheckConstraint(sql_in("side", KeywordSide), name="side"),
        CheckConstraint(sql_in("effect", KeywordEffect), name="effect"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = fk("campaign.id", ondelete="CASCADE", nullable=False)
    name: str = string(64)
    phrases: list[str] = jsonb()
    side: str = string(8)
    effect: str = string(16)
    tag: str | None = string(32, nullable=True)
    score: int = 0
    created_at: datetime = created_at()


class CallTranscript(SQLModel, table=True):
    """One leg of a call as the engine heard it, card numbers masked (core.conversation.redaction).
    `words`: [{"w": word, "s": start, "e": end, "c": confidence}], seconds into the recording;
    `search` is `text`'s full-text vector (English), which the report's word search reads."""

    __tablename__ = "call_transcript"
    __table_args__ = (
        CheckConstraint(sql_in("leg", Leg), name="leg"),
        UniqueConstraint("call_id", "leg"),
        Index("ix_call_transcript_search", "search", postgresql_using="gin"),
    )

    id: int | None = Field(default=None, primary_key=True)
    # The call's id; no foreign key: the call table is partitioned by month, its key is (id, started_at).
    call_id: int = Field(sa_column=Column(BigInteger, nullable=False))
    leg: str = string(8)
    engine: str = string(32)
    words: list[Any] = jsonb()
    text: str = Field(sa_column=Column(Text, nullable=False))
    search: str | None = Field(
        default=None,
        sa_column=Column(TSVECTOR, Computed("to_tsvector('english', text)", persisted=True)),
    )
    audio_seconds: float = 0
    cpu_seconds: float = 0
    created_at: datetime = created_at()


class CallConversation(SQLModel, table=True):
    """What the keyword rules made of a call: its tags, score, and the conversion or non-billing
    rating reads (core.billing.rating); `matches` are the rules matched, with the words and their time."""

    __tablename__ = "call_conversation"
    __table_args__ = (Index("ix_call_conversation_tags", "tags", postgresql_using="gin"),)

    call_id: int = Field(sa_column=Column(BigInteger, primary_key=True))
    tags: list[str] = Field(
        default_factory=list, sa_column=Column(ARRAY(Text), nullable=False, server_default="{}")
    )
    score: int = 0
    # True: a rule converted it; False: a rule made it not billable; None: talk time decides.
    converted: bool | None = None
    billable: bool = True
    matches: list[Any] = jsonb()
    applied_at: datetime | None = timestamp()
