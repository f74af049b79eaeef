"""The composition root: gateway, stores, router and the event loop that feeds each call."""

import asyncio
import contextlib
import json
import logging
import signal
from datetime import UTC, datetime
from typing import Any

import redis.asyncio as aioredis
from panoramisk.message import Message

from core import jobs, names
from core.models import Call
from core.names import HANGUP_REQUESTS, TRUNK_CHANGES
from core.redis_client import async_redis, pubsub_channel
from core.settings import get_settings
from pbx_bridge import call_record, reconcile, trunks
from pbx_bridge.ari import Ari
from pbx_bridge.call_flow import DIALPLAN_EVENTS, EVENTS_READ, CallFlow, Context, Router, channel_of
from pbx_bridge.call_record import RowWriter
from pbx_bridge.live_store import LiveStore
from pbx_bridge.rating_queue import RatingQueue

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60


class Bridge:
    def __init__(self, ari: Ari, live: LiveStore, router: Router, redis: aioredis.Redis) -> None:
        self.ctx = Context(ari=ari, live=live, router=router, rows=RowWriter())
        self.redis = redis
        self.tasks: set[asyncio.Task[None]] = set()
        self.stop = asyncio.Event()
        self.reconciling = asyncio.Lock()
        self.missing: set[str] = set()  # calls followed in the dialplan whose channel was gone

    async def on_connect(self) -> None:
        """After every (re)connection: the events the flows read, trunks into Asterisk again, calls
        matched to reality."""
        await self.ctx.ari.receive_only(EVENTS_READ)
        await trunks.push_all(self.ctx.ari, await asyncio.to_thread(trunks.load))
        await self.reconcile()

    async def reconcile(self) -> None:
        """Match the call rows to what Asterisk has: calls still talking are taken back, the rest
        ended and completed from Asterisk's record, and calls that never reached us get a row.
        Calls a flow of ours is handling (`ctx.channels`) are left alone."""
        async with self.reconciling:  # at connect and in the sweep: never both at once
            await self._reconcile()

    async def _reconcile(self) -> None:
        now = datetime.now(UTC)
        ended = await self._settle_open_calls()
        await self._tidy()
        rows = await asyncio.to_thread(reconcile.completed_rows, ended, now)
        rows += await asyncio.to_thread(reconcile.missed_calls, now, set(self.ctx.channels))
        for row in rows:
            log.info("call %s completed from Asterisk's record", row["linkedid"])
            self.ctx.rows.write(row, then=self.ctx.after_hangup)

    async def _settle_open_calls(self) -> list[tuple[Call, bool]]:
        """Resume open calls still talking; hang up what is left of the others, which are returned
        (with whether we ended them just now)."""
        following = {linkedid for linkedid, flow in self.ctx.channels.items() if flow.in_dialplan}
        channels = {c["id"] for c in await self.ctx.ari.channels()}
        # Calls we follow in the dialplan whose channel was gone at two sweeps in a row: their end
        # never reached us (AMI was away). Asterisk's record completes them.
        lost, self.missing = self.missing & (following - channels), following - channels
        ended: list[tuple[Call, bool]] = []
        for row in await asyncio.to_thread(call_record.open_calls):
            up = row.linkedid in channels
            flow = self.ctx.channels.get(row.linkedid)
            if flow is not None:
                if row.linkedid not in lost or flow.finished:
                    continue
                flow.let_go()
            elif up and row.connected_at is not None:  # talking on in the dialplan
                self.start(CallFlow.resume(self.ctx, row))
                continue
            elif up:  # routing can't be picked up halfway: end it
                await self.ctx.ari.hangup(row.linkedid)
            ended.append((row, up))
        return ended

    async def _tidy(self) -> None:
        """No live call left over from calls nobody handles any more."""
        for linkedid in await self.ctx.live.linkedids():
            if linkedid not in self.ctx.channels:
                await self.ctx.live.remove(linkedid)

    async def sweep(self) -> None:
        """Reconcile now and then, not only at connect: a call can fall through while we run too
        (a flow that failed to save, a call the dialplan refused)."""
        while not self.stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), SWEEP_SECONDS)
                return
            try:
                await self.reconcile()
            except Exception:
                log.exception("reconciliation failed; next try in %s s", SWEEP_SECONDS)

    def start(self, flow: CallFlow) -> None:
        self.ctx.channels[flow.inbound] = flow
        task = asyncio.create_task(flow.run(), name=f"call-{flow.linkedid}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def dispatch(self, event: dict[str, Any]) -> None:
        """An ARI event: a new call, or one for the call whose channel it names."""
        channel_id = channel_of(event)
        flow = self.ctx.channels.get(channel_id) if channel_id else None
        if flow is not None:
            flow.deliver(event)
        elif event.get("type") == "StasisStart":
            did, caller = [*event.get("args", []), "", ""][:2]
            self.start(CallFlow(self.ctx, event["channel"], did, caller))

    def dispatch_ami(self, message: Message) -> None:
        """A user event the dialplan raised for a call it dials (call_flow.DIALPLAN_EVENTS), to
        the call's flow; the event names the call by linkedid, whichever leg raised it."""
        kind = message.get("UserEvent")
        flow = self.ctx.channels.get(message.get("Linkedid", ""))
        if flow is not None and kind in DIALPLAN_EVENTS:
            fields = ("Attempt", "Status", "Cause", "SIP", "By", "Recording")
            flow.deliver({"type": kind, **{name.lower(): message.get(name, "") for name in fields}})

    async def watch_commands(self) -> None:
        """Apply what the API asks for (core.pbx_commands) while calls run: no restart needed."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(pubsub_channel(TRUNK_CHANGES), pubsub_channel(HANGUP_REQUESTS))
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                try:
                    if message["channel"] == pubsub_channel(TRUNK_CHANGES):
                        await self.apply_trunk(int(message["data"]))
                    else:
                        await self.hang_up(json.loads(message["data"]))
                except Exception:
                    log.exception("could not apply %s %s", message["channel"], message["data"])
        finally:
            await pubsub.aclose()

    async def apply_trunk(self, trunk_id: int) -> None:
        found = await asyncio.to_thread(trunks.load, trunk_id)
        if found:
            await trunks.push(self.ctx.ari, found[0])
        else:
            await trunks.remove(self.ctx.ari, trunk_id)

    async def hang_up(self, request: dict[str, Any]) -> None:
        linkedid = str(request["linkedid"])
        flow = self.ctx.channels.get(linkedid)
        if flow is not None:
            flow.hangup_by = "portal"
            flow.note("hangup", f"hung up from the portal by user {request.get('by')}")
        # The inbound channel's id is the call's linkedid.
        await self.ctx.ari.hangup(linkedid)

    async def run(self) -> None:
        helpers = [asyncio.create_task(self.watch_commands()), asyncio.create_task(self.sweep())]
        writer = asyncio.create_task(self.ctx.rows.run(self.stop))
        try:
            async for event in self.ctx.ari.events(self.on_connect, self.stop):
                self.dispatch(event)
        finally:
            for helper in helpers:
                helper.cancel()
            for helper in helpers:
                with contextlib.suppress(asyncio.CancelledError):
                    await helper
            # Calls in the dialplan talk on without us (the next bridge takes them back); only
            # calls still being routed are worth waiting for.
            for flow in set(self.ctx.channels.values()):
                if flow.in_dialplan:
                    flow.let_go()
            if self.tasks:
                await asyncio.wait(self.tasks, timeout=10)
            self.stop.set()
            await writer
            await self.ctx.rows.flush()  # rows of calls that ended as we stopped


async def main() -> None:
    from pbx_bridge.ami import Ami
    from pbx_bridge.routing import EngineRouter
    from pbx_bridge.trunk_status import TrunkStatus

    s = get_settings()
    redis = async_redis()
    ari = Ari("127.0.0.1", s.asterisk_http_port, s.ari_user, s.ari_password, s.stasis_app)
    bridge = Bridge(ari, LiveStore(redis), EngineRouter(), redis)
    ami = Ami("127.0.0.1", s.asterisk_ami_port, s.ami_user, s.ami_secret)
    ami.on("UserEvent", bridge.dispatch_ami)
    bridge.ctx.ami = ami
    # Rating also releases the call's credit hold, in the same transaction as the debit.
    rating = RatingQueue(lambda linkedids: jobs.enqueue(names.RATE_CALL, *linkedids))
    bridge.ctx.after_hangup = rating.add
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, bridge.stop.set)
    trunk_status = asyncio.create_task(TrunkStatus(ami, redis, s.trunk_qualify_seconds).run())
    rating_sender = asyncio.create_task(rating.run(bridge.stop))
    try:
        await bridge.run()
    finally:
        trunk_status.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await trunk_status
        bridge.stop.set()
        await rating_sender
        await rating.flush()  # calls that ended while the bridge stopped
        await redis.aclose()
