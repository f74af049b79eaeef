"""sessions and credentials: impersonation tokens hang off the admin's token; the acting admin is
recorded on status changes, ledger rows and in the impersonation audit ('change' rows, a detail)

Revision ID: 0010_sessions
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_sessions"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("auth_token", sa.Column("parent_id", sa.Integer(), nullable=True))
    op.create_foreign_key(
        op.f("fk_auth_token_parent_id_auth_token"),
        "auth_token",
        "auth_token",
        ["parent_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.create_index(op.f("ix_auth_token_parent_id"), "auth_token", ["parent_id"], unique=False)
    # Impersonation tokens already issued have no admin token to hang off: they end now.
    op.execute("UPDATE auth_token SET revoked_at = now() WHERE kind = 'impersonation' AND revoked_at IS NULL")
    for table in ("status_change", "wallet_transaction"):
        op.add_column(table, sa.Column("acting_admin_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            op.f(f"fk_{table}_acting_admin_id_users"),
            table,
            "users",
            ["acting_admin_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.add_column("impersonation_audit", sa.Column("detail", sa.String(length=255), nullable=True))
    op.drop_constraint(op.f("ck_impersonation_audit_action"), "impersonation_audit", type_="check")
    op.create_check_constraint(
        op.f("ck_impersonation_audit_action"), "impersonation_audit", "action IN ('start', 'stop', 'change')"
    )


def downgrade() -> None:
    op.execute("DELETE FROM impersonation_audit WHERE action = 'change'")
    op.drop_constraint(op.f("ck_impersonation_audit_action"), "impersonation_audit", type_="check")
    op.create_check_constraint(
        op.f("ck_impersonation_audit_action"), "impersonation_audit", "action IN ('start', 'stop')"
    )
    op.drop_column("impersonation_audit", "detail")
    for table in ("wallet_transaction", "status_change"):
        op.drop_constraint(op.f(f"fk_{table}_acting_admin_id_users"), table, type_="foreignkey")
        op.drop_column(table, "acting_admin_id")
    op.drop_index(op.f("ix_auth_token_parent_id"), table_name="auth_token")
    op.drop_constraint(op.f("fk_auth_token_parent_id_auth_token"), "auth_token", type_="foreignkey")
    op.drop_column("auth_token", "parent_id")
