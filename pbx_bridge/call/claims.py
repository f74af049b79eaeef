"""A call's claims on what every node shares (pbx_bridge.live_store): a slot within the caps of the
target it rings and its trunk's channel limit, the repeat-caller key of its campaign, and, where the
campaign sends repeat callers to other buyers only, the buyer of the target it rings. What a call
that connected to no buyer holds is given back (`release`). A Redis restarting does not refuse a
call: a claim is tried again for up to CLAIM_WAIT_SECONDS (`_patiently`)."""

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.infra.names import buyer_reached_key, cap_count_key, live_target_key, live_trunk_key
from core.routing import Candidate
from pbx_bridge.live_store import Counted, LiveStore

log = logging.getLogger(__name__)

_COUNTER_MARGIN = 3600  # a period counter outlives its period by this long (s): clocks differ
# How long a claim waits for Redis to come back (a restart takes a second or two) before the call
# fails as it does with Redis away: well within a carrier's patience for an answer.
CLAIM_WAIT_SECONDS = 10.0
_FIRST_PAUSE, _LONGEST_PAUSE = 0.05, 1.0


T = TypeVar("T")


async def _patiently(attempt: Callable[[], Awaitable[T]], what: str) -> T:
    """`attempt`, tried again while Redis can't be reached, for up to CLAIM_WAIT_SECONDS. A claim
    whose answer was lost as Redis went may count its period slots twice (never more than its cap:
    at worst a slot stays taken until the period ends); the sets and the caller key are idempotent."""
    deadline = time.monotonic() + CLAIM_WAIT_SECONDS
    pause = _FIRST_PAUSE
    while True:
        try:
            return await attempt()
        except (RedisConnectionError, RedisTimeoutError) as exc:  # BusyLoadingError included: a restart
            if time.monotonic() + pause > deadline:
                raise
            log.warning("%s: Redis away (%s); trying again in %.2f s", what, exc, pause)
            await asyncio.sleep(pause)  # a backoff for Redis, not a wait for a condition in a test
            pause = min(pause * 2, _LONGEST_PAUSE)


class Claims:
    def __init__(self, live: LiveStore, linkedid: str) -> None:
        self.live, self.linkedid = live, linkedid
        self.counted: list[Counted] = []  # the period cap slots of the target claimed last
        self.caller_key: str | None = None  # the repeat-caller key held (names.duplicate_key)
        # With a campaign that sends repeat callers to other buyers: (campaign, caller, window s).
        self.buyers_of: tuple[int, str, int] | None = None
        self.buyer_key: str | None = None  # the buyer held for the target claimed last

    def keep_buyers(self, campaign_id: int, caller: str, seconds: int) -> None:
        """Each target claimed from now on also holds its buyer for the caller, for `seconds`: a
        parallel call of the caller, on any node, can't reach the same buyer."""
        self.buyers_of = (campaign_id, caller, seconds)

    async def take(self, candidate: Candidate) -> str | None:
        """A slot in the target's caps and its trunk's channel limit; None when taken, else why the
        target is full. The period slots are given back unless the call connects to this target
        (`give_back`)."""
        limits: list[tuple[str, int]] = []
        why: list[str] = []
        if candidate.concurrency_cap is not None:
            cap = candidate.concurrency_cap
            limits.append((live_target_key(candidate.target_id), cap))
            why.append(f"concurrency cap {cap}/{cap}")
        if candidate.trunk is not None and candidate.trunk.max_channels is not None:
            most, trunk = candidate.trunk.max_channels, candidate.trunk
            limits.append((live_trunk_key(trunk.id), most))
            why.append(f"trunk '{trunk.name}' channels {most}/{most}")
        now = datetime.now(UTC)
        counted = [
            Counted(
                cap_count_key(candidate.target_id, use.label, use.start.isoformat()),
                use.used,
                use.cap,
                math.ceil((use.end - now).total_seconds()) + _COUNTER_MARGIN,
            )
            for use in candidate.period_caps
        ]
        held: list[tuple[str, int]] = []
        if self.buyers_of is not None:
            campaign_id, caller, seconds = self.buyers_of
            held.append((buyer_reached_key(campaign_id, caller, candidate.buyer_id), seconds))
            why.append(f"buyer {candidate.buyer_id} reached by caller {caller}")
        why += [f"{use.label} cap {use.cap}/{use.cap}" for use in candidate.period_caps]
        full = await _patiently(
            lambda: self.live.claim(self.linkedid, limits, counted, held), f"claim of {self.linkedid}"
        )
        if full is not None:
            return f"{why[full]}, taken by a parallel call"
        self.counted = counted
        self.buyer_key = held[0][0] if held else None
        return None

    async def give_back(self) -> None:
        """The claimed target will not take the call: its period slots are free again, and its buyer
        for the caller's other calls."""
        counted, self.counted = self.counted, []
        try:
            await self.live.unclaim(counted)
        except Exception:  # Redis away: the slots stay taken until the period ends (never over a cap)
            log.exception("could not give back the cap slots of %s", self.linkedid)
        await self._let_go(self.buyer_key)
        self.buyer_key = None

    async def hold_caller(self, key: str, seconds: int) -> str | None:
        """Hold the repeat-caller key for the call; None when held, else the call holding it."""
        holder = await _patiently(
            lambda: self.live.hold_caller(key, self.linkedid, seconds), f"caller of {self.linkedid}"
        )
        if holder is None:
            self.caller_key = key
        return holder

    async def release(self) -> None:
        """A call that reached no buyer holds nothing: its period slots, and its caller (the next
        call of the same caller may be connected)."""
        await self.give_back()
        await self._let_go(self.caller_key)
        self.caller_key = None

    async def _let_go(self, key: str | None) -> None:
        if key is None:
            return
        try:
            await self.live.release_held(key, self.linkedid)
        except Exception:  # Redis away: the key is held until the window ends
            log.exception("could not let go of %s held by %s", key, self.linkedid)
