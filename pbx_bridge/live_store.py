"""Writes live-call state to Redis (layout and shapes in core.calls.live, names in core.infra.names)
and publishes every change."""

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Literal, cast

import orjson
import redis.asyncio as aioredis
from pydantic import ValidationError
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, RedisError

from core.calls import live
from core.calls.live import LiveCall, LiveChange
from core.infra import names
from core.infra.redis_client import pubsub_channel
from pbx_bridge.metrics import LIVE_STORE_LAG

# Each change is one script run in Redis (one command: the call, its index sets and the publish),
# not a MULTI pipeline of up to a dozen commands whose replies the bridge had to parse one by one.
# KEYS: the call's key, the set of all calls, then ARGV[3] index sets to leave, then sets to join.
_PUT = """
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
local leave = tonumber(ARGV[3])
for i = 3, #KEYS do
  if i <= 2 + leave then redis.call('SREM', KEYS[i], ARGV[2]) else redis.call('SADD', KEYS[i], ARGV[2]) end
end
redis.call('PUBLISH', ARGV[4], ARGV[5])
"""
# KEYS: the call's key, the set of all calls, then the index sets it is in.
_REMOVE = """
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do redis.call('SREM', KEYS[i], ARGV[1]) end
redis.call('PUBLISH', ARGV[2], ARGV[3])
"""
# A slot within a target's caps and its trunk's channel limit, taken by one call on any node: the
# live-call sets (concurrency, channels), the keys a call holds alone (the buyer a repeat caller
# reaches) and the period counters (hourly, daily, monthly) are checked and joined in one script,
# so two calls can never both take the last slot, nor both reach one buyer.
# KEYS: the sets, then the held keys, then the counters. ARGV[1]: the call; ARGV[2]: how many sets;
# ARGV[3]: how many held keys; then each set's limit; then each held key's lifetime (s); then per
# counter: its seed (the calls the database counts connected this period, which starts a counter
# Redis does not have), its cap, and its lifetime (s, past the period's end).
# Returns 0 when claimed, else the position in KEYS of the first that is full (or held by another).
_CLAIM = """
local call, sets, held = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 1, sets do
  local taken = redis.call('SISMEMBER', KEYS[i], call) == 1
  if not taken and redis.call('SCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then return i end
end
for i = sets + 1, sets + held do
  local holder = redis.call('GET', KEYS[i])
  if holder and holder ~= call then return i end
end
for i = sets + held + 1, #KEYS do
  local at = 3 + sets + held + (i - sets - held - 1) * 3
  redis.call('SET', KEYS[i], ARGV[at + 1], 'NX', 'EX', ARGV[at + 3])
  if tonumber(redis.call('GET', KEYS[i])) >= tonumber(ARGV[at + 2]) then return i end
end
for i = 1, sets do redis.call('SADD', KEYS[i], call) end
for i = sets + 1, sets + held do redis.call('SET', KEYS[i], call, 'EX', ARGV[3 + i]) end
for i = sets + held + 1, #KEYS do redis.call('INCR', KEYS[i]) end
return 0
"""
# The period slots of a call that did not connect, given back (a counter gone with its period stays gone).
_UNCLAIM = """
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('DECR', KEYS[i]) end
end
"""

# KEYS[1]: a repeat-caller key; ARGV[1]: the call, ARGV[2]: for how long (s). Returns the call that
# holds it, nil when this one does (now or already).
_HOLD_CALLER = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return nil end
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return nil end
return holder
"""
# KEYS[1]: a key a call holds alone (a repeat caller, a buyer it reaches); ARGV[1]: the call that may
# hold it. Deleted only if that call does.
_RELEASE_HELD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
"""


@dataclass(frozen=True)
class Counted:
    """A period cap's counter as a claim takes it (names.cap_count_key)."""

    key: str
    seed: int  # connected this period, per the database
    cap: int
    ttl: int  # seconds


log = logging.getLogger(__name__)

Arg = str | int | bytes  # a script's argument, as redis-py sends it


