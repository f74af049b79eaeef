"""The one gateway to Asterisk's REST Interface: HTTP calls with httpx, events over a websocket.

`events()` reconnects with exponential backoff whenever the websocket drops (Asterisk restarted,
network blip); opening it registers the Stasis app again, and `on_connect` runs after each
(re)connection so the caller can resync live channels and re-push dynamic configuration.
"""

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import quote

import httpx
import websockets

log = logging.getLogger(__name__)


async def _close_when(stop: asyncio.Event, ws: websockets.ClientConnection) -> None:
    await stop.wait()
    await ws.close()


class AriError(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"ARI answered {status}: {text[:200]}")
        self.status = status


class Ari:
    def __init__(self, host: str, port: int, user: str, password: str, app: str) -> None:
        self.app = app
        self._base = f"http://{host}:{port}/ari"
        self._ws_url = (
            f"ws://{host}:{port}/ari/events?app={quote(app)}&subscribeAll=false"
            f"&api_key={quote(user, safe='')}:{quote(password, safe='')}"
        )
        # Connections kept open for the busiest moment: a new one costs a TCP set-up here and a thread
        # in Asterisk's HTTP server (the default keeps only 20).
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        self._http = httpx.AsyncClient(base_url=self._base, auth=(user, password), timeout=10, limits=limits)

    async def close(self) -> None:
        await self._http.aclose()

    async def request(self, method: str, path: str, json_body: Any = None, **params: Any) -> Any:
        clean = {
            k: (str(v).lower() if isinstance(v, bool) else v) for k, v in params.items() if v is not None
        }
        response = await self._http.request(method, path, params=clean, json=json_body)
        if response.status_code >= 400:
            raise AriError(response.status_code, response.text)
        return response.json() if response.content else None

    async def events(
        self, on_connect: Callable[[], Awaitable[None]], stop: asyncio.Event
    ) -> AsyncIterator[dict[str, Any]]:
        """Every event for the app, across reconnections, until `stop` is set."""
        delay = 0.2
        while not stop.is_set():
            try:
                async with websockets.connect(self._ws_url, ping_interval=10, ping_timeout=10) as ws:
                    log.info("ARI connected; Stasis app %s registered", self.app)
                    delay = 0.2
                    # A stop must end the wait for the next event too: no call may be coming in.
                    closer = asyncio.create_task(_close_when(stop, ws))
                    try:
                        await on_connect()
                        async for message in ws:
                            yield json.loads(message)
                    finally:
                        closer.cancel()
            except (OSError, websockets.WebSocketException, httpx.HTTPError, AriError) as exc:
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
