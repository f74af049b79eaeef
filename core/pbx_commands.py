"""What the API asks of the PBX bridge, over Redis pub/sub (no service imports another)."""

import json

from core import names
from core.redis_client import get_redis, pubsub_channel


def announce_trunk_change(trunk_id: int) -> None:
    """A trunk was created, changed or deleted: the bridge re-pushes it into Asterisk."""
    get_redis().publish(pubsub_channel(names.TRUNK_CHANGES), trunk_id)


def request_hangup(linkedid: str, by_user_id: int) -> None:
    message = json.dumps({"linkedid": linkedid, "by": by_user_id})
    get_redis().publish(pubsub_channel(names.HANGUP_REQUESTS), message)
