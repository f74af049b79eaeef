"""indexes for the report's order and filters (issue 24)

Revision ID: 0013_report_indexes
Revises: 0010_sessions
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013_report_indexes"
down_revision: str | None = "0010_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_STATS = "st_call_owner"
# name, columns, the column read with pattern operators (LIKE 'prefix%')
_NEW = [
    ("ix_call_started", ["started_at", "id"], None),
    ("ix_call_caller", ["caller", "started_at"], "caller"),
    ("ix_call_did", ["did", "started_at"], "did"),
    ("ix_call_destination", ["destination", "started_at"], "destination"),
    ("ix_call_disposition", ["disposition", "started_at"], None),
]


def upgrade() -> None:
    for name, columns, pattern in _NEW:
        ops = {pattern: "text_pattern_ops"} if pattern else {}
        # IF NOT EXISTS: on a live table they may have been built CONCURRENTLY first (docs/reports.md).
        op.create_index(name, "call", columns, postgresql_ops=ops, if_not_exists=True)
    # A DID, a campaign, a target's number and a buyer each belong to one customer: without these
    # statistics the planner multiplies their selectivities with the customer's and expects a
    # tenth of the calls, so the report counts calls it should only estimate (docs/reports.md).
    op.execute(
        f"CREATE STATISTICS {_STATS} (dependencies) ON user_id, buyer_id, campaign_id, did, destination FROM call"
    )
    op.execute("ANALYZE call")
    # Widened with `id`: keyset pages of a customer's or a buyer's calls need no sort.
    for scope in ("user", "buyer"):
        op.drop_index(f"ix_call_{scope}_started", table_name="call")
        op.create_index(f"ix_call_{scope}_started", "call", [f"{scope}_id", "started_at", "id"])


def downgrade() -> None:
    op.execute(f"DROP STATISTICS {_STATS}")
    for scope in ("user", "buyer"):
        op.drop_index(f"ix_call_{scope}_started", table_name="call")
        op.create_index(f"ix_call_{scope}_started", "call", [f"{scope}_id", "started_at"])
    for name, _, _ in reversed(_NEW):
        op.drop_index(name, table_name="call")
