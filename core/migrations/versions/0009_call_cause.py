"""calls keep the Q.850 cause's text and the last attempt's SIP status

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("call", sa.Column("hangup_cause_text", sa.String(length=64), nullable=True))
    op.add_column("call", sa.Column("sip_status", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("call", "sip_status")
    op.drop_column("call", "hangup_cause_text")
