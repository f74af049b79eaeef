"""A recording download never knocks on the ARI port when the product runs without Asterisk: it
answers 503 at once instead of sending empty credentials to whatever listens there."""

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from core.infra.settings import get_settings
from testkit.actors import Actor
from testkit.rows import seed_calls


@dataclass
class Listener:
    """Stands where ARI would be: counts every connection and drops it at once."""

    sock: socket.socket
    connections: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            conn.close()


@pytest.fixture
def ari_port() -> Iterator[Listener]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        sock.settimeout(0.1)
        listener = Listener(sock)
        thread = threading.Thread(target=listener.serve, daemon=True)
        thread.start()
        yield listener
        listener.stop.set()
        thread.join()


@pytest.mark.parametrize(
    ("env", "asks_ari"),
    [
        ({"CALLROUTE_ASTERISK": "off", "ARI_PASSWORD": "secret"}, False),
        ({"CALLROUTE_ASTERISK": "on", "ARI_PASSWORD": ""}, False),
        # Asterisk on with credentials: the port is asked (and drops the line: still a 503).
        ({"CALLROUTE_ASTERISK": "on", "ARI_PASSWORD": "secret"}, True),
    ],
)
def test_recording_answers_503_without_a_network_call_when_asterisk_is_off(
    client, customer_a: Actor, ari_port: Listener, monkeypatch: pytest.MonkeyPatch, env, asks_ari
) -> None:
    (call,) = seed_calls(customer_a, "Recorded", {"recording": "call-1"})
    monkeypatch.setenv("ASTERISK_HTTP_PORT", str(ari_port.sock.getsockname()[1]))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        r = client.get(f"/api/report/recording/{call.id}", headers=customer_a.headers)
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert r.status_code == 503 and "try again" in r.json()["message"]
    assert (ari_port.connections > 0) == asks_ari
