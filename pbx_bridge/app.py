"""The composition root: gateway, stores, router and the event loop that feeds each call."""

import asyncio
import contextlib
import json
import logging
import signal
from typing import Any

import redis.asyncio as aioredis

from core import jobs
from core.pbx_commands import HANGUP_REQUESTS, TRUNK_CHANGES
from core.settings import get_settings
from pbx_bridge import call_record, trunks
from pbx_bridge.ari import Ari
from pbx_bridge.call_flow import CallFlow, Context, Router, channel_of
from pbx_bridge.live_store import LiveStore

log = logging.getLogger(__name__)


class Bridge:
    def __init__(self, ari: Ari, live: LiveStore, router: Router, redis: aioredis.Redis) -> None:
        self.ctx = Context(ari=ari, live=live, router=router)
        self.redis = redis
        self.tasks: set[asyncio.Task[None]] = set()
        self.stop = asyncio.Event()

    async def on_connect(self) -> None:
        """After every (re)connection: trunks into Asterisk again, live state matched to reality."""
        await trunks.push_all(self.ctx.ari, await asyncio.to_thread(trunks.load))
        channels = {c["id"] for c in await self.ctx.ari.channels()}
        for row in await asyncio.to_thread(call_record.open_calls):
            if row.linkedid in channels and row.linkedid not in self.ctx.channels:
                legs = [c for c in channels if c.startswith(f"{row.linkedid}-")]
                self.start(CallFlow.resume(self.ctx, row, legs[0] if legs else None), legs)
        for linkedid in await self.ctx.live.linkedids():
            if linkedid not in channels and linkedid not in self.ctx.channels:
                # The call ended while we were away; reconciliation completes its row.
                await self.ctx.live.remove(linkedid)

    def start(self, flow: CallFlow, other_channels: list[str] | None = None) -> None:
        for channel in [flow.inbound, *(other_channels or [])]:
            self.ctx.channels[channel] = flow
        task = asyncio.create_task(flow.run(), name=f"call-{flow.linkedid}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def dispatch(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "StasisStart":
            channel = event["channel"]
            args = event.get("args", [])
            owner = self.ctx.channels.get(channel["id"])
            if args[:1] == ["dialed"] or owner is not None:
                if owner is not None:
                    owner.deliver(event)  # an outbound leg we created: its call waits for this
                return
            did, caller = [*args, "", ""][:2]
            self.start(CallFlow(self.ctx, channel, did, caller))
            return
        channel_id = channel_of(event)
        flow = self.ctx.channels.get(channel_id) if channel_id else None
        if flow is not None:
            flow.deliver(event)

    async def watch_commands(self) -> None:
        """Apply what the API asks for (core.pbx_commands) while calls run: no restart needed."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(TRUNK_CHANGES, HANGUP_REQUESTS)
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                try:
                    if message["channel"] == TRUNK_CHANGES:
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
        watcher = asyncio.create_task(self.watch_commands())
        try:
            async for event in self.ctx.ari.events(self.on_connect, self.stop):
                self.dispatch(event)
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            if self.tasks:
                await asyncio.wait(self.tasks, timeout=10)


async def main() -> None:
    from pbx_bridge.routing import EngineRouter

    s = get_settings()
    redis = aioredis.Redis.from_url(s.redis_url, decode_responses=True)
    ari = Ari("127.0.0.1", s.asterisk_http_port, s.ari_user, s.ari_password, s.stasis_app)
    bridge = Bridge(ari, LiveStore(redis), EngineRouter(), redis)
    # Rating also releases the call's credit hold, in the same transaction as the debit.
    bridge.ctx.after_hangup = lambda linkedid: jobs.enqueue(jobs.RATE_CALL, linkedid)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, bridge.stop.set)
    try:
        await bridge.run()
    finally:
        await ari.close()
        await redis.aclose()
