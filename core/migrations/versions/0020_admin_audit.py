"""the admin audit: every administrator action that changes an account (issue 31)

Revision ID: 0020
Revises: 0019

An administrator could issue an API token for another administrator, or set their password, with
nothing recorded. `admin_audit` records who did what to whom, when and from where (docs/security.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ACTIONS = ("api_token", "password", "role", "status", "top_up", "impersonate", "delete")


def upgrade() -> None:
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("admin_email", sa.String(length=254), nullable=False),
        sa.Column("user_email", sa.String(length=254), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.String(length=255), nullable=True),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.Column("user_agent", sa.String(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.CheckConstraint(
            "action IN (" + ", ".join(f"'{a}'" for a in _ACTIONS) + ")", name=op.f("ck_admin_audit_action")
        ),
        sa.ForeignKeyConstraint(
            ["admin_id"], ["users.id"], name=op.f("fk_admin_audit_admin_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_admin_audit_user_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_audit")),
    )
    op.create_index(op.f("ix_admin_audit_admin_id"), "admin_audit", ["admin_id"], unique=False)
    op.create_index(op.f("ix_admin_audit_user_id"), "admin_audit", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("admin_audit")
