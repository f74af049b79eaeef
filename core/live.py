"""Live calls in Redis: where the bridge writes them and everyone else reads them.

One key per live call (`names.live_call_key`, the call's JSON: core.calls.CallState.live) and index
sets per scope, so the admin, a customer, a buyer and a target's concurrency count each read one
set. Every change is published on `names.LIVE_EVENTS` (through `core.redis_client.pubsub_channel`).
"""

import redis

from core import names

# A live call is indexed under each of these when it has the field: (key of the set, field).
INDEXES = (
    (names.live_user_key, "user_id"),
    (names.live_buyer_key, "buyer_id"),
    (names.live_target_key, "target_id"),
    (names.live_trunk_key, "trunk_id"),
)


def target_count(client: redis.Redis, target_id: int) -> int:
    """Calls ringing or connected at a target now: what its concurrency cap is checked against."""
    return int(client.scard(names.live_target_key(target_id)))


def trunk_count(client: redis.Redis, trunk_id: int) -> int:
    """Calls dialling out or connected through a trunk now: what its channel limit is checked against."""
    return int(client.scard(names.live_trunk_key(trunk_id)))
