"""What a call's side receives: a UDP socket put in a sipp's SDP as its media address, keeping each
RTP packet with the moment it arrived (the machine's clock, which Asterisk's times on the call row
are taken from too)."""

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from testkit.audio import ulaw_level

_RTP_HEADER = 12
SPEECH = 200  # mean µ-law amplitude above this is sound, not silence (silence decodes to 0-8)


@dataclass
class RtpCapture:
    port: int
    packets: list[tuple[float, bytes]] = field(default_factory=list)  # (arrival, payload)

    def sound(self, until: float | None = None) -> list[float]:
        """When each packet carrying sound (not silence) arrived, up to `until`."""
        return [
            at
            for at, payload in self.packets
            if ulaw_level(payload) > SPEECH and (until is None or at < until)
        ]


@contextmanager
def rtp_capture() -> Iterator[RtpCapture]:
    """A capture on a free UDP port of 127.0.0.1, receiving until the block ends."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.2)
    capture = RtpCapture(sock.getsockname()[1])
    stop = threading.Event()

    def receive() -> None:
        while not stop.is_set():
            try:
                data = sock.recv(2048)
            except TimeoutError:
                continue
            capture.packets.append((time.time(), data[_RTP_HEADER:]))

    thread = threading.Thread(target=receive, daemon=True)
    thread.start()
    try:
        yield capture
    finally:
        stop.set()
        thread.join()
        sock.close()
