"""The bridge's call rows, written in batches (the row and its upsert: core.calls.record).

The bridge writes each call's row several times (as routed, answered, ended) through a `RowWriter`:
what all calls wrote in the last FLUSH_SECONDS goes to the database as one statement per column
set, in one transaction. At a hundred calls a second that is a few statements a second instead of
three round trips and commits per call, the bridge's and PostgreSQL's largest work per call. A row
not yet written when the process dies is what the reconciliation is for (Asterisk's record).

While the database is down, each row is also appended to the outage journal (pbx_bridge.journal)
as it is written, so a bridge that crashes meanwhile loses none; once the database answers, the
journal is replayed (with the credit holds taken offline) before the rows pending here, and the
calls waiting for their rows (rating) are told only then.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable

from sqlalchemy.exc import DataError, IntegrityError

from core.billing.credit import OfflineHold, restore_holds
from core.calls.record import CallRow, save, save_many
from core.infra import logs
from core.infra.db import get_engine
from pbx_bridge.journal import Journal

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05  # the most a row waits for company
RETRY_SECONDS = 2.0  # how often rows are tried again while the database does not answer
ATTEMPTS = 5  # writes of a row that keep failing on their own (bad data) are given up after this

Then = Callable[[str], None]  # told the linkedid once the row is in the database


def write_journaled(rows: list[CallRow], holds: list[OfflineHold]) -> None:
    """What an outage journal kept, in one transaction: the holds, then the rows."""
    with get_engine().begin() as conn:
        restore_holds(conn, holds)
        for row in rows:
            save(row, conn)


class RowWriter:
    def __init__(
        self,
        journal: Journal | None = None,
        replay: Callable[[list[CallRow], list[OfflineHold]], None] = write_journaled,
        replayed: Callable[[], None] = lambda: None,
    ) -> None:
        # Per call: its latest row, who waits for it, failed attempts. A newer row replaces an
        # older one not yet written (every row is the whole call as of then).
        self._pending: dict[str, tuple[CallRow, list[Then], int]] = {}
        self._flushing = asyncio.Lock()
        # None: no journal (the unit tests' fake bridge); rows wait here while the database is down.
        self.journal, self._replay, self._replayed = journal, replay, replayed
        self._journaled: set[str] = set()  # calls whose pending row is in the journal as it stands
        self.down = False  # the last flush found the database down

    def write(self, row: CallRow, then: Then | None = None) -> None:
        """Write `row` at the next flush; `then(linkedid)` once it is in the database."""
        linkedid = row["linkedid"]
        _, waiting, failed = self._pending.pop(linkedid, (row, [], 0))
        self._pending[linkedid] = (row, [*waiting, then] if then else waiting, failed)
        self._journaled.discard(linkedid)

    async def flush(self) -> bool:
        """Write what is pending; False when the database took none of it (it is down). A flush
        under way is waited for first, so once this returns every row written before is in the
        database (or pending again, when it could not be, and in the journal)."""
        async with self._flushing:
            if self.journal is not None and self.journal.pending and not await self._replay_journal():
                await self._keep()
                return False
            written = await self._flush()
            self.down = not written
            if self.down:
                await self._keep()
            return written

    async def keep_only(self) -> None:
        """The database is known down: journal what is pending, without asking it."""
        async with self._flushing:
            await self._keep()

    async def _replay_journal(self) -> bool:
        assert self.journal is not None
        try:
            count = await asyncio.to_thread(self.journal.replay, self._replay)
        except Exception as exc:
            self.down = True
            log.warning("the outage journal waits for the database (%s)", exc)
            return False
        log.info("wrote %d journal lines kept while the database was away", count)
        self._replayed()
        return True

    async def _keep(self) -> None:
        """Journal the pending rows not yet in the journal as they stand."""
        if self.journal is None:
            return
        fresh = {k: row for k, (row, _, _) in self._pending.items() if k not in self._journaled}
        if fresh:
            await asyncio.to_thread(self.journal.append, list(fresh.values()))
            self._journaled |= fresh.keys()

    async def _flush(self) -> bool:
        batch, self._pending = self._pending, {}
        if not batch:
            return True
        written: list[str] = []
        refused: list[str] = []
        try:
            await asyncio.to_thread(save_many, [row for row, _, _ in batch.values()])
            written += batch
        except Exception as exc:
            log.warning("could not write %d call rows together (%s); one by one now", len(batch), exc)
            for linkedid, (row, _, _) in batch.items():
                outcome = await self._save_alone(row)
                if outcome is False:  # down: the rest would only wait for their own timeouts
                    break
                (written if outcome else refused).append(linkedid)
        for linkedid in written:
            self._journaled.discard(linkedid)
            for then in batch.pop(linkedid)[1]:
                then(linkedid)
        # The rest is tried again at the next flush; a row the database refused counts an attempt.
        for linkedid, (row, waiting, tried) in batch.items():
            failed = tried + (linkedid in refused)
            if failed >= ATTEMPTS:
                self._journaled.discard(linkedid)
                with logs.about_call(linkedid):
                    log.error("giving up writing call %s; the reconciliation completes it", linkedid)
            elif linkedid in self._pending:  # written again meanwhile: that row is newer
                newer, also, _ = self._pending[linkedid]
                self._pending[linkedid] = (newer, [*waiting, *also], failed)
            else:
                self._pending[linkedid] = (row, waiting, failed)
        return bool(written or refused)

    @staticmethod
    async def _save_alone(row: CallRow) -> bool | None:
        """True when written, None when the database refused this row (its data), False when it
        could not be asked (it is down)."""
        with logs.about_call(row["linkedid"]):
            try:
                await asyncio.to_thread(save, row)
            except (IntegrityError, DataError) as exc:
                log.warning("the database refused call %s: %s", row["linkedid"], exc.orig)
                return None
            except Exception as exc:
                log.warning("could not write call %s: %s", row["linkedid"], exc)
                return False
            return True

    async def run(self, stop: asyncio.Event) -> None:
        """Write what gathered every FLUSH_SECONDS until `stop`; while the database is down, ask it
        every RETRY_SECONDS and meanwhile journal each row as it comes. The caller flushes the rest."""
        loop = asyncio.get_running_loop()
        asked = loop.time()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FLUSH_SECONDS)
            if self.down and loop.time() - asked < RETRY_SECONDS:
                await self.keep_only()
                continue
            asked = loop.time()
            await self.flush()
