"""Hung-up calls handed to the rating worker in batches.

One broker message per batch, sent from a thread, instead of one per call sent from the event
loop: a Celery send cost a tenth of the bridge's time at 40 calls/s, and blocked every call while
it waited on the broker. A batch lost with the process costs no money: the worker's periodic
sweep (`RATE_PENDING`) rates every call left unrated.
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.2  # the most rating waits for company


class RatingQueue:
    def __init__(self, send: Callable[[list[str]], None]) -> None:
        self._send = send
        self._pending: list[str] = []

    def add(self, linkedid: str) -> None:
        self._pending.append(linkedid)

    async def flush(self) -> None:
        batch, self._pending = self._pending, []
        if batch:
            try:
                await asyncio.to_thread(self._send, batch)
            except Exception:
                log.exception("could not queue %d calls for rating; the periodic sweep will", len(batch))

    async def run(self, stop: asyncio.Event) -> None:
        """Send what gathered every FLUSH_SECONDS until `stop`; the caller flushes the rest."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FLUSH_SECONDS)
            await self.flush()
