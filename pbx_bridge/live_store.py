"""Writes live-call state to Redis (layout in core.live) and publishes every change."""

import json
from typing import Any

import redis.asyncio as aioredis

from core import live
from core.redis_client import pubsub_channel


class LiveStore:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client

    async def put(self, call: dict[str, Any]) -> None:
        """Create or update a live call; index it for its customer, buyer and target."""
        linkedid = call["linkedid"]
        previous = await self.get(linkedid)
        pipe = self.redis.pipeline()
        pipe.set(live.call_key(linkedid), json.dumps(call))
        pipe.sadd(live.ALL_CALLS, linkedid)
        if call.get("user_id"):
            pipe.sadd(live.user_key(call["user_id"]), linkedid)
        old_target, old_buyer = (previous or {}).get("target_id"), (previous or {}).get("buyer_id")
        if old_target and old_target != call.get("target_id"):
            pipe.srem(live.target_key(old_target), linkedid)
        if old_buyer and old_buyer != call.get("buyer_id"):
            pipe.srem(live.buyer_key(old_buyer), linkedid)
        if call.get("target_id"):
            pipe.sadd(live.target_key(call["target_id"]), linkedid)
        if call.get("buyer_id"):
            pipe.sadd(live.buyer_key(call["buyer_id"]), linkedid)
        pipe.publish(pubsub_channel(live.LIVE_CHANNEL), json.dumps(_scope(call, "update")))
        await pipe.execute()

    async def get(self, linkedid: str) -> dict[str, Any] | None:
        raw = await self.redis.get(live.call_key(linkedid))
        return json.loads(raw) if raw else None

    async def remove(self, linkedid: str) -> None:
        call = await self.get(linkedid)
        pipe = self.redis.pipeline()
        pipe.delete(live.call_key(linkedid))
        pipe.srem(live.ALL_CALLS, linkedid)
        if call:
            for key, field in (
                (live.user_key, "user_id"),
                (live.buyer_key, "buyer_id"),
                (live.target_key, "target_id"),
            ):
                if call.get(field):
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
