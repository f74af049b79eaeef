"""Live call counts per target and trunk, an input to routing (the bridge keeps them in Redis)."""

from typing import Protocol

import redis

from core.calls.live import target_count, trunk_count


class LiveCounts(Protocol):
    def target(self, target_id: int) -> int:
        """Calls ringing or connected at the target right now."""
        ...

    def trunk(self, trunk_id: int) -> int:
        """Calls dialling out or connected through the trunk right now."""
        ...


class RedisLiveCounts:
    """The live counts the bridge maintains (core.calls.live's `live:target:{id}`, `live:trunk:{id}` sets)."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def target(self, target_id: int) -> int:
        return target_count(self.client, target_id)

    def trunk(self, trunk_id: int) -> int:
        return trunk_count(self.client, trunk_id)
