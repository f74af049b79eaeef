"""The bridge's gateway to Asterisk's REST Interface, built on core.pbx.ari (the address, the errors,
the query spelling, HTTP): websockets carry the app's events and, since Asterisk 22.4, its REST
requests and their answers too ("ARI REST over WebSocket"); only the rare whole-list reads go over
HTTP (`core.pbx.ari.AriHttp`).

Why not HTTP: at tens of calls a second the bridge spent about half its time in the HTTP client
(a request per ARI call, each with connection-pool bookkeeping); a websocket message costs a
fraction of that and keeps a call's requests and events in the order Asterisk handled them.

`events()` reconnects with exponential backoff whenever the websocket drops (Asterisk restarted,
network blip); opening it registers the Stasis app again, and `on_connect` runs after each
(re)connection so the caller can resync live channels and re-push dynamic configuration.
Requests made while it is down fail at once, as HTTP requests to a stopped Asterisk would.
Messages are (de)serialised with orjson: the events, a whole channel snapshot each, were the
bridge's largest JSON work.
"""

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import NotRequired, TypedDict
from urllib.parse import quote

import orjson
import websockets
from sqlalchemy.exc import SQLAlchemyError

from core.pbx.ari import REQUEST_TIMEOUT, AriAddress, AriError, AriHttp, query
from pbx_bridge.events import Channel, Event
from pbx_bridge.metrics import ARI_CONNECTED, ARI_RECONNECTS

log = logging.getLogger(__name__)

# Websockets carrying requests beside the event socket. Asterisk answers one socket's requests one
# after another, each waiting for the channel it acts on: with 500 calls up, a single socket queued
# them for seconds (setup p95 8 s, calls connected without audio); spread over a few, they overlap
# as HTTP requests did, still at a websocket message's cost.
REQUEST_LANES = 3
# What the websockets carry besides events, as ARI spells it ("ARI REST over WebSocket").


class RestRequest(TypedDict):
    type: str  # "RESTRequest"
    request_id: str
    method: str
    uri: str  # the path and query, without the leading /
    content_type: NotRequired[str]
    message_body: NotRequired[str]


class RestResponse(TypedDict):
    type: str  # "RESTResponse"
    request_id: str
    status_code: int
    reason_phrase: str
    message_body: NotRequired[str]  # JSON, when the answer has a body


async def _close_all_when(
    waits: list[asyncio.Task[object]], lanes: "list[_Lane]", queue: asyncio.Queue[Event | None]
) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for lane in lanes:
        await lane.ws.close()
    queue.put_nowait(None)  # the reader's last word to the event stream: the websocket is gone


class _Lane:
    """One websocket's requests in flight, answered by `request_id`."""

    def __init__(self, ws: websockets.ClientConnection) -> None:
        self.ws = ws
        self.pending: dict[str, asyncio.Future[RestResponse]] = {}

    async def send(self, message: RestRequest) -> RestResponse:
        answer: asyncio.Future[RestResponse] = asyncio.get_running_loop().create_future()
        self.pending[message["request_id"]] = answer
        try:
            await self.ws.send(orjson.dumps(message).decode())  # a text frame, as Asterisk reads
            return await answer
        except websockets.WebSocketException as exc:
            if answer.done():
                answer.exception()  # failed by the reader meanwhile: retrieved, so asyncio won't warn
            raise AriError(503, f"ARI connection lost: {exc}") from exc
        finally:
            self.pending.pop(message["request_id"], None)

    async def read(self, events: asyncio.Queue[Event | None] | None) -> None:
        """Answers to their requests, anything else to `events`, until the websocket closes; then
        the requests still waiting fail."""
        try:
            async for raw in self.ws:
                message = orjson.loads(raw)
                if message.get("type") == "RESTResponse":
                    answer = self.pending.get(message.get("request_id", ""))
                    if answer is not None and not answer.done():
                        answer.set_result(message)
                elif events is not None:
                    events.put_nowait(message)
        except websockets.WebSocketException as exc:
            log.debug("ARI websocket closed: %s", exc)
        finally:
            for answer in self.pending.values():
                if not answer.done():
                    answer.set_exception(AriError(503, "ARI connection lost before the answer"))


