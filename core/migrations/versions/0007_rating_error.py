"""rating_status 'error' and call.rating_error: a call rating can't price is set aside, with why

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("call", sa.Column("rating_error", sa.String(length=500), nullable=True))
    op.drop_constraint(op.f("ck_call_rating_status"), "call", type_="check")
    op.create_check_constraint(
        op.f("ck_call_rating_status"), "call", "rating_status IN ('pending', 'rated', 'no_rate', 'error')"
    )


def downgrade() -> None:
    # Set-aside calls go back to pending: the next sweep tries them again.
    op.execute("UPDATE call SET rating_status = 'pending' WHERE rating_status = 'error'")
    op.drop_constraint(op.f("ck_call_rating_status"), "call", type_="check")
    op.create_check_constraint(
        op.f("ck_call_rating_status"), "call", "rating_status IN ('pending', 'rated', 'no_rate')"
    )
    op.drop_column("call", "rating_error")
