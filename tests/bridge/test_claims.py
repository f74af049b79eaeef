"""A slot within a target's concurrency cap (and a trunk's channel limit) is claimed in one Redis
script: every node's bridge shares the sets, so no two calls can both take the last slot."""

import asyncio

from core.infra.names import live_target_key, live_trunk_key
from core.infra.redis_client import async_redis
from pbx_bridge.live_store import LiveStore


async def test_claims_take_the_last_slot_once_all_or_none() -> None:
    client = async_redis()
    try:
        nodes = [LiveStore(client), LiveStore(client)]  # two bridges, one Redis
        target, trunk = live_target_key(7), live_trunk_key(3)
        results = await asyncio.gather(
            *(nodes[i % 2].claim(f"n{i % 2 + 1}-{i}", [(target, 3), (trunk, 5)]) for i in range(10))
        )
        assert sorted(r is None for r in results) == [False] * 7 + [True] * 3
        assert set(results) == {None, 0}  # the target's cap was the one full
        assert await client.scard(target) == await client.scard(trunk) == 3  # the refused joined nothing
        claimed = next(f"n{i % 2 + 1}-{i}" for i, r in enumerate(results) if r is None)
        assert await nodes[0].claim(claimed, [(target, 3)]) is None  # a call holding its slot keeps it
        assert await nodes[1].claim("n2-99", [(live_target_key(8), 9), (trunk, 3)]) == 1  # trunk full
        assert await client.scard(live_target_key(8)) == 0
    finally:
        await client.aclose()
