"""a customer's calls by disposition and by caller origin, a buyer's by disposition (issue 38)

Revision ID: 0027
Revises: 0026

A small customer's report filtered by disposition or region counted its calls by combining its own
index with one holding every customer's calls of that disposition or place: the read grew with the
platform, not the customer (about 900,000 entries for 2,493 rows at 10 M calls). These indexes lead
with the scope, so a page and its count read the scope's own calls alone.

Built without holding writes to `call`: PostgreSQL cannot build a partitioned table's index
CONCURRENTLY, so the index is declared on the parent alone (invalid, nothing read), each month's is
built CONCURRENTLY and attached, and the parent becomes valid once every month has its own. A build
stopped halfway leaves an invalid index of a month, which the next run drops and builds again.
"""

from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A buyer's report filters by disposition, not by where callers are from: no buyer index for that.
_NEW = {
    "ix_call_user_disposition": ["user_id", "disposition", "started_at", "id"],
    "ix_call_buyer_disposition": ["buyer_id", "disposition", "started_at", "id"],
    "ix_call_user_origin": ["user_id", "caller_country", "caller_region", "started_at", "id"],
}


def _partitions() -> list[str]:
    found = op.get_bind().execute(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
            " WHERE i.inhparent = 'call'::regclass ORDER BY 1"
        )
    )
    return list(found.scalars())


def _valid(index: str) -> bool | None:
    """Whether `index` is valid; None when it does not exist."""
    found = op.get_bind().execute(
        text(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = :n"
        ),
        {"n": index},
    )
    return found.scalar_one_or_none()


def upgrade() -> None:
    with op.get_context().autocommit_block():
        for name, columns in _NEW.items():
            listed = ", ".join(columns)
            op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON ONLY call ({listed})")
            for partition in _partitions():
                own = f"{partition}_{name.removeprefix('ix_call_')}"
                if _valid(own) is False:  # a build stopped halfway
                    op.execute(f"DROP INDEX CONCURRENTLY {own}")
                op.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {own} ON {partition} ({listed})")
                attached = op.get_bind().execute(
                    text("SELECT 1 FROM pg_inherits WHERE inhrelid = CAST(:own AS regclass)"), {"own": own}
                )
                if attached.first() is None:
                    op.execute(f"ALTER INDEX {name} ATTACH PARTITION {own}")


def downgrade() -> None:
    for name in _NEW:
        op.drop_index(name, table_name="call")
