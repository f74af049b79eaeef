"""calls keep billsec and talk time in milliseconds (rows before keep their whole seconds)

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("call", sa.Column("billsec_ms", sa.BigInteger(), nullable=True))
    op.add_column("call", sa.Column("talk_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("call", "talk_ms")
    op.drop_column("call", "billsec_ms")
