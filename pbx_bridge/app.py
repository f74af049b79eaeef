"""The composition root: the gateways, stores and router built once, the event table filled by the
modules that handle events, and the loops that feed it, until SIGINT/SIGTERM.

| source | events | handled by |
|---|---|---|
| ARI websocket | StasisStart/End, PlaybackFinished, ChannelDtmfReceived/StateChange/HangupRequest | `Flows` |
| AMI user events | CallrouteAttempt, CallrouteAnswered, CallrouteEnd | `Flows` (calls) |
| Redis pub/sub | pbx:trunk-changed, pbx:hangup | `Commands` |
| PostgreSQL, every TRUNK_RESYNC_SECONDS | the catalogue version moved | `TrunkSync.resync` |

AMI's FullyBooted and ContactStatus are the trunk status's own (`TrunkStatus`), not calls'.
"""

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

import redis.asyncio as aioredis

from core.infra import health, jobs, metrics, names
from core.infra.redis_client import async_redis
from core.infra.settings import get_settings
from core.pbx import node_registry
from core.pbx.ari import AriAddress
from core.webhooks import intake
from pbx_bridge import commands, trunks
from pbx_bridge.ami import Ami
from pbx_bridge.ari import Ari
from pbx_bridge.attribution import Attributor
from pbx_bridge.call.context import CallAri, Context
from pbx_bridge.commands import Commands
from pbx_bridge.events import Event, EventTable, Source
from pbx_bridge.flows import Flows
from pbx_bridge.hook_outbox import HookOutbox
from pbx_bridge.live_store import LiveStore
from pbx_bridge.lost_nodes import LostNodes
from pbx_bridge.metrics import CALLS_IN_PROGRESS
from pbx_bridge.outage import Outage
from pbx_bridge.rating_queue import RatingQueue
from pbx_bridge.reconcile import ChannelAri, Reconciler
from pbx_bridge.routing import EngineRouter
from pbx_bridge.row_writer import RowWriter
from pbx_bridge.trunk_status import TrunkStatus

STOP_WAIT_SECONDS = 10  # how long stopping waits for calls still being routed


class BridgeAri(CallAri, ChannelAri, trunks.ConfigAri, Protocol):
    """ARI as the bridge uses it: pbx_bridge.ari.Ari, or the unit tests' fake."""

    async def receive_only(self, event_types: tuple[str, ...]) -> None: ...

    def events(
        self, on_connect: Callable[[], Awaitable[None]], stop: asyncio.Event
    ) -> AsyncIterator[Event]: ...


class Bridge:
    def __init__(self, ctx: Context, ari: BridgeAri, redis: aioredis.Redis) -> None:
        self.ctx, self.ari, self.redis = ctx, ari, redis
        self.stop = asyncio.Event()
        self.flows = Flows(ctx)
        self.trunks = trunks.TrunkSync(ari, redis)
        self.commands = Commands(ctx, self.trunks)
        self.reconciler = Reconciler(ctx, ari, self.flows)
        self.looks: set[asyncio.Task[None]] = set()  # second looks after a (re)connection
        self.events = EventTable()
        self.flows.subscribe(self.events)
        self.commands.subscribe(self.events)

    async def on_connect(self) -> None:
        """After every (re)connection: only the events the table reads, trunks into Asterisk again,
        calls matched to reality."""
        await self.ari.receive_only(self.events.names(Source.ARI))
        await self.trunks.push_all()
        await self.reconciler.reconcile()
        if self.reconciler.missing:
            self.looks.add(look := asyncio.create_task(self.reconciler.look_again()))
            look.add_done_callback(self.looks.discard)

    async def run(self) -> None:
        helpers = [
            asyncio.create_task(commands.listen(self.redis, self.events)),
            asyncio.create_task(self.commands.run()),
            asyncio.create_task(self.reconciler.sweep(self.stop)),
            asyncio.create_task(self.trunks.keep_in_sync(get_settings().trunk_resync_seconds)),
        ]
        if self.ctx.node_id:  # one of several nodes: say so, and complete the calls of nodes gone
            s = get_settings()
            here = node_registry.NodeAddress(s.node_address, s.asterisk_http_port)
            lost = LostNodes(self.ctx, self.redis, self.reconciler)
            helpers.append(asyncio.create_task(lost.run(here, self.stop)))
        writer = asyncio.create_task(self.ctx.rows.run(self.stop))
        try:
            async for event in self.ari.events(self.on_connect, self.stop):
                self.events.dispatch_ari(event)
        finally:
            helpers += self.looks
            for helper in helpers:
                helper.cancel()
            for helper in helpers:
                with contextlib.suppress(asyncio.CancelledError):
                    await helper
            await self.flows.stop(STOP_WAIT_SECONDS)
            self.stop.set()
            await writer
            await self.ctx.rows.flush()  # rows of calls that ended as we stopped


async def main() -> None:
    s = get_settings()
    redis = async_redis()
    ari = Ari(AriAddress.from_settings, s.stasis_app)
    ami = Ami("127.0.0.1", s.asterisk_ami_port, s.ami_user, s.ami_secret)
    # Rating also releases the call's credit hold, in the same transaction as the debit.
    rating = RatingQueue(lambda linkedids: jobs.enqueue(names.RATE_CALL, *linkedids))
    # PostgreSQL away: routing from its last reads, rows and holds kept in the journal meanwhile.
    outage = Outage.from_settings()
    router = EngineRouter(outage.known, outage.journal)
    rows = RowWriter(outage.journal, replayed=outage.known.clear_held)
    live = LiveStore(redis)
    hooks = HookOutbox(intake.record)  # a call's webhook events are recorded before it is rated
    ctx = Context(
        ari=ari,
        ami=ami,
        live=live,
        router=router,
        rows=rows,
        after_hangup=hooks.after(rating.add),
        node_id=s.node_id,
        hooks=hooks.event,
        attribution=Attributor(redis),
        outage=outage,
    )
    bridge = Bridge(ctx, ari, redis)
    CALLS_IN_PROGRESS.set_function(lambda: len(ctx.channels))

    def ari_connected() -> None:
        if not ari.connected:
            raise ConnectionError("not connected to Asterisk's ARI")

    metrics.serve(s.bridge_metrics_host, s.bridge_metrics_port, lambda: health.run({"ari": ari_connected}))
    ami.on("UserEvent", bridge.events.dispatch_user_event)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, bridge.stop.set)
    trunk_status = asyncio.create_task(TrunkStatus(ami, redis, s.trunk_qualify_seconds).run())
    rating_sender = asyncio.create_task(rating.run(bridge.stop))
    hooks_sender = asyncio.create_task(hooks.run(bridge.stop))
    attribution = asyncio.create_task(ctx.attribution.run(bridge.stop))
    try:
        await bridge.run()
    finally:
        trunk_status.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await trunk_status
        bridge.stop.set()
        await hooks_sender
        await attribution
        await ctx.attribution.flush()  # calls matched as we stopped
        await hooks.flush()  # events of calls that ended as we stopped, and their hand-over to rating
        await rating_sender
        await rating.flush()  # calls that ended while the bridge stopped
        await ctx.auction.close()
        await redis.aclose()
