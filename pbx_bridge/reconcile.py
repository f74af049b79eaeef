"""Reconciliation: this node's open call rows (core.pbx.nodes) matched to what its Asterisk has, at each
(re)connection and every minute. Calls still talking are taken back, the rest ended and completed
from Asterisk's record (pbx_bridge.cel), and calls that never reached the bridge get a row.
Calls a flow of ours is handling (`ctx.channels`) are left to it.
"""

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from functools import partial
from typing import Protocol

from core.calls.record import CallRow, open_calls
from core.infra import logs
from core.models import Call
from core.pbx.nodes import linkedid_prefix, owns
from pbx_bridge import cel
from pbx_bridge.call.context import Context
from pbx_bridge.call.flow import CallFlow
from pbx_bridge.events import Channel
from pbx_bridge.flows import Flows
from pbx_bridge.metrics import CALLS

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60
# After a (re)connection found followed calls without a channel, the second look comes this soon,
# not a sweep later: after an Asterisk restart their ends will never come, and their rows and
# credit holds would otherwise stay open for two sweeps.
LOOK_AGAIN_SECONDS = 5


class ChannelAri(Protocol):
    """ARI as the reconciliation uses it."""

    async def channels(self) -> list[Channel]: ...

    async def startup_time(self) -> str: ...

    async def hangup(self, channel: str, reason: str = "normal") -> None: ...


class Reconciler:
    def __init__(self, ctx: Context, ari: ChannelAri, flows: Flows) -> None:
        self.ctx, self.ari, self.flows = ctx, ari, flows
        self.running = asyncio.Lock()
        self.missing: set[str] = set()  # calls followed in the dialplan whose channel was gone
        self.started: str | None = None  # when the Asterisk we last reconciled with started

    async def reconcile(self) -> None:
        async with self.running:  # at connect and in the sweep: never both at once
            now = datetime.now(UTC)
            ended = await self._settle_open_calls()
            await self._tidy()
            rows = await asyncio.to_thread(cel.completed_rows, ended, now)
            prefix = linkedid_prefix(self.ctx.node_id)
            rows += await asyncio.to_thread(cel.missed_calls, now, set(self.ctx.channels), prefix)
            self.complete(rows)

    def complete(self, rows: list[CallRow]) -> None:
        """Write rows completed from Asterisk's record; each is counted and rated once written."""
        for row in rows:
            with logs.about_call(row["linkedid"]):
                log.info("call completed from Asterisk's record: %s", row["disposition"])
            self.ctx.rows.write(row, then=partial(self._completed, row["disposition"]))

    def _completed(self, disposition: str, linkedid: str) -> None:
        """A row completed from Asterisk's record is in the database: counted, and rated."""
        CALLS.labels(disposition).inc()
        self.ctx.after_hangup(linkedid)

    async def _settle_open_calls(self) -> list[tuple[Call, bool]]:
        """Resume open calls still talking; hang up what is left of the others, which are returned
        (with whether we ended them just now)."""
        following = {linkedid for linkedid, flow in self.ctx.channels.items() if flow.caller.in_dialplan}
        channels = {c.get("id") for c in await self.ari.channels()}
        started, self.started = self.started, await self.ari.startup_time()
        # Calls we follow in the dialplan whose channel was gone at two sweeps in a row: their end
        # never reached us (AMI was away). Asterisk's record completes them. Once Asterisk has
        # restarted (it died holding them, a node lost), every one gone is lost at once, those
        # still being routed too: their flows wait for events that will never come.
        gone = following - channels
        restarted = started not in (None, self.started)
        lost = set(self.ctx.channels) - channels if restarted else self.missing & gone
        self.missing = gone
        ended: list[tuple[Call, bool]] = []
        for row in await asyncio.to_thread(open_calls, linkedid_prefix(self.ctx.node_id)):
            up = row.linkedid in channels
            flow = self.ctx.channels.get(row.linkedid)
            if flow is not None:
                if row.linkedid not in lost or flow.finished:
                    continue
                flow.let_go()
                if not flow.caller.in_dialplan:  # it ends its own row: routing stopped
                    continue
            elif up and row.connected_at is not None:  # talking on in the dialplan
                self.flows.start(CallFlow.resume(self.ctx, row))
                continue
            elif up:  # routing can't be picked up halfway: end it
                await self.ari.hangup(row.linkedid)
            ended.append((row, up))
        return ended

    async def _tidy(self) -> None:
        """No live call of this node's left over from calls nobody handles any more (the other
        nodes' live calls are theirs)."""
        for linkedid in await self.ctx.live.linkedids():
            if owns(self.ctx.node_id, linkedid) and linkedid not in self.ctx.channels:
                await self.ctx.live.remove(linkedid)

    async def look_again(self) -> None:
        """Reconcile once more, LOOK_AGAIN_SECONDS from now (calls still `missing` are then lost)."""
        await asyncio.sleep(LOOK_AGAIN_SECONDS)
        try:
            await self.reconcile()
        except Exception:
            log.exception("reconciliation failed; next try in %s s", SWEEP_SECONDS)

    async def sweep(self, stop: asyncio.Event) -> None:
        """Reconcile now and then, not only at connect: a call can fall through while we run too
        (a flow that failed to save, a call the dialplan refused)."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SWEEP_SECONDS)
                return
            try:
                await self.reconcile()
            except Exception:
                log.exception("reconciliation failed; next try in %s s", SWEEP_SECONDS)
