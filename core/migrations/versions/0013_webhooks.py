"""call webhooks and their delivery log (issue 22, part 1)

Revision ID: 0013
Revises: 0014_rollups
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013"
down_revision: str | None = "0014_rollups"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "webhook",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=True),
        sa.Column("buyer_id", sa.Integer(), nullable=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("events", postgresql.ARRAY(sa.String(16)), server_default=sa.text("'{}'"), nullable=False),
        sa.Column("secret", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), server_default="active", nullable=False),
        sa.Column("paused_reason", sa.String(200), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("(campaign_id IS NULL) <> (buyer_id IS NULL)", name=op.f("ck_webhook_one_owner")),
        sa.CheckConstraint("status IN ('active', 'paused')", name=op.f("ck_webhook_status")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_webhook_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaign.id"], name=op.f("fk_webhook_campaign_id_campaign"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["buyer_id"], ["buyer.id"], name=op.f("fk_webhook_buyer_id_buyer"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook")),
    )
    for column in ("user_id", "campaign_id", "buyer_id"):
        op.create_index(op.f(f"ix_webhook_{column}"), "webhook", [column])
    op.create_table(
        "webhook_delivery",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("webhook_id", sa.Integer(), nullable=False),
        sa.Column("linkedid", sa.String(64), nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("body", postgresql.JSONB(), server_default="{}", nullable=False),
        sa.Column("status", sa.String(16), server_default="pending", nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retry_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("url", sa.String(2000), nullable=True),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Integer(), nullable=True),
        sa.Column("response", sa.String(500), nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'delivered', 'failed')", name=op.f("ck_webhook_delivery_status")
        ),
        sa.ForeignKeyConstraint(
            ["webhook_id"],
            ["webhook.id"],
            name=op.f("fk_webhook_delivery_webhook_id_webhook"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_delivery")),
        sa.UniqueConstraint("webhook_id", "linkedid", "event", "seq", name="uq_webhook_delivery_event"),
    )
    op.create_index(
        "ix_webhook_delivery_chain",
        "webhook_delivery",
        ["webhook_id", "linkedid", "id"],
        postgresql_where="status = 'pending'",
    )
    op.create_index(
        "ix_webhook_delivery_due",
        "webhook_delivery",
        ["next_attempt_at"],
        postgresql_where="status = 'pending'",
    )
    op.create_index("ix_webhook_delivery_call", "webhook_delivery", ["linkedid"])


def downgrade() -> None:
    op.drop_table("webhook_delivery")
    op.drop_table("webhook")
