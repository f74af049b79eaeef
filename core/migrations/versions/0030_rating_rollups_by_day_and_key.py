"""the dashboard's rollup by caller origin summed by UTC day too; every rollup's key unique (issue 38)

Revision ID: 0030
Revises: 0029

By the hour, a customer's origins still spread a small customer's calls one or two to a row (680 k
rows for 1 M calls); the breakdown by region reads a row per customer and origin a day for the whole
days of its period. Filled from the hourly rows (their sums, not the calls), in day order.

Rating and re-rating add what a batch changed to the rollups (core/reporting/rollup_deltas.py)
instead of summing its hours again: an upsert, which finds its row by a unique key. Each rollup's
key, its time first and nulls not distinct, replaces the index of its time alone (the rows are
unique by it already: every writer groups by it).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYS = "user_id, caller_country, caller_region, caller_line_type"
_CALL_KEYS = ("user_id", "campaign_id", "target_id", "buyer_id", "source_id")
_REGION_KEYS = ("user_id", "caller_country", "caller_region", "caller_line_type")
_MEASURES = ("calls", "answered", "converted", "talk_seconds", "spend", "payout")
_CALL_MEASURES = (
    "calls", "answered", "no_answer", "busy", "failed", "no_route", "blocked", "no_balance", "duplicate",
    "ivr_failed", "talk_seconds", "converted", "spend", "payout", "publisher_payout", "profit",
)  # fmt: skip
# (table, its time column, its key's other columns, its measures)
_KEYED = [
    ("call_rollup", "hour", _CALL_KEYS, _CALL_MEASURES),
    ("call_rollup_day", "day", _CALL_KEYS, _CALL_MEASURES),
    ("call_region_rollup", "hour", _REGION_KEYS, _MEASURES),
    ("call_region_rollup_day", "day", _REGION_KEYS, _MEASURES),
]


def _count(name: str, kind: type[sa.Integer] = sa.Integer) -> sa.Column[int]:
    return sa.Column(name, kind(), server_default="0", nullable=False)


def upgrade() -> None:
    op.create_table(
        "call_region_rollup_day",
        sa.Column("id", sa.BigInteger(), autoincrement=True, nullable=False),
        sa.Column("day", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("caller_country", sa.String(length=8), nullable=True),
        sa.Column("caller_region", sa.String(length=500), nullable=True),
        sa.Column("caller_line_type", sa.String(length=8), nullable=True),
        _count("calls"),
        _count("answered"),
        _count("converted"),
        _count("talk_seconds", sa.BigInteger),
        sa.Column("spend", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.Column("payout", sa.Numeric(precision=18, scale=4), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_call_region_rollup_day")),
    )
    measures = ", ".join(_MEASURES)
    sums = ", ".join(f"sum({m})" for m in _MEASURES)
    op.execute(
        f"INSERT INTO call_region_rollup_day (day, {_KEYS}, {measures})"
        f" SELECT date_trunc('day', hour, 'UTC'), {_KEYS}, {sums} FROM call_region_rollup"
        f" GROUP BY 1, 2, 3, 4, 5 ORDER BY 1"
    )
    op.create_index("ix_call_region_rollup_day_user_day", "call_region_rollup_day", ["user_id", "day"])
    for table, at, keys, summed in _KEYED:
        _merge(table, at, keys, summed)
        _unique(table, at, keys)
        if table != "call_region_rollup_day":  # new: no index of its time alone
            op.drop_index(f"ix_{table}_{at}", table_name=table)


def _merge(table: str, at: str, keys: tuple[str, ...], measures: tuple[str, ...]) -> None:
    """Rows of one key summed into its first (none expected: every writer groups by the key, but two
    refreshes of one hour under the older release's hour locks could each have written it)."""
    key = ", ".join((at, *keys))
    same = " AND ".join(f"t.{k} IS NOT DISTINCT FROM d.{k}" for k in (at, *keys))
    doubled = f"SELECT {key}, min(id) AS keep FROM {table} GROUP BY {key} HAVING count(*) > 1"
    sums = ", ".join(f"{m} = s.{m}" for m in measures)
    op.execute(
        f"UPDATE {table} SET {sums} FROM (SELECT d.keep, {', '.join(f'sum(t.{m}) AS {m}' for m in measures)}"
        f" FROM ({doubled}) d JOIN {table} t ON {same} GROUP BY d.keep) s WHERE {table}.id = s.keep"
    )
    op.execute(f"DELETE FROM {table} t USING ({doubled}) d WHERE {same} AND t.id <> d.keep")


def downgrade() -> None:
    for table, at, *_ in _KEYED:
        if table != "call_region_rollup_day":
            op.create_index(f"ix_{table}_{at}", table, [at])
        op.drop_index(f"uq_{table}_key", table_name=table)
    op.drop_table("call_region_rollup_day")


def _unique(table: str, at: str, keys: tuple[str, ...]) -> None:
    op.create_index(f"uq_{table}_key", table, [at, *keys], unique=True, postgresql_nulls_not_distinct=True)
