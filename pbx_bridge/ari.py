"""The one gateway to Asterisk's REST Interface: one websocket carries the app's events and, since
Asterisk 22.4, its REST requests and their answers too ("ARI REST over WebSocket").

Why not HTTP: at tens of calls a second the bridge spent about half its time in the HTTP client
(a request per ARI call, each with connection-pool bookkeeping); a websocket message costs a
fraction of that and keeps a call's requests and events in the order Asterisk handled them.

`events()` reconnects with exponential backoff whenever the websocket drops (Asterisk restarted,
network blip); opening it registers the Stasis app again, and `on_connect` runs after each
(re)connection so the caller can resync live channels and re-push dynamic configuration.
Requests made while it is down fail at once, as HTTP requests to a stopped Asterisk would.
"""

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import quote, urlencode

import websockets

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 10.0
_CLOSED = object()  # the reader's last word to the event stream: the websocket is gone


async def _close_when(stop: asyncio.Event, ws: websockets.ClientConnection) -> None:
    await stop.wait()
    await ws.close()


class AriError(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"ARI answered {status}: {text[:200]}")
        self.status = status


def _query(params: dict[str, Any]) -> str:
    clean = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in params.items() if v is not None}
    return f"?{urlencode(clean)}" if clean else ""


class Ari:
    def __init__(self, host: str, port: int, user: str, password: str, app: str) -> None:
        self.app = app
        self._ws_url = (
            f"ws://{host}:{port}/ari/events?app={quote(app)}&subscribeAll=false"
            f"&api_key={quote(user, safe='')}:{quote(password, safe='')}"
        )
        self._ws: websockets.ClientConnection | None = None
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)

    async def request(self, method: str, path: str, json_body: Any = None, **params: Any) -> Any:
        message: dict[str, Any] = {
            "type": "RESTRequest",
            "request_id": str(next(self._ids)),
            "method": method,
            "uri": path.lstrip("/") + _query(params),
        }
        if json_body is not None:
            message.update(content_type="application/json", message_body=json.dumps(json_body))
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                answer = await self._send(message)
        except TimeoutError:
            raise AriError(504, f"no answer to {method} {path} within {REQUEST_TIMEOUT:.0f} s") from None
        status = int(answer["status_code"])
        body = answer.get("message_body") or ""
        if status >= 400:
            raise AriError(status, body or answer.get("reason_phrase", ""))
        return json.loads(body) if body else None

    async def _send(self, message: dict[str, Any]) -> dict[str, Any]:
        if self._ws is None:
            raise AriError(503, "not connected to ARI")
        answer = asyncio.get_running_loop().create_future()
        self._pending[message["request_id"]] = answer
        try:
            await self._ws.send(json.dumps(message))
            return await answer
        except websockets.WebSocketException as exc:
            if answer.done():
                answer.exception()  # failed by the reader meanwhile: retrieved, so asyncio won't warn
            raise AriError(503, f"ARI connection lost: {exc}") from exc
        finally:
            self._pending.pop(message["request_id"], None)

    async def _read(self, ws: websockets.ClientConnection, events: asyncio.Queue[Any]) -> None:
        """Answers to their requests, events to the stream, until the websocket closes."""
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "RESTResponse":
                    answer = self._pending.get(message.get("request_id", ""))
                    if answer is not None and not answer.done():
                        answer.set_result(message)
                else:
                    events.put_nowait(message)
        except websockets.WebSocketException as exc:
            log.debug("ARI websocket closed: %s", exc)
        finally:
            self._ws = None
            for answer in self._pending.values():
                if not answer.done():
                    answer.set_exception(AriError(503, "ARI connection lost before the answer"))
            events.put_nowait(_CLOSED)

    async def events(
        self, on_connect: Callable[[], Awaitable[None]], stop: asyncio.Event
    ) -> AsyncIterator[dict[str, Any]]:
        """Every event for the app, across reconnections, until `stop` is set."""
        delay = 0.2
        while not stop.is_set():
            try:
                # A short close timeout: stopping must not wait long for a peer slow to close.
                async with websockets.connect(
                    self._ws_url, ping_interval=10, ping_timeout=10, close_timeout=1
                ) as ws:
                    log.info("ARI connected; Stasis app %s registered", self.app)
                    delay = 0.2
                    queue: asyncio.Queue[Any] = asyncio.Queue()
                    reader = asyncio.create_task(self._read(ws, queue))
                    # A stop must end the wait for the next event too: no call may be coming in.
                    closer = asyncio.create_task(_close_when(stop, ws))
                    self._ws = ws
                    try:
                        await on_connect()
                        while (event := await queue.get()) is not _CLOSED:
                            yield event
                    finally:
                        closer.cancel()
                        await ws.close()
                        await reader
            except (OSError, websockets.WebSocketException, AriError) as exc:
                log.warning("ARI connection lost (%s); retrying in %.1f s", exc, delay)
            if stop.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=delay)
            delay = min(delay * 2, 5.0)

    # The calls the bridge makes, named for what they do.

    async def answer(self, channel: str) -> None:
        await self.request("POST", f"/channels/{channel}/answer")

    async def ring(self, channel: str) -> None:
        await self.request("POST", f"/channels/{channel}/ring")

    async def hangup(self, channel: str, reason: str = "normal") -> None:
        try:
            await self.request("DELETE", f"/channels/{channel}", reason=reason)
        except AriError as exc:
            if exc.status != 404:  # already gone: that is what we wanted
                raise

    async def play(self, channel: str, media: str, playback_id: str) -> None:
        await self.request("POST", f"/channels/{channel}/play", media=media, playbackId=playback_id)

    async def play_bridge(self, bridge_id: str, media: str, playback_id: str) -> None:
        await self.request("POST", f"/bridges/{bridge_id}/play", media=media, playbackId=playback_id)

    async def create_channel(self, channel_id: str, endpoint: str, originator: str, app_args: str) -> None:
        await self.request(
            "POST",
            "/channels/create",
            endpoint=endpoint,
            app=self.app,
            appArgs=app_args,
            channelId=channel_id,
            originator=originator,
        )

    async def dial(self, channel: str, caller: str, timeout: int) -> None:
        await self.request("POST", f"/channels/{channel}/dial", caller=caller, timeout=timeout)

    async def bridge(self, bridge_id: str, channels: list[str]) -> None:
        await self.request("POST", f"/bridges/{bridge_id}", type="mixing")
        await self.request("POST", f"/bridges/{bridge_id}/addChannel", channel=",".join(channels))

    async def destroy_bridge(self, bridge_id: str) -> None:
        try:
            await self.request("DELETE", f"/bridges/{bridge_id}")
        except AriError as exc:
            if exc.status != 404:
                raise

    async def channels(self) -> list[dict[str, Any]]:
        return list(await self.request("GET", "/channels") or [])

    async def bridges(self) -> list[dict[str, Any]]:
        return list(await self.request("GET", "/bridges") or [])

    async def channel_var(self, channel: str, name: str) -> str | None:
        try:
            return (await self.request("GET", f"/channels/{channel}/variable", variable=name))["value"]
        except AriError:
            return None

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
