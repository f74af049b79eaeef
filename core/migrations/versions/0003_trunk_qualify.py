"""trunk qualify flag

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Existing trunks keep being qualified, as they were since the bridge began sending OPTIONS.
    op.add_column("trunk", sa.Column("qualify", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.alter_column("trunk", "qualify", server_default=None)


def downgrade() -> None:
    op.drop_column("trunk", "qualify")
