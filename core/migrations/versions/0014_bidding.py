"""real-time bidding: a target may be a bidder (ping/post URLs, deadline, minimum bid); a call keeps its winning bid

Revision ID: 0014
Revises: 0013
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("target", sa.Column("ping_url", sa.String(length=500), nullable=True))
    op.add_column("target", sa.Column("post_url", sa.String(length=500), nullable=True))
    op.add_column("target", sa.Column("bid_deadline_ms", sa.Integer(), server_default="300", nullable=False))
    op.add_column("target", sa.Column("min_bid", sa.Numeric(precision=18, scale=4), nullable=True))
    op.create_check_constraint(
        op.f("ck_target_bid_deadline"), "target", "bid_deadline_ms BETWEEN 50 AND 5000"
    )
    op.create_check_constraint(op.f("ck_target_min_bid"), "target", "min_bid IS NULL OR min_bid >= 0")
    op.add_column("call", sa.Column("bid", sa.Numeric(precision=18, scale=4), nullable=True))


def downgrade() -> None:
    op.drop_column("call", "bid")
    op.drop_constraint(op.f("ck_target_min_bid"), "target", type_="check")
    op.drop_constraint(op.f("ck_target_bid_deadline"), "target", type_="check")
    for column in ("min_bid", "bid_deadline_ms", "post_url", "ping_url"):
        op.drop_column("target", column)
