"""The Redis connection shared by a process."""

from functools import lru_cache

import redis

from core.settings import get_settings


@lru_cache
def get_redis() -> redis.Redis:
    url = get_settings().redis_url
    if not url:
        raise RuntimeError("REDIS_URL is not set; start the product with `make run` or set it")
    return redis.Redis.from_url(url, decode_responses=True)
