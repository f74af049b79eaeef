"""The call events webhooks are told (`incoming`, `routed`, `connected`), recorded in batches.

A call's flow only appends to a list (no await, no I/O: webhooks never slow routing); every
FLUSH_SECONDS a thread records what gathered as deliveries in PostgreSQL (core.webhooks.intake),
and the workers send them. A hung-up call is handed to rating only after the events it raised are
recorded (`after`), so its last events, which rating records, always come after them.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from core.calls.record import CallState, Result, Step
from core.values.enums import WebhookEvent
from core.webhooks import payload
from core.webhooks.intake import Event

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05  # the most an event waits for company
ATTEMPTS = 5  # flushes a batch is tried in before it is given up (the database is down)

Then = Callable[[str], None]


def attempt(state: CallState) -> int:
    """Which target rings now: 1, then one more for each failed dial (a failover)."""
    return 1 + sum(1 for e in state.trail if e["step"] == Step.DIAL and e["result"] == Result.FAILED)


class HookOutbox:
    def __init__(self, record: Callable[[list[Event]], int]) -> None:
        self._record = record
        self._pending: list[Event] = []
        self._waiting: list[tuple[str, Then]] = []  # hung-up calls waiting for their events
        self._failed = 0  # flushes in a row that could not record
        self._flushing = asyncio.Lock()

    def event(self, kind: WebhookEvent, state: CallState) -> None:
        """The call's `kind` event, as the call is now (a call no campaign took has no subscriber)."""
        if state.campaign_id is None:
            return
        seq = attempt(state) if kind is WebhookEvent.ROUTED else 0
        body = payload.live(kind, state, datetime.now(UTC), seq)
        self._pending.append(Event(state.linkedid, kind, state.campaign_id, state.buyer_id, body, seq))

    def after(self, then: Then) -> Then:
        """`then`, called for a hung-up call once the events raised before it are recorded."""
        return lambda linkedid: self._waiting.append((linkedid, then))

    async def flush(self) -> None:
        async with self._flushing:
            batch, self._pending = self._pending, []
            waiting, self._waiting = self._waiting, []
            if batch:
                try:
                    await asyncio.to_thread(self._record, batch)
                    self._failed = 0
                except Exception:
                    self._failed += 1
                    if self._failed < ATTEMPTS:
                        log.warning("could not record %d webhook events; trying again", len(batch))
                        self._pending[:0], self._waiting[:0] = batch, waiting
                        return
                    log.exception("gave up recording %d webhook events", len(batch))
                    self._failed = 0
            for linkedid, then in waiting:
                then(linkedid)

    async def run(self, stop: asyncio.Event) -> None:
        """Record what gathered every FLUSH_SECONDS until `stop`; the caller flushes the rest."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FLUSH_SECONDS)
            await self.flush()
