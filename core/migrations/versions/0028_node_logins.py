"""each node's own ARI login (issue 35)

Revision ID: 0028
Revises: 0027

Every node (Asterisk + bridge, docs/scale.md) shared one ARI login. Each node's Asterisk now gets
a login of its own, generated when it is provisioned: stored here for its bridge and the portal.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pbx_node_login",
        sa.Column("node_id", sa.String(length=32), nullable=False),
        sa.Column("ari_user", sa.String(length=64), nullable=False),
        sa.Column("ari_password", sa.Text(), nullable=False),
        sa.Column("rotated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("node_id", name=op.f("pk_pbx_node_login")),
    )


def downgrade() -> None:
    op.drop_table("pbx_node_login")
