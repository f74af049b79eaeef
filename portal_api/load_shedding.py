"""A bounded queue in front of the API: past its capacity a portal process answers 503 with
Retry-After at once instead of taking every request in and answering all of them late.

Each process serves at most `concurrency` API requests at once; up to `queue` more wait for a
place, each at most `wait_seconds`; any further request, or one that waited its time out, is
refused before the application reads it. Without this an overloaded process accepted everything,
its queue grew without bound and every request timed out (issue 38: 150 req/s offered, 15
answered, p50 31 s). Only `/api/` requests count: health probes, metrics and the UI's files are
cheap and must answer while the API is busy, and the live WebSocket is not an HTTP request.
"""

import asyncio
import json

from starlette.types import ASGIApp, Receive, Scope, Send

API_PATHS = "/api/"
RETRY_AFTER_SECONDS = 1
BUSY_MESSAGE = "The server is busy; try again in a moment."


class LoadShedding:
    def __init__(self, app: ASGIApp, concurrency: int, queue: int, wait_seconds: float) -> None:
        self.app = app
        self.queue = queue
        self.wait_seconds = wait_seconds
        self._places = asyncio.Semaphore(concurrency)
        self._waiting = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(API_PATHS):
            await self.app(scope, receive, send)
            return
        if self._places.locked() and self._waiting >= self.queue:
            await _refuse(send)
            return
        self._waiting += 1
        try:
            async with asyncio.timeout(self.wait_seconds):
                await self._places.acquire()
        except TimeoutError:
            await _refuse(send)
            return
        finally:
            self._waiting -= 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._places.release()


async def _refuse(send: Send) -> None:
    body = json.dumps({"message": BUSY_MESSAGE}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
