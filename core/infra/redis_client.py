"""The Redis connections of a process: one blocking-style client, and asyncio clients."""

from functools import lru_cache

import redis
import redis.asyncio as aioredis
from redis.connection import parse_url

from core.infra.settings import get_settings

# An asyncio client's most connections at once. Past it a command waits for a free connection
# (up to POOL_WAIT_SECONDS) instead of failing: redis-py's default pool raises "Too many
# connections" beyond 100, which 500 calls ending together reached, leaving them shown live.
ASYNC_POOL_SIZE = 32
POOL_WAIT_SECONDS = 10


def _url() -> str:
    url = get_settings().redis_url
    if not url:
        raise RuntimeError("REDIS_URL is not set; start the product with `make run` or set it")
    return url


@lru_cache
def get_redis() -> redis.Redis:
    return redis.Redis.from_url(_url(), decode_responses=True)


def async_redis() -> aioredis.Redis:
    """A new asyncio client with its own bounded, waiting pool (closed with the client)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        _url(), max_connections=ASYNC_POOL_SIZE, timeout=POOL_WAIT_SECONDS, decode_responses=True
    )
    return aioredis.Redis.from_pool(pool)


@lru_cache
def pubsub_channel(name: str) -> str:
    """`name` as a pub/sub channel of this product's Redis database.

    Redis delivers a message to every subscriber on the server, whatever database each selected:
    two deployments (or test runs) sharing one server would otherwise hear each other's hang-ups
    and trunk changes.
    """
    return f"{name}@db{parse_url(get_settings().redis_url).get('db', 0)}"
