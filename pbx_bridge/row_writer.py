"""The bridge's call rows, written in batches (the row and its upsert: core.calls.record).

The bridge writes each call's row several times (as routed, answered, ended) through a `RowWriter`:
what all calls wrote in the last FLUSH_SECONDS goes to the database as one statement per column
set, in one transaction. At a hundred calls a second that is a few statements a second instead of
three round trips and commits per call, the bridge's and PostgreSQL's largest work per call. A row
not yet written when the process dies is what the reconciliation is for (Asterisk's record).
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable

from sqlalchemy.exc import DataError, IntegrityError

from core.calls.record import CallRow, save, save_many
from core.infra import logs

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05  # the most a row waits for company
RETRY_SECONDS = 2.0  # how often rows are tried again while the database does not answer
ATTEMPTS = 5  # writes of a row that keep failing on their own (bad data) are given up after this

Then = Callable[[str], None]  # told the linkedid once the row is in the database


class RowWriter:
    def __init__(self) -> None:
        # Per call: its latest row, who waits for it, failed attempts. A newer row replaces an
        # older one not yet written (every row is the whole call as of then).
        self._pending: dict[str, tuple[CallRow, list[Then], int]] = {}
        self._flushing = asyncio.Lock()

    def write(self, row: CallRow, then: Then | None = None) -> None:
        """Write `row` at the next flush; `then(linkedid)` once it is in the database."""
        linkedid = row["linkedid"]
        _, waiting, failed = self._pending.pop(linkedid, (row, [], 0))
        self._pending[linkedid] = (row, [*waiting, then] if then else waiting, failed)

    async def flush(self) -> bool:
        """Write what is pending; False when the database took none of it (it is down). A flush
        under way is waited for first, so once this returns every row written before is in the
        database (or pending again, when it could not be)."""
        async with self._flushing:
            return await self._flush()

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
            for then in batch.pop(linkedid)[1]:
                then(linkedid)
        # The rest is tried again at the next flush; a row the database refused counts an attempt.
        for linkedid, (row, waiting, tried) in batch.items():
            failed = tried + (linkedid in refused)
            if failed >= ATTEMPTS:
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
        """Write what gathered every FLUSH_SECONDS until `stop` (every RETRY_SECONDS while the
        database is down); the caller flushes the rest."""
        wait = FLUSH_SECONDS
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)
            wait = FLUSH_SECONDS if await self.flush() else RETRY_SECONDS
