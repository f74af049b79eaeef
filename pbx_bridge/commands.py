"""What the API asks of the bridge while calls run (core.pbx.pbx_commands, over Redis pub/sub): a trunk
changed (pushed into Asterisk again, or removed), a live call to hang up. No restart needed.

Commands are applied one after another, in the order they came, by one worker (`run`): a trunk
changed twice is pushed twice in that order.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from core.infra import names
from core.infra.redis_client import pubsub_channel
from core.pbx.nodes import owns
from core.pbx.pbx_commands import changed_trunk, hangup_request
from pbx_bridge.call.context import Context
from pbx_bridge.events import Event, EventTable, Source
from pbx_bridge.trunks import TrunkSync

log = logging.getLogger(__name__)
RESUBSCRIBE_SECONDS = 1


class Commands:
    def __init__(self, ctx: Context, trunks: TrunkSync) -> None:
        self.ctx, self.trunks = ctx, trunks
        self._work: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()

    def subscribe(self, table: EventTable) -> None:
        table.subscribe(Source.PUBSUB, names.TRUNK_CHANGES, self.trunk_changed)
        table.subscribe(Source.PUBSUB, names.HANGUP_REQUESTS, self.hangup_requested)

    def trunk_changed(self, event: Event) -> None:
        self._work.put_nowait(partial(self.trunks.apply, changed_trunk(event.get("data", ""))))

    def hangup_requested(self, event: Event) -> None:
        """Hang up a live call (`data`: its linkedid, and the user who asked)."""
        request = hangup_request(event.get("data", ""))
        linkedid = request["linkedid"]
        if not owns(self.ctx.node_id, linkedid):  # every node hears it; the call's own node acts
            return
        if (flow := self.ctx.channels.get(linkedid)) is not None:
            flow.hung_up_from_portal(request["by"])
        # The caller's channel id is the call's linkedid.
        self._work.put_nowait(partial(self.ctx.ari.hangup, linkedid))

    async def run(self) -> None:
        """Apply commands as they come, until cancelled."""
        while True:
            work = await self._work.get()
            try:
                await work()
            except Exception:
                log.exception("could not apply a command from the API")


async def listen(redis: aioredis.Redis, table: EventTable) -> None:
    """Feed the table the messages of its pub/sub channels (as published, `data`), until cancelled;
    subscribed again whenever Redis comes back (what was published meanwhile is lost: trunks are
    resynced from PostgreSQL, a hang-up is asked again)."""
    while True:
        try:
            await _listen(redis, table)
        except (RedisError, OSError) as exc:
            log.warning(
                "pub/sub lost (%s); subscribing again in %s s", type(exc).__name__, RESUBSCRIBE_SECONDS
            )
            await asyncio.sleep(RESUBSCRIBE_SECONDS)


async def _listen(redis: aioredis.Redis, table: EventTable) -> None:
    channels = {pubsub_channel(name): name for name in table.names(Source.PUBSUB)}
    pubsub = redis.pubsub()
    await pubsub.subscribe(*channels)
    try:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            name = channels[message["channel"]]
            try:
                table.dispatch(name, {"type": name, "data": str(message["data"])})
            except Exception:
                log.exception("could not apply %s %s", name, message["data"])
    finally:
        await pubsub.aclose()
