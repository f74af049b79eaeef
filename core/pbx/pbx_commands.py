"""What the API asks of the PBX bridge, over Redis pub/sub (no service imports another): the
messages are spelled here once, for the API that publishes them and the bridge that reads them."""

import json
import logging

import redis
from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing's TypedDict only from Python 3.12

from core.infra import names
from core.infra.redis_client import get_redis, pubsub_channel

log = logging.getLogger(__name__)


class HangupRequest(TypedDict):
    """`names.HANGUP_REQUESTS`: hang up a live call, asked by a portal user."""

    linkedid: str
    by: int  # the user who asked


_HANGUP = TypeAdapter(HangupRequest)


def announce_trunk_change(trunk_id: int) -> None:
    """A trunk was created, changed or deleted (and committed): the bridge re-pushes it into
    Asterisk at once. Only the fast path: with Redis away the change still stands, and the bridge's
    resync from PostgreSQL (pbx_bridge.trunks.TrunkSync) pushes it within TRUNK_RESYNC_SECONDS."""
    try:
        get_redis().publish(pubsub_channel(names.TRUNK_CHANGES), trunk_id)
    except redis.RedisError as exc:
        log.warning("trunk %s saved; the bridge finds it at its next resync (Redis: %s)", trunk_id, exc)


def changed_trunk(data: str) -> int:
    """The trunk a `names.TRUNK_CHANGES` message names (its id, as published)."""
    return int(data)


def request_hangup(linkedid: str, by_user_id: int) -> None:
    message: HangupRequest = {"linkedid": linkedid, "by": by_user_id}
    get_redis().publish(pubsub_channel(names.HANGUP_REQUESTS), json.dumps(message))


def hangup_request(data: str) -> HangupRequest:
    """A `names.HANGUP_REQUESTS` message as published; raises pydantic's ValidationError when it
    is not one."""
    return _HANGUP.validate_json(data)
