"""Which nodes (docs/scale.md) are up, in Redis: each bridge with a node id says so every
NODE_BEAT_SECONDS under `names.node_key`, with the address of its Asterisk's ARI. The key lapses
three beats after the last one, so a node that stopped is absent from the registry. Each node's
own ARI login is in the database (`NodeLogin`, written when its Asterisk is provisioned).

The portal asks it where a recording's node is and how to log in there (core.pbx.recordings); the
bridges ask it which nodes went away for good (pbx_bridge.lost_nodes), and each its own login."""

from dataclasses import dataclass, field

import orjson
import redis.asyncio as aioredis

from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import NodeLogin

BEATS_KEPT = 3  # a node's key outlives its last beat by this many beats (one missed beat is no death)


@dataclass(frozen=True)
class NodeAddress:
    """Where the portal reaches a node's Asterisk's ARI."""

    host: str
    ari_port: int


@dataclass(frozen=True)
class AriLogin:
    """A node's own ARI user and password (asterisk_config.node_login generates them)."""

    user: str
    password: str = field(repr=False)


async def beat(client: aioredis.Redis, node_id: str, address: NodeAddress) -> None:
    """`node_id` is up now, its ARI at `address`."""
    ttl = get_settings().node_beat_seconds * BEATS_KEPT
    value = orjson.dumps({"host": address.host, "ari_port": address.ari_port})
    await client.set(names.node_key(node_id), value, px=int(ttl * 1000))


async def is_up(client: aioredis.Redis, node_id: str) -> bool:
    return bool(await client.exists(names.node_key(node_id)))


def address_of(node_id: str) -> NodeAddress | None:
    """The ARI address of `node_id` if it is up (blocking client: the portal's request threads)."""
    value = get_redis().get(names.node_key(node_id))
    if value is None:
        return None
    known = orjson.loads(value)
    return NodeAddress(str(known["host"]), int(known["ari_port"]))


def ari_login(node_id: str) -> AriLogin | None:
    """The node's ARI login as its Asterisk's last provisioning wrote it; None before the first."""
    with session_scope() as session:
        row = session.get(NodeLogin, node_id)
        return AriLogin(row.ari_user, row.ari_password) if row is not None else None
