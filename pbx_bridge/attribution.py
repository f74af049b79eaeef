"""A call to a website pool number matched to the visitor session that held the number at the
call's start (docs/attribution.md).

The match is one Redis round trip (core.calls.visits.holders_at) in the call's routing, timed in
ATTRIBUTION_MATCH; only a call some session held the number for goes on: its traffic source (the
customer's whose utm_source the visit carries) is the call's from then on, and its
`call_attribution` row is written by `run`'s loop, once the call's row is in the database.
"""

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import datetime

from redis.asyncio import Redis
from redis.exceptions import RedisError

from core.calls import call_attribution, visits
from core.calls.record import CallState
from core.calls.visits import Attribution
from pbx_bridge.metrics import ATTRIBUTION_MATCH

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05
ATTEMPTS = 100  # flushes a row waits for its call's row (5 s), or for the database to answer


@dataclass
class _Pending:
    linkedid: str
    started_at: datetime
    user_id: int
    found: Attribution
    tries: int = 0


class Attributor:
    def __init__(self, redis: Redis | None = None) -> None:
        self._redis = redis  # None: no attribution (the bridge's unit tests)
        self._pending: list[_Pending] = []

    async def attribute(self, call: CallState) -> Attribution | None:
        """Match the admitted call to the session that held its number at its start, if any."""
        if self._redis is None or call.user_id is None:
            return None
        began = time.perf_counter()
        try:
            holders = await visits.holders_at(self._redis, call.did, call.started_at)
        except RedisError as exc:  # attribution never stops a call
            log.warning("could not match call %s to a website visit: %s", call.linkedid, exc)
            return None
        finally:
            ATTRIBUTION_MATCH.observe(time.perf_counter() - began)
        found = visits.attribution_of(holders)
        if found is None:
            return None
        if found.utm_source:
            source = await asyncio.to_thread(call_attribution.source_named, call.user_id, found.utm_source)
            call.source_id = source if source is not None else call.source_id
        self._pending.append(_Pending(call.linkedid, call.started_at, call.user_id, found))
        return found

    async def flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            return
        try:
            written = await asyncio.to_thread(self._record, batch)
        except Exception:
            log.exception("could not write %d calls' attribution; trying again", len(batch))
            written = set()
        for p in batch:
            if p.linkedid in written:
                continue
            p.tries += 1
            if p.tries < ATTEMPTS:
                self._pending.append(p)
            else:
                log.error("gave up writing the attribution of call %s", p.linkedid)

    @staticmethod
    def _record(batch: list[_Pending]) -> set[str]:
        return {
            p.linkedid for p in batch if call_attribution.record(p.linkedid, p.started_at, p.user_id, p.found)
        }

    async def run(self, stop: asyncio.Event) -> None:
        """Write what gathered every FLUSH_SECONDS until `stop`; the caller flushes the rest."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FLUSH_SECONDS)
            await self.flush()
