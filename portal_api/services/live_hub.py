"""The live feed's fan-out: one subscription to the bridge's changes per portal process, whatever
the number of open sockets.

A socket used to hold its own subscription and, on every change anywhere, read its scope's calls
from Redis, look their names up and serialise them, then read its unread count and balance: with
200 sockets a change cost 200 of each. Now each change (or each burst of changes, taken together)
is read once: the scopes it concerns (every admin, the call's customer, its buyer) that have a
socket open are read in one Redis round trip for the sets and one for the calls, named in one
lookup, serialised once per scope and message shape, and handed to the scope's sockets as text.
Sockets of other tenants are not even woken. The unread counts and balances of the customers
concerned are then read once per customer (not once per socket), at most once a second, apart
from the pushes.
"""

import asyncio
import logging
import weakref
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, cast

import orjson
from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError
from redis.exceptions import RedisError
from sqlmodel import Session

from core.calls.live import LiveCall, LiveChange, read_call, read_change
from core.infra import names
from core.infra.db import get_engine
from core.infra.redis_client import async_redis, pubsub_channel
from portal_api.auth.principal import Principal
from portal_api.schemas.users import Balance
from portal_api.services import accounts
from portal_api.services.live_feed import NamedLiveCall, scope_key, with_names
from portal_api.services.notifications import unread_count

log = logging.getLogger(__name__)

REFRESHED = {"notifications", "balance"}  # what a socket may want read again after its scope's change
# Counts and balances are read again at most this often (s), whatever the rate of changes: the
# money of a call comes with its rating, after the call, not with its live changes.
REFRESH_GAP = 1.0


@dataclass(frozen=True)
class Refreshed:
    """A customer's unread count and balance as read after a change of theirs (None: not read)."""

    unread: int | None
    balance: Balance | None


class Feed(Protocol):
    """An open socket as the hub sees it (portal_api.routers.live.LiveSocket)."""

    principal: Principal
    wants: set[str]  # "calls", "count", "notifications", "balance"

    def push(self, text: str) -> None:
        """The scope's calls changed: `text` is the whole message to send (it replaces any not sent yet)."""

    def refresh(self, refreshed: Refreshed) -> None:
        """The caller's count and balance as read after a change in its scope."""

    def fail(self, error: BaseException) -> None:
        """The hub lost Redis: the socket ends (the portal reconnects and gets a fresh snapshot)."""


def message(calls: list[LiveCall] | list[NamedLiveCall], wants: set[str]) -> str | None:
    """What a socket wanting `wants` is sent when its calls are `calls` (spec §7), as JSON text."""
    body: dict[str, object] = {}
    if "calls" in wants:
        body["livecalls"] = calls
    if "count" in wants:
        body["callsCount"] = {"all_calls": len(calls)}
    return orjson.dumps(body).decode() if body else None


def concerned_scopes(changes: Iterable[LiveChange]) -> set[str]:
    """The scope keys (live_feed.scope_key) whose calls `changes` touch: every admin's, and the
    call's customer's and buyer's."""
    scopes = {names.LIVE_CALLS}
    for change in changes:
        if change["user_id"]:
            scopes.add(names.live_user_key(change["user_id"]))
        if change["buyer_id"]:
            scopes.add(names.live_buyer_key(change["buyer_id"]))
    return scopes


