"""campaign whisper: what the target hears before it is connected, and its audio (issue 22)

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("campaign", sa.Column("whisper_mode", sa.String(16), server_default="off", nullable=False))
    op.add_column("campaign", sa.Column("whisper_text", sa.String(200), nullable=True))
    op.add_column("campaign", sa.Column("whisper_sound", sa.String(64), nullable=True))
    op.add_column("campaign", sa.Column("whisper_ms", sa.Integer(), nullable=True))
    op.create_check_constraint(
        op.f("ck_campaign_whisper_mode"), "campaign", "whisper_mode IN ('off', 'text', 'recording')"
    )
    op.create_table(
        "whisper_audio",
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("audio", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.PrimaryKeyConstraint("sha256", name=op.f("pk_whisper_audio")),
    )


def downgrade() -> None:
    op.drop_table("whisper_audio")
    op.drop_constraint(op.f("ck_campaign_whisper_mode"), "campaign", type_="check")
    for column in ("whisper_ms", "whisper_sound", "whisper_text", "whisper_mode"):
        op.drop_column("campaign", column)
