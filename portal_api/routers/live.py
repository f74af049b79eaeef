"""Live calls: the WebSocket feed of spec §7, the same snapshot over plain HTTP, and hanging up a
live call."""

import asyncio
import logging
from collections.abc import Sequence

import redis.asyncio as aioredis
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from redis.exceptions import RedisError

from core.calls.live import LiveCall
from core.infra.redis_client import async_redis
from core.infra.settings import get_settings
from core.values.errors import DomainError
from portal_api.auth.principal import Principal, PrincipalDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.common import StrictBody
from portal_api.schemas.users import Balance
from portal_api.services import live as live_calls
from portal_api.services import live_feed, live_hub
from portal_api.services.live_feed import NamedLiveCall
from portal_api.services.live_hub import Refreshed

router = APIRouter(tags=["live calls"])
log = logging.getLogger(__name__)

CALL_ACTIONS = {"GET_LIVE_CALLS_BY_ADMIN", "GET_LIVE_CALLS_BY_CUSTOMER"}
COUNT_ACTIONS = {"GET_CALLS_COUNT_FOR_ADMIN", "GET_CALLS_COUNT_FOR_COMPANY"}
NOTIFICATION_ACTIONS = {"GET_NOTIFICATION_COUNT"}
# Not in spec §7: a customer's header follows its balance (a call rated, a fee, a top-up).
BALANCE_ACTIONS = {"GET_BALANCE"}
NOTIFICATION_POLL_SECONDS = 15


class TokenEnded(Exception):
    """The socket's token stopped working (signed out, suspended, password changed, impersonation
    over): the socket closes with 4401."""


class LiveSocket:
    """One connected portal: answers its actions and pushes every change in its scope, while its
    token works (checked on every message and every `LIVE_TOKEN_CHECK_SECONDS`). The changes come
    from the process's hub (services.live_hub), already read and serialised for its scope."""

    def __init__(self, ws: WebSocket, token: str, principal: Principal, client: aioredis.Redis) -> None:
        self.ws, self.token, self.principal, self.redis = ws, token, principal, client
        self.wants: set[str] = set()
        self.unread: int | None = None
        self.balance: Balance | None = None
        # What the hub handed over since the last send: only the newest of each matters.
        self._text: str | None = None
        self._refreshed: Refreshed | None = None
        self._failure: BaseException | None = None
        self._woken = asyncio.Event()

    def push(self, text: str) -> None:
        self._text = text
        self._woken.set()

    def refresh(self, refreshed: Refreshed) -> None:
        self._refreshed = refreshed
        self._woken.set()

    def fail(self, error: BaseException) -> None:
        self._failure = error
        self._woken.set()

    async def send_calls(self) -> None:
        # The header's badge only counts: names are looked up for a socket showing the calls.
        named = "calls" in self.wants
        calls: Sequence[LiveCall] = await (
            live_feed.named_calls(self.redis, self.principal)
            if named
            else live_feed.calls(self.redis, self.principal)
        )
        if (text := live_hub.message(list(calls), self.wants)) is not None:
            await self.ws.send_text(text)

    async def send_unread(self, only_if_changed: bool = False, count: int | None = None) -> None:
        if count is None:
            count = await run_in_threadpool(live_calls.unread_for, self.principal.user.id or 0)
        if not only_if_changed or count != self.unread:
            self.unread = count
            await self.ws.send_json({"unread_notification_count": count})

    async def send_balance(self, only_if_changed: bool = False, balance: Balance | None = None) -> None:
        if balance is None:
            balance = await run_in_threadpool(live_calls.balance_for, self.principal)
        if not only_if_changed or balance != self.balance:
            self.balance = balance
            await self.ws.send_json({"balance": balance.model_dump(mode="json")})

    async def check_token(self) -> None:
        try:
            self.principal = await run_in_threadpool(live_calls.principal_for, self.token)
        except DomainError as exc:
            raise TokenEnded(exc.message) from exc

    async def watch_token(self) -> None:
        every = get_settings().live_token_check_seconds
        while True:
            await asyncio.sleep(every)
            await self.check_token()

    async def read_actions(self) -> None:
        while True:
            try:
                message = await self.ws.receive_json()
            except ValueError:
                message = None
            await self.check_token()
            if not isinstance(message, dict):
                await self.ws.send_json({"error": 'Send JSON like {"action": "GET_LIVE_CALLS_BY_ADMIN"}.'})
                continue
            action = str(message.get("action", ""))
            if action in CALL_ACTIONS | COUNT_ACTIONS:
                self.wants.add("calls" if action in CALL_ACTIONS else "count")
                await self.send_calls()
            elif action in NOTIFICATION_ACTIONS:
                self.wants.add("notifications")
                await self.send_unread()
            elif action in BALANCE_ACTIONS:
                self.wants.add("balance")
                await self.send_balance()
            else:
                await self.ws.send_json({"error": f"Unknown action {action!r}."})

    async def push_changes(self) -> None:
        while True:
            await self._woken.wait()
            self._woken.clear()
            if self._failure is not None:
                raise self._failure
            text, self._text = self._text, None
            if text is not None:
                await self.ws.send_text(text)
            refreshed, self._refreshed = self._refreshed, None
            # Read by the hub after a change in this scope (a call that ends is rated moments
            # later: the next change or poll reads it again).
            if refreshed is not None and refreshed.unread is not None:
                await self.send_unread(only_if_changed=True, count=refreshed.unread)
            if refreshed is not None and refreshed.balance is not None:
                await self.send_balance(only_if_changed=True, balance=refreshed.balance)

    async def poll(self) -> None:
        """What moves without a live change (a notification, a top-up), read every little while."""
        while True:
            await asyncio.sleep(NOTIFICATION_POLL_SECONDS)
            if "notifications" in self.wants:
                await self.send_unread(only_if_changed=True)
            if "balance" in self.wants:
                await self.send_balance(only_if_changed=True)


