"""Writes live-call state to Redis (layout in core.live) and publishes every change."""

import json
from typing import Any

import redis.asyncio as aioredis

from core import live
from core.redis_client import pubsub_channel


class LiveStore:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        # What this process last wrote per call: saves reading it back before each change.
        self._written: dict[str, dict[str, Any]] = {}

    async def put(self, call: dict[str, Any]) -> None:
        """Create or update a live call; index it for its customer, buyer, target and trunk (a
        failover moves it from the last target's and trunk's sets to the next's)."""
        linkedid = call["linkedid"]
        previous = self._written.get(linkedid) or await self.get(linkedid) or {}
        pipe = self.redis.pipeline()
        pipe.set(live.call_key(linkedid), json.dumps(call))
        pipe.sadd(live.ALL_CALLS, linkedid)
        for key, field in live.INDEXES:
            if previous.get(field) and previous[field] != call.get(field):
                pipe.srem(key(previous[field]), linkedid)
            if call.get(field):
                pipe.sadd(key(call[field]), linkedid)
        pipe.publish(pubsub_channel(live.LIVE_CHANNEL), json.dumps(_scope(call, "update")))
        await pipe.execute()
        self._written[linkedid] = dict(call)

    async def get(self, linkedid: str) -> dict[str, Any] | None:
        raw = await self.redis.get(live.call_key(linkedid))
        return json.loads(raw) if raw else None

    async def remove(self, linkedid: str) -> None:
        call = self._written.pop(linkedid, None) or await self.get(linkedid)
        pipe = self.redis.pipeline()
        pipe.delete(live.call_key(linkedid))
        pipe.srem(live.ALL_CALLS, linkedid)
        for key, field in live.INDEXES:
            if call and call.get(field):
                pipe.srem(key(call[field]), linkedid)
        pipe.publish(
            pubsub_channel(live.LIVE_CHANNEL), json.dumps(_scope(call or {"linkedid": linkedid}, "end"))
        )
        await pipe.execute()

    async def linkedids(self) -> set[str]:
        return set(await self.redis.smembers(live.ALL_CALLS))


def _scope(call: dict[str, Any], event: str) -> dict[str, Any]:
    """What subscribers need to know who may see the change."""
    return {
        "event": event,
        "linkedid": call["linkedid"],
        "user_id": call.get("user_id"),
        "buyer_id": call.get("buyer_id"),
    }
