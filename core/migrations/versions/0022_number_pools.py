"""website number pools: a customer's script key and origins, a campaign's pool (issue 33)

Revision ID: 0022
Revises: 0021

A campaign's pool of tracking numbers is handed out to its website's visitors one number per
session (docs/attribution.md): `dni_site` holds each customer's public script key and the site
origins allowed to call the public endpoints, `dni_pool` a campaign's pool settings, and
`number.website_pool` marks the numbers in it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dni_site",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("script_key", sa.String(length=43), nullable=False),
        sa.Column(
            "origins",
            postgresql.ARRAY(sa.String(length=255)),
            server_default=sa.text("'{}'"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_dni_site_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_dni_site")),
        sa.UniqueConstraint("script_key", name=op.f("uq_dni_site_script_key")),
    )
    op.create_table(
        "dni_pool",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("timeout_minutes", sa.Integer(), server_default="20", nullable=False),
        sa.Column("page_number", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("timeout_minutes BETWEEN 1 AND 1440", name=op.f("ck_dni_pool_timeout")),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_dni_pool_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_dni_pool_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("campaign_id", name=op.f("pk_dni_pool")),
    )
    op.create_index(op.f("ix_dni_pool_user_id"), "dni_pool", ["user_id"], unique=False)
    op.add_column("number", sa.Column("website_pool", sa.Boolean(), server_default="false", nullable=False))


def downgrade() -> None:
    op.drop_column("number", "website_pool")
    op.drop_table("dni_pool")
    op.drop_table("dni_site")
