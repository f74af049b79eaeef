"""The Redis live counts the bridge maintains, read through RedisLiveCounts."""

from core.infra.names import live_target_key
from core.infra.redis_client import get_redis
from core.routing import RedisLiveCounts
from testkit.rows import desk, line, order, route, target_reasons


def test_redis_live_counts_feed_the_concurrency_cap() -> None:
    ln = line()
    busy = desk(ln, "Busy desk", concurrency_cap=2)
    desk(ln, "Quiet desk", priority=2, concurrency_cap=2)
    redis = get_redis()
    live = RedisLiveCounts(redis)
    redis.sadd(live_target_key(busy.id or 0), "1700000001.1")
    assert live.target(busy.id or 0) == 1
    assert target_reasons(route(live=live))["Busy desk"] == ("candidate", "available (concurrency cap 1/2)")
    redis.sadd(live_target_key(busy.id or 0), "1700000002.1")
    selection = route(live=live)
    assert order(selection) == ["Quiet desk"]
    assert target_reasons(selection)["Busy desk"] == ("skipped", "concurrency cap 2/2")
