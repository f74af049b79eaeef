"""channel events name the dialplan application (APP_START of Stasis)

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("cel", sa.Column("appname", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("cel", "appname")