class Ari:
    def __init__(self, address: Callable[[], AriAddress], app: str) -> None:
        """`address` is asked again before each connection: a node's login changes when its
        Asterisk is provisioned again (core.pbx.ari.AriAddress.from_settings)."""
        self.app = app
        self._address = address
        self.address = address()
        self._http = AriHttp(self.address)
        self._lanes: list[_Lane] = []
        self._ids = itertools.count(1)

    async def _readdress(self) -> None:
        try:
            self.address = await asyncio.to_thread(self._address)
        except SQLAlchemyError as exc:  # the database away: the login last read is likely still good
            log.warning("could not read the ARI login again (%s); using the last one", exc)
            return
        self._http = AriHttp(self.address)

    @property
    def connected(self) -> bool:
        """Whether the websockets to Asterisk are open now (the bridge's readiness)."""
        return bool(self._lanes)

    async def request(self, method: str, path: str, json_body: object = None, **params: str) -> object:
        """ARI's answer's body (JSON), None when it has none; raises AriError for an error status."""
        message: RestRequest = {
            "type": "RESTRequest",
            "request_id": str(next(self._ids)),
            "method": method,
            "uri": path.lstrip("/") + query(params),
        }
        if json_body is not None:
            message["content_type"] = "application/json"
            message["message_body"] = orjson.dumps(json_body).decode()
        if not self._lanes:
            raise AriError(503, "not connected to ARI")
        lane = min(self._lanes, key=lambda each: len(each.pending))
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                answer = await lane.send(message)
        except TimeoutError:
            raise AriError(504, f"no answer to {method} {path} within {REQUEST_TIMEOUT:.0f} s") from None
        status = int(answer["status_code"])
        body = answer.get("message_body") or ""
        if status >= 400:
            raise AriError(status, body or answer.get("reason_phrase", ""))
        return orjson.loads(body) if body else None

    def _connect(self, app: str) -> websockets.connect:
        # A short close timeout: stopping must not wait long for a peer slow to close.
        url = self.address.events_url(app)
        return websockets.connect(url, ping_interval=10, ping_timeout=10, close_timeout=1)

    async def events(
        self, on_connect: Callable[[], Awaitable[None]], stop: asyncio.Event
    ) -> AsyncIterator[Event]:
        """Every event for the app, across reconnections, until `stop` is set."""
        delay = 0.2
        while not stop.is_set():
            try:
                await self._readdress()
                async with contextlib.AsyncExitStack() as stack:
                    main = _Lane(await stack.enter_async_context(self._connect(self.app)))
                    # Request lanes register apps of their own: a second socket for the same app
                    # would take its events over (Asterisk replaces the registration).
                    extra = [
                        _Lane(await stack.enter_async_context(self._connect(f"{self.app}-requests-{n}")))
                        for n in range(1, REQUEST_LANES)
                    ]
                    log.info("ARI connected; Stasis app %s registered", self.app)
                    async for event in self._serve(main, extra, on_connect, stop):
                        yield event
                    delay = 0.2
            except (OSError, websockets.WebSocketException, AriError) as exc:
                log.warning("ARI connection lost (%s); retrying in %.1f s", exc, delay)
            if stop.is_set():
                return
            ARI_RECONNECTS.inc()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=delay)
            delay = min(delay * 2, 5.0)

    async def _serve(
        self,
        main: _Lane,
        extra: list[_Lane],
        on_connect: Callable[[], Awaitable[None]],
        stop: asyncio.Event,
    ) -> AsyncIterator[Event]:
        """One connection's events, until any of its sockets closes or `stop` is set: all are
        closed then, so a reconnection starts from a clean slate."""
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        lanes = [main, *extra]
        readers = [asyncio.create_task(lane.read(queue if lane is main else None)) for lane in lanes]
        ended = asyncio.create_task(stop.wait())
        # Whichever ends first (a socket, or the stop) ends the event stream too.
        closer = asyncio.create_task(_close_all_when([ended, *readers], lanes, queue))
        self._lanes = lanes
        ARI_CONNECTED.set(1)
        try:
            await on_connect()
            while (event := await queue.get()) is not None:
                yield event
        finally:
            self._lanes = []
            ARI_CONNECTED.set(0)
            ended.cancel()
            await closer
            await asyncio.gather(*readers)

    # The calls the bridge makes, named for what they do.

    async def receive_only(self, event_types: tuple[str, ...]) -> None:
        """Asterisk sends the app only these events from now on."""
        # Answers to requests pass the app's filter too: without them allowed, even this request's
        # own answer never comes.
        allowed = ("RESTResponse", *event_types)
        body = {"allowed": [{"type": kind} for kind in allowed], "disallowed": []}
        await self.request("PUT", f"/applications/{quote(self.app)}/eventFilter", json_body=body)

    async def continue_in_dialplan(self, channel: str, context: str, variables: dict[str, str]) -> None:
        """Set `variables` on a channel in the app, then send it on to `context`'s `s` extension."""
        for name, value in variables.items():
            await self.request("POST", f"/channels/{channel}/variable", variable=name, value=value)
        await self.request("POST", f"/channels/{channel}/continue", context=context)

    async def answer(self, channel: str) -> None:
        await self.request("POST", f"/channels/{channel}/answer")

    async def follow(self, channel: str) -> None:
        """Keep sending the app the channel's events (those its filter allows) once it has left
        Stasis for the dialplan: Asterisk stops at StasisEnd unless the app subscribed to it."""
        await self.request(
            "POST", f"/applications/{quote(self.app)}/subscription", eventSource=f"channel:{channel}"
        )

    async def hangup(self, channel: str, reason: str = "normal") -> None:
        try:
            await self.request("DELETE", f"/channels/{channel}", reason=reason)
        except AriError as exc:
            if exc.status != 404:  # already gone: that is what we wanted
                raise

    async def play(self, channel: str, media: str, playback_id: str) -> None:
        await self.request("POST", f"/channels/{channel}/play", media=media, playbackId=playback_id)

    async def channels(self) -> list[Channel]:
        """Every channel, over HTTP, not the websocket: Asterisk 22.10 crashed (a stack overflow in
        res_http_websocket) answering GET /channels over the socket with 1,200 channels up."""
        return list(await self._http.get_json("/channels") or [])

    async def startup_time(self) -> str:
        """When Asterisk started (it changes when Asterisk restarts, and only then)."""
        info = await self._http.get_json("/asterisk/info?only=status") or {}
        return str(info.get("status", {}).get("startup_time", ""))

    async def channel_var(self, channel: str, name: str) -> str | None:
        try:
            reply = await self.request("GET", f"/channels/{channel}/variable", variable=name)
        except AriError:
            return None
        value = reply.get("value") if isinstance(reply, dict) else None
        return value if isinstance(value, str) else None

    async def put_config(self, object_type: str, object_id: str, fields: dict[str, str]) -> None:
        """Create or replace a PJSIP sorcery object (ARI dynamic configuration)."""
        body = {"fields": [{"attribute": k, "value": v} for k, v in fields.items()]}
        await self.request(
            "PUT", f"/asterisk/config/dynamic/res_pjsip/{object_type}/{object_id}", json_body=body
        )

    async def delete_config(self, object_type: str, object_id: str) -> None:
        try:
            await self.request("DELETE", f"/asterisk/config/dynamic/res_pjsip/{object_type}/{object_id}")
        except AriError as exc:
            if exc.status != 404:
                raise
