"""Months of calls past the retention setting, moved out of the database into files (docs/reports.md,
"Retention").

With CALL_RETENTION_MONTHS = N, the workers keep the current month and the N before it; each older
month's partition is detached from `call`, written to CALL_ARCHIVE_DIR as `call_y2025m01.csv.gz`
(CSV with a header naming the columns), and dropped only once the file holds as many rows as the
partition and is on disk. A month detached but not yet written (a crash in between) is a table of
its own still, found and archived by the next run. `restore` loads a file back.

    python -m core.operations.call_archive restore var/call-archive/call_y2025m01.csv.gz
"""

import gzip
import logging
import os
import sys
from datetime import datetime
from pathlib import Path

from sqlalchemy import text

from core.calls.call_partitions import (
    TABLE,
    add_months,
    attached_months,
    create_month,
    month_of,
    month_start,
    monthly,
)
from core.infra.db import get_engine
from core.infra.settings import get_settings

log = logging.getLogger(__name__)

SUFFIX = ".csv.gz"


def archive_dir() -> Path:
    settings = get_settings()
    return settings.call_archive_dir or settings.data_dir / "call-archive"


def due(now: datetime, keep_months: int, months: dict[str, datetime]) -> list[str]:
    """The partitions of `months` older than the current month and the `keep_months` before it."""
    cutoff = add_months(month_start(now), -keep_months)
    return sorted(name for name, month in months.items() if month < cutoff)


def _detached_months() -> dict[str, datetime]:
    """Monthly tables no longer part of `call`: detached by a run that did not finish."""
    with get_engine().connect() as conn:
        names = conn.execute(
            text(
                "SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = "
                "current_schema()::regnamespace AND NOT c.relispartition AND c.relname LIKE 'call\\_y%'"
            )
        ).scalars()
        return monthly(names)


def archive_old_months(
    now: datetime, keep_months: int | None = None, folder: Path | None = None
) -> list[Path]:
    """Archive every month past the retention setting (none when it is 0); returns the files written."""
    keep = get_settings().call_retention_months if keep_months is None else keep_months
    if keep <= 0:
        return []
    with get_engine().connect() as conn:
        attached = attached_months(conn)
    months = {**attached, **_detached_months()}
    return [archive_month(name, name in attached, folder or archive_dir()) for name in due(now, keep, months)]


def archive_month(name: str, attached: bool, folder: Path) -> Path:
    """Detach `name` from `call`, write its rows to `folder`, then drop it. A late write to a call
    of that month, once detached, lands in the default partition: kept, never refused."""
    if attached:
        with get_engine().begin() as conn:
            conn.execute(text(f"ALTER TABLE {TABLE} DETACH PARTITION {name}"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}{SUFFIX}"
    partial = path.with_name(path.name + ".part")
    with get_engine().begin() as conn:
        rows = conn.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with (
            gzip.open(partial, "wb") as out,
            cursor.copy(f"COPY {name} TO STDOUT WITH (FORMAT csv, HEADER)") as copy,
        ):
            for block in copy:
                out.write(block)
        written = cursor.rowcount
        if written != rows:
            raise RuntimeError(f"{name}: {rows} calls, {written} written to {partial}; the table is kept")
        with partial.open("rb") as done:
            os.fsync(done.fileno())
        partial.replace(path)
        os.fsync(os.open(folder, os.O_RDONLY))  # the rename itself on disk before the drop
        conn.execute(text(f"DROP TABLE {name}"))
    log.info("archived %d calls of %s to %s", rows, name, path)
    return path


def restore(path: Path) -> int:
    """Load an archived month back into `call` (its partition made again first); returns the rows.
    A month already there is refused whole by the key: nothing is loaded twice."""
    month = month_of(path.name.removesuffix(SUFFIX))
    with gzip.open(path, "rb") as file:
        header = file.readline().decode().strip()
        with get_engine().begin() as conn:
            if month is not None:
                create_month(conn, month)
            cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
            with cursor.copy(f"COPY {TABLE} ({header}) FROM STDIN WITH (FORMAT csv)") as copy:
                while block := file.read(1 << 20):
                    copy.write(block)
            return int(cursor.rowcount)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "restore":
        sys.exit("usage: python -m core.operations.call_archive restore FILE")
    print(f"{restore(Path(sys.argv[2]))} calls restored")
