"""The call table's monthly partitions (docs/reports.md, "Partitions").

`call` is partitioned by range of `started_at`, one partition per UTC month named `call_y2026m11`,
plus `call_default`, which takes a call of any month that has no partition yet so that no row is
ever refused. The workers' beat creates the coming months ahead of time (`ensure_months`) and
moves any calls the default partition caught into a month of their own.
"""

import re
from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import Connection, text

TABLE = "call"
DEFAULT = "call_default"
# Besides the current month: the daily beat makes next month weeks early. Not more: every partition,
# empty or not, adds to the planning of each query that the time range does not prune.
MONTHS_AHEAD = 1
_NAME = re.compile(r"^call_y(\d{4})m(\d{2})$")
_STATISTICS = re.compile(r"^CREATE STATISTICS \S+ (.+) FROM \S+$")


def month_start(moment: datetime) -> datetime:
    """The first instant of `moment`'s UTC month."""
    utc = moment.astimezone(UTC)
    return datetime(utc.year, utc.month, 1, tzinfo=UTC)


def add_months(month: datetime, n: int) -> datetime:
    index = month.year * 12 + month.month - 1 + n
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)


def partition_name(month: datetime) -> str:
    return f"call_y{month:%Y}m{month:%m}"


def month_of(name: str) -> datetime | None:
    """The month a partition's name stands for; None for any other table."""
    found = _NAME.match(name)
    return datetime(int(found[1]), int(found[2]), 1, tzinfo=UTC) if found else None


def monthly(names: Iterable[str]) -> dict[str, datetime]:
    """The monthly tables among `names`, each with its month."""
    return {name: month for name in names if (month := month_of(name)) is not None}


def is_partition(name: str) -> bool:
    return name == DEFAULT or month_of(name) is not None


def not_a_partition(name: str | None, type_: str, parent_names: object) -> bool:
    """Alembic's `include_name`: partitions are made by this module, not by the models."""
    return not (type_ == "table" and name is not None and is_partition(name))


def copied_columns(conn: Connection, table: str) -> str:
    """The columns a row copy writes, in order: every column but generated ones (computed again)."""
    names = conn.execute(
        text(
            "SELECT quote_ident(attname) FROM pg_attribute WHERE attrelid = CAST(:t AS regclass) "
            "AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum"
        ),
        {"t": table},
    ).scalars()
    return ", ".join(names)


def attached_months(conn: Connection) -> dict[str, datetime]:
    """The monthly partitions attached to `call`, by name."""
    names = conn.execute(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'call'::regclass"
        )
    ).scalars()
    return monthly(names)


def copy_statistics(conn: Connection, name: str) -> None:
    """`call`'s extended statistics on partition `name` too: the planner estimates a partition's
    scan from the partition's own (the owner columns' dependencies, docs/reports.md)."""
    found = conn.execute(
        text(
            "SELECT stxname, pg_get_statisticsobjdef(oid) FROM pg_statistic_ext "
            "WHERE stxrelid = 'call'::regclass"
        )
    )
    for stx, definition in found:
        what = _STATISTICS.match(definition)
        if what is not None:  # "CREATE STATISTICS public.st (dependencies) ON a, b FROM call"
            suffix = name.removeprefix(f"{TABLE}_")
            conn.execute(text(f"CREATE STATISTICS IF NOT EXISTS {stx}_{suffix} {what[1]} FROM {name}"))


def _exists(conn: Connection, name: str) -> bool:
    return bool(conn.execute(text("SELECT to_regclass(:n) IS NOT NULL"), {"n": name}).scalar_one())


def create_month(conn: Connection, month: datetime) -> bool:
    """Make `month`'s partition, moving into it the calls of that month the default partition
    holds (attaching it with them left there would be refused); False when it exists."""
    name = partition_name(month)
    if _exists(conn, name):
        return False
    start, end = month.isoformat(), add_months(month, 1).isoformat()
    conn.execute(
        text(
            f"CREATE TABLE {name} (LIKE {TABLE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
            "INCLUDING GENERATED INCLUDING STORAGE INCLUDING COMMENTS)"
        )
    )
    if _exists(conn, DEFAULT):
        columns = copied_columns(conn, name)
        conn.execute(
            text(
                f"WITH moved AS (DELETE FROM {DEFAULT} WHERE started_at >= :start AND started_at < :end "
                f"RETURNING {columns}) INSERT INTO {name} ({columns}) SELECT {columns} FROM moved"
            ),
            {"start": start, "end": end},
        )
    copy_statistics(conn, name)
    # Attaching builds the table's copy of every index and key of `call`.
    conn.execute(
        text(f"ALTER TABLE {TABLE} ATTACH PARTITION {name} FOR VALUES FROM ('{start}') TO ('{end}')")
    )
    return True


def create_default(conn: Connection) -> None:
    conn.execute(text(f"CREATE TABLE IF NOT EXISTS {DEFAULT} PARTITION OF {TABLE} DEFAULT"))


def ensure_months(conn: Connection, now: datetime, ahead: int = MONTHS_AHEAD) -> list[str]:
    """The current month and the `ahead` next ones, and a month for every call the default
    partition caught; returns the partitions made."""
    current = month_start(now)
    months = {add_months(current, n) for n in range(ahead + 1)}
    if _exists(conn, DEFAULT):
        caught = conn.execute(
            text(f"SELECT DISTINCT date_trunc('month', started_at, 'UTC') FROM {DEFAULT}")
        ).scalars()
        months |= {month_start(m) for m in caught}
    return [partition_name(m) for m in sorted(months) if create_month(conn, m)]
