"""Live calls in Redis: where the bridge writes them and everyone else reads them.

One hash per live call (`live:call:{linkedid}`, JSON fields) and index sets per scope, so the
admin, a customer, a buyer and a target's concurrency count each read one set. Every change is
published on LIVE_CHANNEL (through `core.redis_client.pubsub_channel`).
"""

import redis

LIVE_CHANNEL = "live:events"
ALL_CALLS = "live:calls"


def call_key(linkedid: str) -> str:
    return f"live:call:{linkedid}"


def user_key(user_id: int) -> str:
    return f"live:user:{user_id}"


def buyer_key(buyer_id: int) -> str:
    return f"live:buyer:{buyer_id}"


def target_key(target_id: int) -> str:
    return f"live:target:{target_id}"


def trunk_key(trunk_id: int) -> str:
    return f"live:trunk:{trunk_id}"


# A live call is indexed under each of these when it has the field: (key of the set, field).
INDEXES = ((user_key, "user_id"), (buyer_key, "buyer_id"), (target_key, "target_id"), (trunk_key, "trunk_id"))


def target_count(client: redis.Redis, target_id: int) -> int:
    """Calls ringing or connected at a target now: what its concurrency cap is checked against."""
    return int(client.scard(target_key(target_id)))


def trunk_count(client: redis.Redis, trunk_id: int) -> int:
    """Calls dialling out or connected through a trunk now: what its channel limit is checked against."""
    return int(client.scard(trunk_key(trunk_id)))