class LiveHub:
    """The sockets of one event loop and the subscription that feeds them (while any is open)."""

    def __init__(self) -> None:
        self.redis = async_redis()  # shared by the sockets for their own snapshots too
        self.feeds: set[Feed] = set()
        self._listening: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        # Sockets whose counts and balances are to be read again, and the task reading them: off
        # the listener's way, so the database never delays the next change's push.
        self._stale: set[Feed] = set()
        self._refreshing: asyncio.Task[None] | None = None

    async def join(self, feed: Feed) -> None:
        """From now on `feed` is pushed every change in its scope (returns once subscribed; raises
        RedisError when Redis cannot be subscribed to)."""
        self.feeds.add(feed)
        if self._listening is None:
            self._subscribed = asyncio.Event()
            self._listening = asyncio.create_task(self._listen(self._subscribed))
        listening, subscribed = self._listening, asyncio.create_task(self._subscribed.wait())
        await asyncio.wait([listening, subscribed], return_when=asyncio.FIRST_COMPLETED)
        subscribed.cancel()
        if not self._subscribed.is_set():  # it ended at once (Redis away): the socket cannot be fed
            self.feeds.discard(feed)
            raise RedisError("the live feed could not subscribe")

    def leave(self, feed: Feed) -> None:
        self.feeds.discard(feed)
        if not self.feeds and self._listening is not None:
            self._listening.cancel()
            self._listening = None

    async def _listen(self, subscribed: asyncio.Event) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(pubsub_channel(names.LIVE_EVENTS))
            subscribed.set()
            while True:
                first = await pubsub.get_message(timeout=None)
                if first is None:
                    continue
                # What else came meanwhile joins it: a burst of changes is read and sent once.
                batch = [first]
                while (more := await pubsub.get_message(timeout=0)) is not None:
                    batch.append(more)
                await self._fan_out(list(_changes(batch)))
        except Exception as exc:  # Redis (or the database naming the calls) failed
            log.error("live feed lost its subscription: %r", exc)
            for feed in list(self.feeds):
                feed.fail(exc)
            self.feeds.clear()
        finally:
            if self._listening is asyncio.current_task():
                self._listening = None
            await pubsub.aclose()

    async def _fan_out(self, changes: list[LiveChange]) -> None:
        scopes = concerned_scopes(changes)
        audience: dict[str, list[Feed]] = defaultdict(list)
        for feed in self.feeds:
            if (scope := scope_key(feed.principal)) in scopes:
                audience[scope].append(feed)
        if not audience:
            return
        calls, members = await self._calls(list(audience))
        named: dict[str, NamedLiveCall] = {}
        if calls and any("calls" in feed.wants for feeds in audience.values() for feed in feeds):
            named = dict(zip(calls, await run_in_threadpool(with_names, list(calls.values())), strict=True))
        for scope, feeds in audience.items():
            texts: dict[frozenset[str], str | None] = {}  # per message shape: serialised once
            for feed in feeds:
                shape = frozenset(feed.wants & {"calls", "count"})
                if shape not in texts:
                    ids = members[scope]
                    texts[shape] = message(
                        [named[i] for i in ids] if "calls" in shape else [calls[i] for i in ids], feed.wants
                    )
                if (text := texts[shape]) is not None:
                    feed.push(text)
        self._stale.update(f for feeds in audience.values() for f in feeds if f.wants & REFRESHED)
        if self._stale and self._refreshing is None:
            self._refreshing = asyncio.create_task(self._refresh())

    async def _calls(self, scopes: list[str]) -> tuple[dict[str, LiveCall], dict[str, list[str]]]:
        """The live calls of `scopes` by linkedid, and each scope's linkedids (sorted): two round
        trips for all of them."""
        pipe = self.redis.pipeline(transaction=False)
        for scope in scopes:
            pipe.smembers(scope)
        members = cast(list[set[str]], await pipe.execute())  # decode_responses
        every = sorted(set().union(*members))
        raw = (
            cast(list[str | None], await self.redis.mget([names.live_call_key(i) for i in every]))
            if every
            else []
        )
        calls: dict[str, LiveCall] = {}
        for linkedid, found in zip(every, raw, strict=True):
            if found:
                try:
                    calls[linkedid] = read_call(found)
                except ValidationError as exc:  # another version's entry: not shown
                    log.warning("live call %s unreadable: %s", linkedid, exc)
        scoped = {
            scope: [i for i in sorted(ids) if i in calls] for scope, ids in zip(scopes, members, strict=True)
        }
        return calls, scoped

    async def _refresh(self) -> None:
        """The unread counts and balances the stale sockets show, read once per person."""
        try:
            while self._stale:
                feeds, self._stale = [f for f in self._stale if f in self.feeds], set()
                if not feeds:
                    break
                people = {feed.principal.user.id or 0: feed.principal for feed in feeds}
                read = await run_in_threadpool(_counts_and_balances, people, feeds)
                for feed in feeds:
                    feed.refresh(read[feed.principal.user.id or 0])
                await asyncio.sleep(REFRESH_GAP)  # what goes stale meanwhile is read together
        except Exception as exc:  # the database away: the sockets' own polls read them later
            log.warning("live feed could not read counts and balances: %r", exc)
        finally:
            self._refreshing = None


def _counts_and_balances(people: dict[int, Principal], feeds: list[Feed]) -> dict[int, Refreshed]:
    wanting = {
        kind: {feed.principal.user.id or 0 for feed in feeds if kind in feed.wants} for kind in REFRESHED
    }
    with Session(get_engine()) as session:
        return {
            user_id: Refreshed(
                unread=unread_count(session, user_id) if user_id in wanting["notifications"] else None,
                balance=accounts.balance(session, principal, user_id)
                if user_id in wanting["balance"]
                else None,
            )
            for user_id, principal in people.items()
        }


def _changes(messages: list[dict[str, object]]) -> Iterable[LiveChange]:
    for each in messages:
        try:
            yield read_change(cast(str, each["data"]))
        except ValidationError as exc:  # not a change this version publishes: skipped
            log.warning("live change unreadable: %s", exc)


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LiveHub]" = weakref.WeakKeyDictionary()


def hub() -> LiveHub:
    """The running event loop's hub (one per portal process; tests may run several loops)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = LiveHub()
    return _hubs[loop]
