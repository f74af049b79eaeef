"""Buyers' bidding endpoints on loopback (docs/bidding.md): a real HTTP server on a free port whose
paths answer pings and posts as a test says (a bid, an error, too late), recording what each got."""

import json
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from testkit.loopback_http import QuietHandler, serving


@dataclass
class Behaviour:
    """How one path answers: `status` with `body` (JSON), or, `late`, not until the server stops."""

    status: int = 200
    body: Any = None
    late: bool = False
    post_status: int = 200
    post_body: Any = field(default_factory=dict)


@dataclass
class Bidders:
    """The running server: `url(path)` for a target's ping URL; `got(path)` the bodies it received."""

    port: int
    paths: dict[str, Behaviour]
    received: dict[str, list[dict[str, Any]]]
    released: threading.Event

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def got(self, path: str, phase: str | None = None) -> list[dict[str, Any]]:
        return [b for b in self.received.get(path, []) if phase is None or b.get("phase") == phase]


@contextmanager
def bidding_endpoints(paths: dict[str, Behaviour]) -> Iterator[Bidders]:
    received: dict[str, list[dict[str, Any]]] = {}
    released = threading.Event()
    lock = threading.Lock()

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a buyer's server would

        def do_POST(self) -> None:
            path = self.path.strip("/")
            body = json.loads(self.body() or b"{}")
            with lock:
                received.setdefault(path, []).append(body)
            how = paths.get(path)
            if how is None:
                return self._answer(404, {"error": "no such bidder"})
            if body.get("phase") == "post":
                return self._answer(how.post_status, how.post_body)
            if how.late:
                released.wait(30)  # answers only once the test is over: past any deadline
            self._answer(how.status, how.body)

        def _answer(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def handle(self) -> None:
            with suppress(BrokenPipeError, ConnectionResetError):  # the auction hung up at its deadline
                super().handle()

    with serving(Handler) as port:
        try:
            yield Bidders(port, paths, received, released)
        finally:
            released.set()  # the late bidders answer now, so the server can stop


def main() -> None:
    """`python -m testkit.bidders N`: N bidders, each its own server bidding at once, in a process of
    their own (a benchmark's client then shares no interpreter lock with them); prints their URLs as
    one JSON line, serves until stdin closes."""
    count = int(sys.argv[1])
    with ExitStack() as stack:
        urls = [
            stack.enter_context(bidding_endpoints({"bid": Behaviour(body={"bid": f"{6 + i}.25"})})).url("bid")
            for i in range(count)
        ]
        print(json.dumps(urls), flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
