"""The outage journal: the call rows and credit holds a bridge made while PostgreSQL was away,
kept on this node's disk until the database takes them (docs/scale.md, "PostgreSQL away").

A local append-only file rather than a Redis stream: an outage of PostgreSQL must not depend on a
second shared store staying up (Redis restarts without persistence, and the chaos test restarts it
too), and a file the bridge appends to and fsyncs survives the bridge's crash and restart on the
node, which is when it is needed. One JSON line per row or hold, in the order they were made.

`replay` writes what the journal holds in one transaction: every hold, then every row, each only as
it stood last (a call's row is written several times as it goes; its latest is the whole call), by
the idempotent upserts the bridge uses anyway (`save`, `restore_holds`): replaying twice, or after a
crash between the commit and the truncation, changes nothing. Holds come first so that rating, which
releases a call's hold in the transaction that debits it, finds the hold it releases.
"""

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, TypeAdapter
from sqlalchemy.exc import DataError, IntegrityError

from core.billing.credit import OfflineHold
from core.calls.record import CallRow
from core.infra import logs
from core.infra.settings import get_settings
from pbx_bridge.metrics import JOURNAL_BYTES

log = logging.getLogger(__name__)

Write = Callable[[list[CallRow], list[OfflineHold]], None]  # one transaction: holds, then rows


class JournalLine(BaseModel):
    """One line of the journal: a call's row or a call's hold, as it stood then."""

    row: CallRow | None = None
    hold: OfflineHold | None = None


_LINE = TypeAdapter(JournalLine)


class Journal:
    def __init__(self, path: Path, max_bytes: int) -> None:
        self.path, self.max_bytes = path, max_bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()  # appends (event loop) against the truncation (a thread)
        self._replaying = threading.Lock()
        self._size = path.stat().st_size if path.exists() else 0  # a crash left these to replay
        JOURNAL_BYTES.set(self._size)

    @classmethod
    def from_settings(cls) -> "Journal":
        s = get_settings()
        folder = s.outage_journal_dir or s.data_dir / "journal"
        return cls(folder / f"bridge-{s.node_id or 'node'}.jsonl", s.outage_journal_bytes)

    @property
    def pending(self) -> bool:
        """Something is waiting for the database."""
        return self._size > 0

    @property
    def full(self) -> bool:
        """No room for another call's rows: new calls are refused until the database takes these."""
        return self._size >= self.max_bytes

    def append(self, rows: Sequence[CallRow] = (), holds: Sequence[OfflineHold] = ()) -> None:
        """Keep these, durably (on disk when this returns), after everything appended before."""
        lines = [JournalLine(row=row) for row in rows] + [JournalLine(hold=hold) for hold in holds]
        if not lines:
            return
        data = b"".join(_LINE.dump_json(line) + b"\n" for line in lines)
        with self._lock, self.path.open("ab") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
            self._size += len(data)
            JOURNAL_BYTES.set(self._size)

    def read(self, upto: int | None = None) -> list[JournalLine]:
        """What the journal holds, in order (up to byte `upto`). A last line cut short by a crash
        while it was written is dropped: its write never returned, so the row is still pending."""
        if not self.path.exists():
            return []
        with self.path.open("rb") as found:
            data = found.read() if upto is None else found.read(upto)
        lines: list[JournalLine] = []
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                lines.append(_LINE.validate_json(raw))
            except ValueError:
                log.warning("dropped a journal line cut short: %d bytes", len(raw))
        return lines

    def replay(self, write: Write) -> int:
        """Hand what the journal holds to `write` (one transaction: it raises when the database is
        still away, and nothing is dropped then), then drop it; how many lines were written."""
        with self._replaying:
            with self._lock:
                upto = self._size
            lines = self.read(upto)
            rows, holds = latest(lines)
            try:
                write(rows, holds)
            except (IntegrityError, DataError) as exc:
                # Not the database away but a line it refuses (its customer deleted meanwhile):
                # that line alone is dropped, not every call after it.
                log.warning("the database refused the journal together (%s); line by line now", exc.orig)
                for hold in holds:
                    _alone(write, [], [hold], hold.linkedid)
                for row in rows:
                    _alone(write, [row], [], row["linkedid"])
            with self._lock:
                self._drop_first(upto)
            return len(lines)

    def _drop_first(self, count: int) -> None:
        """Remove the first `count` bytes; what was appended meanwhile stays (under `_lock`)."""
        with self.path.open("rb") as found:
            found.seek(count)
            rest = found.read()
        fresh = self.path.with_suffix(".tmp")
        with fresh.open("wb") as out:
            out.write(rest)
            out.flush()
            os.fsync(out.fileno())
        fresh.replace(self.path)
        self._size = len(rest)
        JOURNAL_BYTES.set(self._size)


def _alone(write: Write, rows: list[CallRow], holds: list[OfflineHold], linkedid: str) -> None:
    """One journal line written on its own; dropped when the database refuses it (its data)."""
    try:
        write(rows, holds)
    except (IntegrityError, DataError) as exc:
        with logs.about_call(linkedid):
            log.error(
                "dropped the journal's %s of call %s: %s", "row" if rows else "hold", linkedid, exc.orig
            )


def latest(lines: Sequence[JournalLine]) -> tuple[list[CallRow], list[OfflineHold]]:
    """Each call's last row and last hold, calls in the order they first appear."""
    rows: dict[str, CallRow] = {}
    holds: dict[str, OfflineHold] = {}
    for line in lines:
        if line.row is not None:
            rows[line.row["linkedid"]] = line.row
        if line.hold is not None:
            holds[line.hold.linkedid] = line.hold
    return list(rows.values()), list(holds.values())
