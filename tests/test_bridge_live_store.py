"""The live view with Redis away: a call's updates never fail the call (a connected call used to be
cut when Redis died), and once Redis is back, empty, the next update shows calls again."""

from pathlib import Path

import redis.asyncio as aioredis

from pbx_bridge.live_store import LiveStore
from testkit.processes import redis_server


async def test_updates_while_redis_is_away_do_not_raise_and_the_view_heals(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        client = aioredis.Redis.from_url(server.url, decode_responses=True)
        store = LiveStore(client)
        ringing = {"linkedid": "1700000000.1", "user_id": 7, "state": "ringing"}
        await store.put(ringing)
        assert await store.linkedids() == {"1700000000.1"}
        server.stop()
        await store.put({**ringing, "state": "connected"})
        await store.remove("1700000000.1")
        server.start()  # without persistence: back empty, its scripts gone
        await store.put({"linkedid": "1700000000.2", "user_id": 7, "state": "ringing"})
        assert await store.linkedids() == {"1700000000.2"}
        await client.aclose()
