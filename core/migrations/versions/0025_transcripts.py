"""transcripts of recorded calls and campaigns' keyword rules (issue 34)

Revision ID: 0025
Revises: 0024

Each leg of a recorded call transcribed on the platform's own machines (`call_transcript`, with a
full-text vector the report searches), the campaigns' keyword rules (`keyword_rule`) and what they
made of each call (`call_conversation`: tags, score, converted or not billable). docs/conversation.md.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "keyword_rule",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("phrases", postgresql.JSONB(), server_default="[]", nullable=False),
        sa.Column("side", sa.String(length=8), nullable=False),
        sa.Column("effect", sa.String(length=16), nullable=False),
        sa.Column("tag", sa.String(length=32), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint("side IN ('caller', 'target', 'either')", name=op.f("ck_keyword_rule_side")),
        sa.CheckConstraint(
            "effect IN ('tag', 'convert', 'not_billable', 'score')", name=op.f("ck_keyword_rule_effect")
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_keyword_rule_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_keyword_rule")),
    )
    op.create_index(op.f("ix_keyword_rule_campaign_id"), "keyword_rule", ["campaign_id"], unique=False)
    op.create_table(
        "call_transcript",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.BigInteger(), nullable=False),
        sa.Column("leg", sa.String(length=8), nullable=False),
        sa.Column("engine", sa.String(length=32), nullable=False),
        sa.Column("words", postgresql.JSONB(), server_default="[]", nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column(
            "search",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english', text)", persisted=True),
            nullable=True,
        ),
        sa.Column("audio_seconds", sa.Float(), nullable=False),
        sa.Column("cpu_seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint("leg IN ('caller', 'target')", name=op.f("ck_call_transcript_leg")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_transcript")),
        sa.UniqueConstraint("call_id", "leg", name=op.f("uq_call_transcript_call_id_leg")),
    )
    op.create_index(
        "ix_call_transcript_search", "call_transcript", ["search"], unique=False, postgresql_using="gin"
    )
    op.create_table(
        "call_conversation",
        sa.Column("call_id", sa.BigInteger(), nullable=False),
        sa.Column("tags", postgresql.ARRAY(sa.Text()), server_default="{}", nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("converted", sa.Boolean(), nullable=True),
        sa.Column("billable", sa.Boolean(), nullable=False),
        sa.Column("matches", postgresql.JSONB(), server_default="[]", nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("call_id", name=op.f("pk_call_conversation")),
    )
    op.create_index(
        "ix_call_conversation_tags", "call_conversation", ["tags"], unique=False, postgresql_using="gin"
    )


def downgrade() -> None:
    op.drop_table("call_conversation")
    op.drop_table("call_transcript")
    op.drop_table("keyword_rule")