class LiveStore:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._put = client.register_script(_PUT)
        self._remove = client.register_script(_REMOVE)
        self._claim = client.register_script(_CLAIM)
        self._unclaim = client.register_script(_UNCLAIM)
        self._release_held = client.register_script(_RELEASE_HELD)
        self._hold_caller = client.register_script(_HOLD_CALLER)
        self._channel = pubsub_channel(names.LIVE_EVENTS)
        # What this process last wrote per call (None: nothing yet): saves reading it back first.
        self._written: dict[str, LiveCall | None] = {}
        self._waiting: list[tuple[AsyncScript, list[str], list[Arg], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        self._oldest = 0.0  # when the oldest change waiting to be sent was made (monotonic)

    async def _run(self, script: AsyncScript, keys: list[str], args: list[Arg]) -> None:
        """Run `script` in Redis, in one pipeline with the changes other calls are waiting to send:
        a round trip and redis-py's per-command bookkeeping for each change were a fifth of the
        bridge's work. Returns once Redis has run it, as a lone command would."""
        done = asyncio.get_running_loop().create_future()
        if not self._waiting:
            self._oldest = time.monotonic()
        self._waiting.append((script, keys, args, done))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send())
        await done

    async def _send(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting, made = self._waiting, [], self._oldest
                pipe = self.redis.pipeline(transaction=False)
                for script, keys, args, _ in batch:
                    pipe.evalsha(script.sha, len(keys), *keys, *args)
                try:
                    results = await pipe.execute(raise_on_error=False)
                except Exception as exc:  # Redis away: every change of the batch fails
                    results = [exc] * len(batch)
                LIVE_STORE_LAG.set(time.monotonic() - made)
                loaded: dict[str, Exception | None] = {}  # per script: loaded again, or why not
                for (script, keys, args, done), result in zip(batch, results, strict=True):
                    if isinstance(result, NoScriptError):  # Redis restarted: load it once, send again
                        if script.sha not in loaded:
                            loaded[script.sha] = await self._load(script)
                        if loaded[script.sha] is None:
                            self._waiting.append((script, keys, args, done))
                            continue
                        result = loaded[script.sha]
                    if done.done():
                        continue  # its caller stopped waiting
                    elif isinstance(result, Exception):
                        done.set_exception(result)
                    else:
                        done.set_result(None)
        finally:
            self._sender = None

    async def _load(self, script: AsyncScript) -> Exception | None:
        try:
            await self.redis.script_load(script.script)
        except Exception as exc:
            return exc
        return None

    def starting(self, linkedid: str) -> None:
        """A call this process begins: none of it is in Redis yet, so nothing is read before its
        first write, and a call that ends without being shown costs no Redis work at all."""
        self._written[linkedid] = None

    async def put(self, call: LiveCall) -> None:
        """Create or update a live call; index it for its customer, buyer, target and trunk (a
        failover moves it from the last target's and trunk's sets to the next's). With Redis away
        the call goes on unshown (the live view is not worth a call): the next update, once Redis is
        back, shows it again."""
        try:
            await self._put_call(call)
        except RedisError as exc:
            log.warning("live view of call %s not updated (Redis: %s)", call["linkedid"], exc)

    async def _put_call(self, call: LiveCall) -> None:
        linkedid = call["linkedid"]
        previous = self._written[linkedid] if linkedid in self._written else await self.get(linkedid)
        leave = [
            key(before)
            for key, field in live.INDEXES
            if previous is not None and (before := previous[field]) and before != call[field]
        ]
        join = [key(value) for key, field in live.INDEXES if (value := call[field])]
        await self._run(
            self._put,
            keys=[names.live_call_key(linkedid), names.LIVE_CALLS, *leave, *join],
            args=[
                orjson.dumps(call),
                linkedid,
                len(leave),
                self._channel,
                orjson.dumps(_change(linkedid, call, "update")),
            ],
        )
        self._written[linkedid] = call.copy()

    async def claim(
        self,
        linkedid: str,
        limits: list[tuple[str, int]],
        counted: list[Counted] | None = None,
        held: list[tuple[str, int]] | None = None,
    ) -> int | None:
        """Join the live-call sets of `limits` (set key, limit), hold the keys of `held` (key, for
        how many seconds) that no other call holds, and count the call in `counted` if each has
        room, all or none; None when claimed, else the position of the first that is full (sets
        first, then held keys, then counters). The call's next `put` joins the same sets (it is
        already in) and `remove` leaves them; `unclaim` gives the counters back, `release_held` a
        held key."""
        counted, held = counted or [], held or []
        if not limits and not counted and not held:
            return None
        keys = [key for key, _ in limits] + [key for key, _ in held] + [c.key for c in counted]
        args: list[Arg] = [linkedid, len(limits), len(held), *(cap for _, cap in limits)]
        args += [seconds for _, seconds in held]
        for c in counted:
            args += [c.seed, c.cap, c.ttl]
        full = int(await self._claim(keys=keys, args=args))
        return full - 1 if full else None

    async def hold_caller(self, key: str, linkedid: str, seconds: int) -> str | None:
        """Hold a repeat-caller key for the call (for `seconds`); None when held, else the call
        that holds it."""
        holder = await self._hold_caller(keys=[key], args=[linkedid, seconds])
        return None if holder is None else str(holder)

    async def release_held(self, key: str, linkedid: str) -> None:
        """Give the key back, if the call still holds it."""
        await self._release_held(keys=[key], args=[linkedid])

    async def unclaim(self, counted: list[Counted]) -> None:
        """Give back the period slots of a call that did not connect to the target it claimed."""
        if counted:
            await self._unclaim(keys=[c.key for c in counted], args=[])

    async def get(self, linkedid: str) -> LiveCall | None:
        raw = await self.redis.get(names.live_call_key(linkedid))
        if not raw:
            return None
        try:
            return live.read_call(raw)
        except ValidationError as exc:  # not a live call (another version's): as if not shown
            log.warning("live call %s unreadable: %s", linkedid, exc)
            return None

    async def remove(self, linkedid: str) -> None:
        """The call off the live view; with Redis away it is left to the reconciliation's tidy-up
        (or went with Redis's data)."""
        try:
            await self._remove_call(linkedid)
        except RedisError as exc:
            log.warning("live call %s not removed (Redis: %s)", linkedid, exc)

    async def _remove_call(self, linkedid: str) -> None:
        if linkedid in self._written:
            call = self._written.pop(linkedid)
            if call is None:  # never shown
                return
        else:
            call = await self.get(linkedid)
        indexes = [key(each) for key, field in live.INDEXES if call is not None and (each := call[field])]
        await self._run(
            self._remove,
            keys=[names.live_call_key(linkedid), names.LIVE_CALLS, *indexes],
            args=[linkedid, self._channel, orjson.dumps(_change(linkedid, call, "end"))],
        )

    async def linkedids(self) -> set[str]:
        return cast(set[str], await self.redis.smembers(names.LIVE_CALLS))  # decode_responses


def _change(linkedid: str, call: LiveCall | None, event: Literal["update", "end"]) -> LiveChange:
    """What subscribers need to know who may see the change."""
    return {
        "event": event,
        "linkedid": linkedid,
        "user_id": call["user_id"] if call else None,
        "buyer_id": call["buyer_id"] if call else None,
    }
