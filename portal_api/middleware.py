"""What every HTTP response gets: security headers, one access-log line per request, and its time
in the latency histogram by route.

The UI's policy allows only this origin's scripts; styles may be inline because MUI (emotion)
injects `<style>` elements and React writes `style` attributes at run time. Recordings and CSV
exports are `blob:` URLs. The API docs pages load Swagger UI / ReDoc from their CDN with an
inline script, so they get a policy of their own. No page may be framed (clickjacking).
HSTS goes only on answers to HTTPS requests (the connection's scheme, or a TRUSTED_PROXIES proxy's
X-Forwarded-Proto: `client_scheme`): browsers ignore it over plain HTTP anyway, and no header a
client sends decides it.
"""

import logging
import time

from prometheus_client import Histogram
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.infra import logs
from core.infra.metrics import PREFIX
from portal_api.client_address import client_address, client_scheme

log = logging.getLogger("portal_api.access")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "media-src 'self' blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
_CDN = "https://cdn.jsdelivr.net"
DOCS_CSP = (
    f"default-src 'self'; script-src 'self' 'unsafe-inline' {_CDN}; "
    f"style-src 'self' 'unsafe-inline' {_CDN} https://fonts.googleapis.com; "
    "font-src 'self' data: https://fonts.gstatic.com; img-src 'self' data: https:; worker-src 'self' blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")


def security_headers(path: str) -> dict[str, str]:
    return {
        "Content-Security-Policy": DOCS_CSP if path in DOCS_PATHS else CSP,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    }


class SecurityHeaders:
    """Adds the headers above to every HTTP response that does not set them itself, and
    `Strict-Transport-Security` to HTTPS ones when `hsts_seconds` is above 0."""

    def __init__(self, app: ASGIApp, hsts_seconds: int = 0) -> None:
        self.app = app
        self.hsts = f"max-age={hsts_seconds}; includeSubDomains" if hsts_seconds > 0 else ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope["path"])
        if self.hsts and client_scheme(scope) == "https":
            extra["Strict-Transport-Security"] = self.hsts

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


HTTP_REQUEST = Histogram(
    f"{PREFIX}http_request_seconds",
    "Time to answer an HTTP request, by route (the path template), method and status",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


def route_of(scope: Scope) -> str:
    """The path template the router matched (`/api/user/id/{id}`), so the label takes a bounded
    set of values whatever paths clients ask for; `unmatched` when none did (a 404)."""
    route = scope.get("route")
    template, pattern = getattr(route, "path_format", None), getattr(route, "path_regex", None)
    if not isinstance(template, str) or pattern is None:
        return "unmatched"
    # FastAPI puts the route as declared in the scope, without the prefix its router was included
    # under (/api): that prefix is the part of the path before what the route's own pattern matches.
    path: str = scope["path"]
    for start, char in enumerate(path):
        if char == "/" and pattern.match(path[start:]):
            return path[:start] + template
    return template


class AccessLog:
    """One line per request: client, method, path, status, milliseconds. Never the query string,
    where a WebSocket carries its token, nor any header. The same timing goes into HTTP_REQUEST
    for HTTP requests (WebSockets, open for minutes, are not)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # Uvicorn configures only its own loggers (and `make run` turns its access log off, since
        # it prints query strings): this log writes its lines itself, to stderr, once.
        if not log.handlers:
            log.addHandler(logs.handler())
            log.setLevel(logging.INFO)
            log.propagate = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500  # until the application answers otherwise

        async def send_and_note(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 500:
                status = 403  # refused before it was accepted
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            method = scope.get("method", "WS")
            took = time.perf_counter() - start
            log.info("%s %s %s %d %.1fms", client_address(scope), method, scope["path"], status, took * 1000)
            if scope["type"] == "http":
                HTTP_REQUEST.labels(route_of(scope), method, str(status)).observe(took)
