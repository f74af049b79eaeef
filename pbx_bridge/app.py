"""The composition root: gateway, stores, router and the event loop that feeds each call."""

import asyncio
import contextlib
import logging
import signal
from typing import Any

import redis.asyncio as aioredis

from core.settings import get_settings
from pbx_bridge import trunks
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
        for linkedid in await self.ctx.live.linkedids():
            if linkedid not in channels and linkedid not in self.ctx.channels:
                # The call ended while we were away; reconciliation completes its row.
                await self.ctx.live.remove(linkedid)

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
            flow = CallFlow(self.ctx, channel, did, caller)
            self.ctx.channels[flow.inbound] = flow
            task = asyncio.create_task(flow.run(), name=f"call-{flow.linkedid}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            return
        channel_id = channel_of(event)
        flow = self.ctx.channels.get(channel_id) if channel_id else None
        if flow is not None:
            flow.deliver(event)

    async def watch_trunks(self) -> None:
        """Apply trunk changes the API announces, without restarting anything."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(trunks.TRUNK_CHANGES)
        try:
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                trunk_id = int(message["data"])
                found = await asyncio.to_thread(trunks.load, trunk_id)
                try:
                    if found:
                        await trunks.push(self.ctx.ari, found[0])
                    else:
                        await trunks.remove(self.ctx.ari, trunk_id)
                except Exception:
                    log.exception("could not apply trunk %s", trunk_id)
        finally:
            await pubsub.aclose()

    async def run(self) -> None:
        watcher = asyncio.create_task(self.watch_trunks())
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
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, bridge.stop.set)
    try:
        await bridge.run()
    finally:
        await ari.close()
        await redis.aclose()
