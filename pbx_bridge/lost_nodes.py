"""A node gone for good (docs/scale.md): its machine died and never came back, so no bridge of its
own will ever complete its calls. Every other bridge says it is up (core.pbx.node_registry) and looks,
each beat, for nodes that hold open call rows, or calls Asterisk ended with no row at all (refused
while the node's bridge was down), but have not been heard of for NODE_GONE_SECONDS; it completes
their rows, and writes the missing ones, from Asterisk's record (CEL, written to the shared database
as the calls went) and takes their calls off the live view, freeing the cap slots they held.

Two bridges may do it at once: the rows are upserts and rating runs once per call, so the second
changes nothing. A node that returns later finds its calls complete (and none missing) and leaves
them."""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

import redis.asyncio as aioredis
from sqlalchemy import func
from sqlmodel import col, select

from core.calls.record import open_calls
from core.infra.db import session_scope
from core.infra.settings import get_settings
from core.models import Call
from core.pbx import node_registry
from core.pbx.nodes import linkedid_prefix, node_of
from pbx_bridge import cel
from pbx_bridge.call.context import Context
from pbx_bridge.reconcile import Reconciler

log = logging.getLogger(__name__)


def nodes_with_open_calls() -> set[str]:
    """The ids of the nodes that have call rows not yet ended."""
    node = func.split_part(Call.linkedid, "-", 1)
    stmt = select(node).where(col(Call.ended_at).is_(None), func.strpos(Call.linkedid, "-") > 0).distinct()
    with session_scope() as session:
        return {str(n) for n in session.exec(stmt)}


def nodes_with_missed_calls(now: datetime) -> set[str]:
    """The ids of the nodes with calls Asterisk ended in the last day that have no row."""
    return {node for linkedid in cel.missed_linkedids(now) if (node := node_of(linkedid))}


class LostNodes:
    def __init__(
        self,
        ctx: Context,
        redis: aioredis.Redis,
        reconciler: Reconciler,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ctx, self.redis, self.reconciler, self.clock = ctx, redis, reconciler, clock
        # Since when (monotonic) each node with open calls has been absent from the registry, as
        # this bridge saw it: a Redis that restarted empty loses every key for one beat, not a node.
        self.absent_since: dict[str, float] = {}
        # The nodes with calls Asterisk ended with no row, as last looked for (and when): a read of
        # a day of Asterisk's record, so once per NODE_GONE_SECONDS rather than every beat (a node
        # must be absent that long anyway).
        self.missed: set[str] = set()
        self.missed_at: float | None = None

    async def run(self, address: node_registry.NodeAddress, stop: asyncio.Event) -> None:
        """Beat, and complete the calls of nodes gone for good, every NODE_BEAT_SECONDS until `stop`."""
        every = get_settings().node_beat_seconds
        while not stop.is_set():
            try:
                await node_registry.beat(self.redis, self.ctx.node_id, address)
                await self.look()
            except Exception:  # Redis or PostgreSQL away: the next beat tries again
                log.exception("could not beat or look for lost nodes")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)

    async def look(self) -> None:
        gone_after = get_settings().node_gone_seconds
        now = self.clock()
        if self.missed_at is None or now - self.missed_at >= gone_after:
            self.missed = await asyncio.to_thread(nodes_with_missed_calls, datetime.now(UTC))
            self.missed_at = now
        others = await asyncio.to_thread(nodes_with_open_calls) | self.missed
        others.discard(self.ctx.node_id)
        for node in others:
            if await node_registry.is_up(self.redis, node):
                self.absent_since.pop(node, None)
            elif now - self.absent_since.setdefault(node, now) >= gone_after:
                log.warning("node %s not heard of for %.0f s: gone for good", node, gone_after)
                await self.complete(node)
                self.missed.discard(node)
        for node in set(self.absent_since) - others:  # nothing left open: nothing to watch
            del self.absent_since[node]

    async def complete(self, node: str) -> None:
        """End every open call of `node` as Asterisk's record has it (no hang-up recorded: the
        call's last known moment, cause 38), write the rows of the calls it refused with none, and
        take its calls off the live view."""
        now, prefix = datetime.now(UTC), linkedid_prefix(node)
        rows = await asyncio.to_thread(open_calls, prefix)
        done = await asyncio.to_thread(cel.completed_rows, [(row, False) for row in rows], now)
        missed = await asyncio.to_thread(cel.missed_calls, now, set(), prefix)
        log.warning(
            "completing the %d open calls of node %s, and %d it has no row of", len(rows), node, len(missed)
        )
        self.reconciler.complete(done + missed)
        for linkedid in await self.ctx.live.linkedids():
            if node_of(linkedid) == node:
                await self.ctx.live.remove(linkedid)
