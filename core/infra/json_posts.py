"""JSON POSTs to customers' URLs over kept-alive HTTP/1.1 connections: the auction's pings and posts
(docs/bidding.md, "Cost"). asyncio's transports and httptools' C parser, with none of httpx's
layers: a request costs a small fraction of httpx's CPU, and that CPU is what ten auctions at once
queued for on the bridge's core.

Only what a bid needs: a POST with a JSON body; the answer's status and body (by Content-Length,
chunked, or up to the close), at most MAX_BODY bytes; keep-alive; TLS verified against the URL's
name. Every connection goes to a checked address of the URL's host (core.infra.outbound: Blocked
otherwise); no proxy, no redirect followed. The caller bounds the time (asyncio.timeout): a request
cut short closes its connection, so a late answer never lands on the next request.
"""

import asyncio
import socket
import ssl
import time
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httptools
import httpx

from core.infra.outbound import resolve_async
from core.infra.settings import Network

MAX_BODY = 64 * 1024  # a bid is a few dozen bytes
IDLE_FOR = 5.0  # seconds an idle connection is reused (httpx's keep-alive expiry)
IDLE_KEPT = 50  # idle connections kept per origin


class RequestFailed(Exception):
    """No HTTP answer; the message says why as "ConnectError: …" (the trail's words)."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes

    @property
    def is_success(self) -> bool:
        return 200 <= self.status < 300


@dataclass(frozen=True)
class _Target:
    """A URL as the client sends to it: made once per URL, not per request."""

    https: bool
    host: str
    port: int
    origin: str
    head: bytes  # the request line and headers, up to Content-Length's value


def _target(url: str, user_agent: str) -> _Target:
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise RequestFailed(f"InvalidURL: {exc}") from None
    if parts.scheme not in ("http", "https") or not host:
        raise RequestFailed(f"InvalidURL: {url[:80]}")
    https = parts.scheme == "https"
    port = port or (443 if https else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise RequestFailed(f"InvalidURL: {exc}") from None
    netloc = (f"[{name}]" if ":" in name else name) + (f":{parts.port}" if parts.port else "")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {netloc}\r\nUser-Agent: {user_agent}\r\nAccept: */*\r\n"
        "Content-Type: application/json\r\nContent-Length: "
    )
    try:
        request = head.encode("ascii")
    except UnicodeError:
        raise RequestFailed(f"InvalidURL: {url[:80]}") from None
    return _Target(https, host, port, f"{parts.scheme}://{netloc}".lower(), request)


class _Connection(asyncio.Protocol):
    """One connection: a request written, its answer parsed as the bytes arrive."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.socket: socket.socket | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.answer: asyncio.Future[Answer] | None = None
        self.body = bytearray()
        self.status = 0
        self.keep_alive = False
        self.idle_since = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # a stream's, as create_connection makes
        self.socket = transport.get_extra_info("socket")

    def data_received(self, data: bytes) -> None:
        if self.answer is None or self.answer.done():
            self.close()  # bytes nobody asked for: the connection can't be trusted with a request
            return
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(f"RemoteProtocolError: {exc}")

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.answer is not None and not self.answer.done():
            if self.status and not self.keep_alive and not self.parser.should_keep_alive():
                self.answer.set_result(Answer(self.status, bytes(self.body)))  # the body ends at the close
            else:
                self._fail("RemoteProtocolError: the server closed the connection without an answer")

    # httptools' callbacks
    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()

    def on_body(self, body: bytes) -> None:
        self.body += body
        if len(self.body) > MAX_BODY:
            self._fail(f"RemoteProtocolError: an answer over {MAX_BODY} bytes")

    def on_message_complete(self) -> None:
        self.keep_alive = self.parser.should_keep_alive()
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(Answer(self.status, bytes(self.body)))

    def _fail(self, why: str) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(RequestFailed(why))
        self.close()

    @property
    def usable(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def send(self, request: bytes) -> "asyncio.Future[Answer]":
        assert self.transport is not None
        self.body, self.status, self.keep_alive = bytearray(), 0, False
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        if self.socket is not None:
            # ACK the answer's first segment at once: a server that writes its headers and body
            # apart (Python's http.server does) holds the body back by Nagle's algorithm until that
            # ACK, which Linux otherwise delays by 40 ms: 40 ms a request, the ping's and the post's.
            self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        return self.answer

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            self.transport = None


class JsonPoster:
    """POSTs JSON with connections kept alive per origin (scheme, host, port), on the event loop
    that uses it. `allow`: the internal networks URLs may reach besides public addresses."""

    def __init__(
        self, allow: tuple[Network, ...], user_agent: str, tls: ssl.SSLContext | None = None
    ) -> None:
        self._allow = allow
        self._user_agent = user_agent
        self._tls = tls  # made on the first https URL when not given: making one costs milliseconds
        self._closed = False
        self._targets: dict[str, _Target] = {}
        self._idle: dict[str, list[_Connection]] = {}

    async def post(self, url: str, body: bytes) -> Answer:
        """`body` POSTed to `url`: the answer whatever its status; RequestFailed when there is none,
        outbound.Blocked when the URL's host may not be reached."""
        target = self._targets.get(url)
        if target is None:
            target = self._targets[url] = _target(url, self._user_agent)
        connection = self._reuse(target.origin) or await self._connect(target)
        try:
            answer = await connection.send(target.head + b"%d\r\n\r\n" % len(body) + body)
        except BaseException:
            connection.close()  # cut short (the deadline) or failed: its late answer goes nowhere
            raise
        if connection.keep_alive and connection.usable and not self._closed:
            idle = self._idle.setdefault(target.origin, [])
            if len(idle) < IDLE_KEPT:
                connection.idle_since = time.monotonic()
                idle.append(connection)
                return answer
        connection.close()
        return answer

    def _reuse(self, origin: str) -> _Connection | None:
        idle = self._idle.get(origin)
        now = time.monotonic()
        while idle:
            connection = idle.pop()
            if connection.usable and now - connection.idle_since < IDLE_FOR:
                return connection
            connection.close()
        return None

    async def _connect(self, target: _Target) -> _Connection:
        try:
            addresses = await resolve_async(target.host, target.port, self._allow)
        except (OSError, UnicodeError) as exc:
            raise RequestFailed(f"ConnectError: {target.host} does not resolve: {exc}") from None
        tls: ssl.SSLContext | None = None
        if target.https:
            tls = self._tls = self._tls or httpx.create_ssl_context()  # certifi's CAs, as httpx verifies
        loop = asyncio.get_running_loop()
        failure: OSError | None = None
        for address in addresses:  # the checked addresses only, in the resolver's order
            try:
                _, connection = await loop.create_connection(
                    _Connection,
                    str(address),
                    target.port,
                    ssl=tls,
                    server_hostname=target.host if tls else None,
                )
                return connection
            except OSError as exc:  # refused, unreachable, a certificate not for this name
                failure = exc
        raise RequestFailed(f"ConnectError: {failure}")

    def close(self) -> None:
        """Closes the idle connections; one still in use closes when its answer is in."""
        self._closed = True
        idle, self._idle = self._idle, {}
        for connections in idle.values():
            for connection in connections:
                connection.close()
