"""uploaded IVR prompts: a customer's own prompt audio, as Asterisk plays it (issue 37)

Revision ID: 0026
Revises: 0025

A campaign's IVR prompt was a sound file name typed by hand. A customer may now upload its own
prompt (converted to 8 kHz WAV); the bridges write it into their Asterisk's sounds on first use.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "prompt_audio",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("ms", sa.Integer(), nullable=False),
        sa.Column("audio", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_prompt_audio_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_prompt_audio")),
        sa.UniqueConstraint("user_id", "sha256", name=op.f("uq_prompt_audio_user_id_sha256")),
    )
    op.create_index(op.f("ix_prompt_audio_user_id"), "prompt_audio", ["user_id"], unique=False)
    op.create_index(op.f("ix_prompt_audio_sha256"), "prompt_audio", ["sha256"], unique=False)


def downgrade() -> None:
    op.drop_table("prompt_audio")
