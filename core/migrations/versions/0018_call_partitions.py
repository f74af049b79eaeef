"""the call table partitioned by month on started_at (issue 24)

Revision ID: 0018
Revises: 0017

The table is rebuilt as it is when this runs, whatever columns earlier migrations added: its
columns, defaults, checks, indexes, extended statistics and foreign keys are read from the
catalogue, not listed here. Rows are copied month by month straight into their partition, each
month counted in both tables (a difference aborts the whole migration, which runs in one
transaction); indexes are built once the rows are in. Keys gain `started_at` (a partitioned table's
unique keys must hold its partition key); foreign keys that point at `call` (the ledger's) are
dropped: no key on `id` alone exists to point at, and the ledger outlives archived months.
Needs about as much free disk as the table takes, for the time of the copy.
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from alembic import op
from sqlalchemy import Connection, text

from core.calls.call_partitions import (
    add_months,
    attached_months,
    copied_columns,
    copy_statistics,
    create_default,
    ensure_months,
    month_start,
    partition_name,
)

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "call_unpartitioned"
_KEY = "started_at"
_SUFFIX = f"_{_KEY}"
_LIKE = (
    "INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING IDENTITY "
    "INCLUDING STORAGE INCLUDING COMMENTS"
)
# The foreign keys that pointed at call.id before this revision, put back by the downgrade.
_POINTING_AT_CALL = [("wallet_transaction", "call_id", "fk_wallet_transaction_call_id_call")]


def _rows(conn: Connection, sql: str, **params: object) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in conn.execute(text(sql), params)]


def _shape(conn: Connection) -> dict[str, list[tuple[Any, ...]]]:
    """What `call` has besides its columns, as statements to make it again on a new table."""
    return {
        # (name, kind p/u, columns)
        "keys": _rows(
            conn,
            "SELECT c.conname, c.contype, array_agg(a.attname ORDER BY k.n) FROM pg_constraint c "
            "CROSS JOIN unnest(c.conkey) WITH ORDINALITY k(attnum, n) "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum "
            "WHERE c.conrelid = 'call'::regclass AND c.contype IN ('p', 'u') GROUP BY c.conname, c.contype",
        ),
        "indexes": _rows(
            conn,
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = current_schema() "
            "AND i.tablename = 'call' AND NOT EXISTS (SELECT 1 FROM pg_constraint c "
            "WHERE c.conrelid = 'call'::regclass AND c.conindid = to_regclass(i.indexname))",
        ),
        "foreign": _rows(
            conn,
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = 'call'::regclass AND contype = 'f'",
        ),
        "statistics": _rows(
            conn,
            "SELECT stxname, pg_get_statisticsobjdef(oid) FROM pg_statistic_ext "
            "WHERE stxrelid = 'call'::regclass",
        ),
        "pointing": _rows(
            conn,
            "SELECT conrelid::regclass::text, conname FROM pg_constraint "
            "WHERE confrelid = 'call'::regclass AND contype = 'f'",
        ),
        "identity": _rows(
            conn,
            "SELECT attname FROM pg_attribute WHERE attrelid = 'call'::regclass AND attidentity <> ''",
        ),
    }


def _rebuild(
    conn: Connection, shape: dict[str, list[tuple[Any, ...]]], keys: list[tuple[str, str, list[str]]]
) -> None:
    """Keys, indexes, statistics and foreign keys of the old `call` on the new one (renamed `call`)."""
    for name, kind, columns in keys:
        what = "PRIMARY KEY" if kind == "p" else "UNIQUE"
        conn.execute(text(f"ALTER TABLE call ADD CONSTRAINT {name} {what} ({', '.join(columns)})"))
    for _, definition in shape["indexes"]:
        conn.execute(text(definition))  # "CREATE INDEX ix ON public.call ...": the new table's name
    for _, definition in shape["statistics"]:
        conn.execute(text(definition))
    for name, definition in shape["foreign"]:
        conn.execute(text(f"ALTER TABLE call ADD CONSTRAINT {name} {definition}"))
    for (column,) in shape["identity"]:  # LIKE ... INCLUDING IDENTITY made a new sequence
        conn.execute(
            text(f"SELECT setval(pg_get_serial_sequence('call', '{column}'), max({column})) FROM call")
        )


def _detach_sequence(conn: Connection) -> str | None:
    """The id sequence, no longer owned by the old table (dropping it would drop the sequence)."""
    sequence = conn.execute(text("SELECT pg_get_serial_sequence('call', 'id')")).scalar_one_or_none()
    if sequence is not None and not _rows(
        conn,
        "SELECT 1 FROM pg_attribute WHERE attrelid = 'call'::regclass AND attname = 'id' AND attidentity <> ''",
    ):
        conn.execute(text(f"ALTER SEQUENCE {sequence} OWNED BY NONE"))
        return str(sequence)
    return None


def _months(conn: Connection, table: str) -> list[datetime]:
    """The UTC months `table` has calls in, found by skipping through its `started_at` index."""
    months: list[datetime] = []
    since = conn.execute(text(f"SELECT min(started_at) FROM {table}")).scalar_one()
    while since is not None:
        months.append(month_start(since))
        since = conn.execute(
            text(f"SELECT min(started_at) FROM {table} WHERE started_at >= :after"),
            {"after": add_months(months[-1], 1)},
        ).scalar_one()
    return months


def _count(conn: Connection, table: str, month: datetime) -> int:
    return int(
        conn.execute(
            text(f"SELECT count(*) FROM {table} WHERE started_at >= :start AND started_at < :end"),
            {"start": month, "end": add_months(month, 1)},
        ).scalar_one()
    )


def upgrade() -> None:
    conn = op.get_bind()
    if conn.execute(text("SELECT relkind FROM pg_class WHERE oid = 'call'::regclass")).scalar_one() == "p":
        return
    conn.execute(text("LOCK TABLE call IN ACCESS EXCLUSIVE MODE"))
    shape = _shape(conn)
    for table, name in shape["pointing"]:
        conn.execute(text(f"ALTER TABLE {table} DROP CONSTRAINT {name}"))
    sequence = _detach_sequence(conn)
    conn.execute(text(f"ALTER TABLE call RENAME TO {_OLD}"))
    conn.execute(text(f"CREATE TABLE call (LIKE {_OLD} {_LIKE}) PARTITION BY RANGE ({_KEY})"))
    columns = copied_columns(conn, "call")
    for month in _months(conn, _OLD):
        name = partition_name(month)
        end = add_months(month, 1)
        conn.execute(
            text(
                f"CREATE TABLE {name} PARTITION OF call FOR VALUES FROM ('{month.isoformat()}') TO ('{end.isoformat()}')"
            )
        )
        conn.execute(
            text(
                f"INSERT INTO {name} ({columns}) OVERRIDING SYSTEM VALUE SELECT {columns} FROM {_OLD} "
                "WHERE started_at >= :start AND started_at < :end"
            ),
            {"start": month, "end": end},
        )
        before, after = _count(conn, _OLD, month), _count(conn, name, month)
        if before != after:
            raise RuntimeError(f"{name}: {before} calls before, {after} copied; nothing was changed")
    total_before, total_after = (
        conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in (_OLD, "call")
    )
    if total_before != total_after:
        raise RuntimeError(f"call: {total_before} calls before, {total_after} copied; nothing was changed")
    conn.execute(text(f"DROP TABLE {_OLD}"))
    if sequence:
        conn.execute(text(f"ALTER SEQUENCE {sequence} OWNED BY call.id"))
    keys = [(n, kind, cols if _KEY in cols else [*cols, _KEY]) for n, kind, cols in shape["keys"]]
    keys = [(n if kind == "p" or n.endswith(_SUFFIX) else n + _SUFFIX, kind, cols) for n, kind, cols in keys]
    _rebuild(conn, shape, keys)
    for name in attached_months(conn):
        copy_statistics(conn, name)
    create_default(conn)
    ensure_months(conn, datetime.now(UTC))
    conn.execute(text("ANALYZE call"))


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(text("LOCK TABLE call IN ACCESS EXCLUSIVE MODE"))
    shape = _shape(conn)
    sequence = _detach_sequence(conn)
    conn.execute(text(f"CREATE TABLE {_OLD} (LIKE call {_LIKE})"))
    columns = copied_columns(conn, _OLD)
    conn.execute(text(f"INSERT INTO {_OLD} ({columns}) OVERRIDING SYSTEM VALUE SELECT {columns} FROM call"))
    conn.execute(text("DROP TABLE call"))  # and its partitions
    conn.execute(text(f"ALTER TABLE {_OLD} RENAME TO call"))
    if sequence:
        conn.execute(text(f"ALTER SEQUENCE {sequence} OWNED BY call.id"))
    keys = [
        (n.removesuffix(_SUFFIX), kind, [c for c in cols if c != _KEY] or cols)
        for n, kind, cols in shape["keys"]
    ]
    _rebuild(conn, shape, keys)
    for table, column, name in _POINTING_AT_CALL:
        conn.execute(
            text(
                f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({column}) REFERENCES call (id) ON DELETE RESTRICT"
            )
        )
