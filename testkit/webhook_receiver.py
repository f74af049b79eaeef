"""A webhook receiver on loopback for tests (testkit.loopback_http) that keeps every request it
gets and answers with the statuses it is told to, then 200."""

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from testkit.loopback_http import QuietHandler, serving


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int


@dataclass
class Receiver:
    url: str
    answers: list[int] = field(default_factory=list)  # statuses to answer first, in turn
    got: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextlib.contextmanager
def webhook_receiver(answers: list[int] | None = None) -> Iterator[Receiver]:
    receiver = Receiver("", list(answers or []))

    class Handler(QuietHandler):
        def do_POST(self) -> None:
            body = self.body()
            with receiver.lock:
                status = receiver.answers.pop(0) if receiver.answers else 200
                receiver.got.append(Received(self.path, dict(self.headers.items()), body, status))
            self.send_response(status)
            self.end_headers()
            self.wfile.write(b"ok" if status == 200 else b"try later")

    with serving(Handler) as port:
        receiver.url = f"http://127.0.0.1:{port}"
        yield receiver
