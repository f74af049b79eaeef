"""What the API asks of the PBX bridge, over Redis pub/sub (no service imports another)."""

import json
import logging

import redis

from core import names
from core.redis_client import get_redis, pubsub_channel

log = logging.getLogger(__name__)


def announce_trunk_change(trunk_id: int) -> None:
    """A trunk was created, changed or deleted (and committed): the bridge re-pushes it into
    Asterisk at once. Only the fast path: with Redis away the change still stands, and the bridge's
    resync from PostgreSQL (pbx_bridge.trunks.TrunkSync) pushes it within TRUNK_RESYNC_SECONDS."""
    try:
        get_redis().publish(pubsub_channel(names.TRUNK_CHANGES), trunk_id)
    except redis.RedisError as exc:
        log.warning("trunk %s saved; the bridge finds it at its next resync (Redis: %s)", trunk_id, exc)


def request_hangup(linkedid: str, by_user_id: int) -> None:
    message = json.dumps({"linkedid": linkedid, "by": by_user_id})
    get_redis().publish(pubsub_channel(names.HANGUP_REQUESTS), message)
