"""The auction's HTTP client (core.infra.json_posts) against a real server on loopback that answers
with the bytes each test writes: the answer's framings, connections kept alive and closed, a request
cut at its deadline leaving nothing for the next one, the guard on addresses."""

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from ipaddress import ip_network

import pytest

from core.infra.json_posts import MAX_BODY, JsonPoster, RequestFailed
from core.infra.outbound import Blocked

LOOPBACK = (ip_network("127.0.0.0/8"),)
OK = b'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{"bid": 7.5}'

# Given the request's body, the bytes to answer with (None: close without answering); then
# whether to keep the connection open.
Reply = Callable[[bytes], tuple[bytes | None, bool]]


@asynccontextmanager
async def server(reply: Reply) -> AsyncIterator[tuple[str, list[bytes], list[int]]]:
    """A server on a free port: its URL, the bodies it got, and the connection each came on."""
    bodies: list[bytes] = []
    connections: list[int] = []
    opened = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal opened
        opened += 1
        mine = opened
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                body = await reader.readexactly(length)
                bodies.append(body)
                connections.append(mine)
                answer, keep = reply(body)
                if answer is not None:
                    writer.write(answer)
                    await writer.drain()
                if not keep:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    listening = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/bid?x=1", bodies, connections
    finally:
        listening.close()


async def test_answers_in_each_framing_and_the_request_as_sent() -> None:
    framings = {
        b"length": (OK, True),
        b"chunked": (
            b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"bid\r\n7\r\n": 7.5}\r\n0\r\n\r\n',
            True,
        ),
        b"close": (b'HTTP/1.0 200 OK\r\n\r\n{"bid": 7.5}', False),
        b"empty": (b"HTTP/1.1 204 No Content\r\n\r\n", True),
        b"error": (b"HTTP/1.1 503 Busy\r\nContent-Length: 2\r\n\r\n{}", True),
    }
    async with server(lambda body: framings[body]) as (url, bodies, _):
        http = JsonPoster(LOOPBACK, "callroute-bidding")
        got = {name: await http.post(url, name) for name in framings}
        http.close()
    assert {name: (a.status, a.body) for name, a in got.items()} == {
        b"length": (200, b'{"bid": 7.5}'),
        b"chunked": (200, b'{"bid": 7.5}'),
        b"close": (200, b'{"bid": 7.5}'),
        b"empty": (204, b""),
        b"error": (503, b"{}"),
    }
    assert [got[b"error"].is_success, got[b"length"].is_success] == [False, True]
    assert bodies == list(framings)


async def test_a_connection_is_kept_alive_and_replaced_once_the_server_closes_it() -> None:
    async with server(lambda body: (OK, body != b"last on this one")) as (url, _, connections):
        http = JsonPoster(LOOPBACK, "callroute-bidding")
        for body in (b"first", b"second", b"last on this one", b"after the close"):
            assert (await http.post(url, body)).status == 200
            await asyncio.sleep(0)  # the close reaches the client, as between two calls
        http.close()
    assert connections == [1, 1, 1, 2]


async def test_a_request_cut_at_its_deadline_leaves_no_answer_for_the_next() -> None:
    late = asyncio.Event()

    def reply(body: bytes) -> tuple[bytes | None, bool]:
        if body == b"slow":
            asyncio.get_running_loop().call_later(0.3, late.set)
            return None, True  # answered never on this connection (the client hangs up)
        return b"HTTP/1.1 200 OK\r\nContent-Length: " + b"%d\r\n\r\n" % len(body) + body, True

    async with server(reply) as (url, _, connections):
        http = JsonPoster(LOOPBACK, "callroute-bidding")
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.1):
                await http.post(url, b"slow")
        assert (await http.post(url, b"next")).body == b"next"
        http.close()
    assert connections == [1, 2]  # the cut one was closed, not reused


async def test_failures_are_said_and_internal_addresses_never_reached() -> None:
    async with server(lambda _: (b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n" + b"x" * 9, False)) as (
        url,
        _,
        _,
    ):
        port = url.split(":")[2].split("/")[0]
        with pytest.raises(Blocked, match=r"127\.0\.0\.1 is a loopback address"):
            await JsonPoster((), "callroute-bidding").post(url, b"{}")
    http = JsonPoster(LOOPBACK, "callroute-bidding")
    with pytest.raises(RequestFailed, match=r"^ConnectError: "):
        await http.post(f"http://127.0.0.1:{port}/gone", b"{}")  # the server has stopped
    huge = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY + 1) + b"1" * (MAX_BODY + 1)
    async with server(lambda _: (huge, True)) as (url, _, _):
        with pytest.raises(RequestFailed, match="over 65536 bytes"):
            await http.post(url, b"{}")
    async with server(lambda _: (None, False)) as (url, _, _):
        with pytest.raises(RequestFailed, match="closed the connection without an answer"):
            await http.post(url, b"{}")
    http.close()