class LiveOut(BaseModel):
    """The live calls in the caller's scope, as the WebSocket's snapshot has them."""

    livecalls: list[NamedLiveCall]
    callsCount: dict[str, int]  # the WebSocket's spelling (spec §7)


@router.get("/live", summary="The live calls the caller may see")
async def live_now(principal: PrincipalDep) -> Envelope[LiveOut]:
    """What the WebSocket's snapshot says, for a script that wants no socket."""
    client = async_redis()
    try:
        calls = await live_feed.named_calls(client, principal)
    finally:
        await client.aclose()
    return ok(LiveOut(livecalls=calls, callsCount={"all_calls": len(calls)}))


# The browser's way to send its token without a URL or a header it cannot set: two subprotocols,
# `callroute` and `bearer.<token>`; the answer names only `callroute` (docs/security.md).
SUBPROTOCOL = "callroute"
BEARER_PROTOCOL = "bearer."


def socket_token(ws: WebSocket) -> str:
    """The token a live socket authenticates with: a `bearer.<token>` subprotocol, an
    `Authorization: Bearer` header, or (older clients; never logged) a `?token=` query parameter."""
    for offered in ws.scope.get("subprotocols", []):
        if offered.startswith(BEARER_PROTOCOL):
            return str(offered[len(BEARER_PROTOCOL) :])
    scheme, _, credentials = ws.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        return credentials.strip()
    return ws.query_params.get("token", "")


@router.websocket("/ws")
async def live_socket(ws: WebSocket) -> None:
    """The live feed; authenticates with the API token (socket_token)."""
    token = socket_token(ws)
    offered = SUBPROTOCOL in ws.scope.get("subprotocols", [])
    # Accept first, so the portal can read why a bad token is refused (4401 and the reason).
    await ws.accept(subprotocol=SUBPROTOCOL if offered else None)
    try:
        principal = await run_in_threadpool(live_calls.principal_for, token)
    except DomainError as exc:
        await ws.close(code=4401, reason=exc.message[:120])
        return
    feeds = live_hub.hub()
    feed = LiveSocket(ws, token, principal, feeds.redis)
    try:
        await feeds.join(feed)
    except RedisError as exc:
        log.error("live socket cannot be fed: %r", exc)
        return
    jobs = (feed.read_actions(), feed.push_changes(), feed.poll(), feed.watch_token())
    tasks = [asyncio.create_task(job) for job in jobs]
    try:
        # Any of them ending (the portal went away, Redis failed, the token ended) ends the socket.
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        feeds.leave(feed)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        error = task.exception()
        if isinstance(error, TokenEnded):
            await ws.close(code=4401, reason=str(error)[:120])
        elif error is not None and not isinstance(error, WebSocketDisconnect):
            log.error("live socket failed: %r", error)


class HangUpIn(StrictBody):
    linkedid: str = Field(min_length=1, max_length=64, description="The live call's `linkedid`")


class HangUpOut(BaseModel):
    linkedid: str
    ended: bool


@router.post("/report/callHangUp", summary="Hang up a live call the caller may see")
async def hang_up(body: HangUpIn, principal: PrincipalDep) -> Envelope[HangUpOut]:
    if await live_calls.hang_up(principal, body.linkedid):
        return ok(HangUpOut(linkedid=body.linkedid, ended=True), "Call hung up.")
    return ok(HangUpOut(linkedid=body.linkedid, ended=False), "Hang-up requested; the call is ending.")
