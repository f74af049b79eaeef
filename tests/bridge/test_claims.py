"""A slot within a target's concurrency cap (and a trunk's channel limit) is claimed in one Redis
script: every node's bridge shares the sets, so no two calls can both take the last slot; a claim
made while Redis restarts waits for it."""

import asyncio
from pathlib import Path

import pytest

from core.infra.names import buyer_reached_key, live_target_key, live_trunk_key
from core.infra.redis_client import async_redis
from core.infra.settings import get_settings
from core.routing import Candidate
from pbx_bridge.call.claims import Claims
from pbx_bridge.live_store import LiveStore
from testkit.processes import redis_server


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


async def test_a_held_key_is_taken_by_one_call_with_its_slots_all_or_none_and_let_go_by_its_holder() -> None:
    """The buyer a repeat caller reaches (names.buyer_reached_key) is held in the same script as
    the target's slots: of ten calls of one caller on two bridges, one holds it; a call refused by
    a full set holds nothing; only the holder lets it go."""
    client = async_redis()
    try:
        nodes = [LiveStore(client), LiveStore(client)]
        buyer, target = buyer_reached_key(4, "+447911000001", 9), live_target_key(21)
        calls = [f"n{i % 2 + 1}-{i}" for i in range(10)]
        results = await asyncio.gather(
            *(nodes[i % 2].claim(call, [(target, 5)], held=[(buyer, 60)]) for i, call in enumerate(calls))
        )
        assert sorted(r is None for r in results) == [False] * 9 + [True]
        assert set(results) == {None, 1}  # refused by the held key (after the one set)
        holder = calls[results.index(None)]
        assert await client.get(buyer) == holder and 0 < await client.ttl(buyer) <= 60
        assert await client.smembers(target) == {holder}  # the refused joined nothing
        assert await nodes[0].claim(holder, [(target, 5)], held=[(buyer, 60)]) is None  # its own: kept
        other = buyer_reached_key(4, "+447911000001", 10)
        assert await nodes[1].claim("n2-99", [(live_target_key(22), 0)], held=[(other, 60)]) == 0
        assert await client.exists(other) == 0  # the full set refused: the buyer was not held
        await nodes[1].release_held(buyer, "n2-99")  # not its holder: nothing changes
        assert await client.get(buyer) == holder
        await nodes[0].release_held(buyer, holder)
        assert await nodes[1].claim("n2-99", [], held=[(buyer, 60)]) is None  # free again
    finally:
        await client.aclose()


async def test_a_claim_made_while_redis_restarts_waits_for_it_and_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis killed and started again (empty) a moment later: a call claiming its slot meanwhile is
    not refused; its claim waits for Redis and is taken once it is back."""
    with redis_server(tmp_path) as redis:
        monkeypatch.setenv("REDIS_URL", redis.url)
        get_settings.cache_clear()
        client = async_redis()
        try:
            claims = Claims(LiveStore(client), "n1-1")
            candidate = Candidate(1, 1, "Desk", "+14155550100", 1, 1, None, concurrency_cap=3)
            assert await claims.take(candidate) is None  # a connection in the pool, soon stale
            redis.stop()
            restarted = asyncio.create_task(asyncio.to_thread(redis.start))
            second = Claims(LiveStore(client), "n1-2")
            assert await second.take(candidate) is None
            await restarted
            assert await client.smembers(live_target_key(1)) == {"n1-2"}  # Redis came back empty
        finally:
            await client.aclose()
            monkeypatch.undo()
            get_settings.cache_clear()
