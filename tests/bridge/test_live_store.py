"""The live view with Redis away: a call's updates never fail the call (a connected call used to be
cut when Redis died), and once Redis is back, empty, the next update shows calls again."""

from datetime import UTC, datetime
from pathlib import Path

import redis.asyncio as aioredis

from core.calls.record import CallState
from core.values.enums import LiveState
from pbx_bridge.live_store import LiveStore
from testkit.processes import redis_server


async def test_updates_while_redis_is_away_do_not_raise_and_the_view_heals(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        client = aioredis.Redis.from_url(server.url, decode_responses=True)
        store = LiveStore(client)
        call = CallState("1700000000.1", "+442071838750", "+447911123456", datetime.now(UTC), user_id=7)
        await store.put(call.live())
        assert await store.linkedids() == {"1700000000.1"}
        server.stop()
        call.live_state = LiveState.CONNECTED
        await store.put(call.live())
        await store.remove("1700000000.1")
        server.start()  # without persistence: back empty, its scripts gone
        call = CallState("1700000000.2", "+442071838750", "+447911123456", datetime.now(UTC), user_id=7)
        await store.put(call.live())
        assert await store.linkedids() == {"1700000000.2"}
        await client.aclose()
