"""The Redis connection shared by a process."""

from functools import lru_cache

import redis
from redis.connection import parse_url

from core.settings import get_settings


@lru_cache
def get_redis() -> redis.Redis:
    url = get_settings().redis_url
    if not url:
        raise RuntimeError("REDIS_URL is not set; start the product with `make run` or set it")
    return redis.Redis.from_url(url, decode_responses=True)


@lru_cache
def pubsub_channel(name: str) -> str:
    """`name` as a pub/sub channel of this product's Redis database.

    Redis delivers a message to every subscriber on the server, whatever database each selected:
    two deployments (or test runs) sharing one server would otherwise hear each other's hang-ups
    and trunk changes.
    """
    return f"{name}@db{parse_url(get_settings().redis_url).get('db', 0)}"
