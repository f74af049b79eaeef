"""The one gateway to Asterisk's Manager Interface (AMI), with panoramisk.

`run()` keeps one logged-in connection until cancelled, reconnecting with exponential backoff
(0.2 s doubling to 5 s, as ARI does) whenever Asterisk goes away or refuses the login. panoramisk's
own reconnection (a fixed pace, no notice of a refused login) is switched off for that. Handlers
registered with `on()` see every matching event of every connection.
"""

import asyncio
import logging
from collections.abc import Callable

from panoramisk import Manager
from panoramisk.ami_protocol import AMIProtocol
from panoramisk.message import Message

from pbx_bridge.metrics import AMI_CONNECTED, AMI_RECONNECTS

log = logging.getLogger(__name__)

Handler = Callable[[Message], None]


class AmiError(Exception):
    pass


class _Connection(Manager):
    """One panoramisk connection that reports its loss instead of reconnecting by itself."""

    pinger: asyncio.TimerHandle | None  # Manager's keep-alive timer

    def __init__(self, lost: asyncio.Event, **config: object) -> None:  # Manager's settings
        super().__init__(**config)
        self.lost = lost

    def connection_lost(self, exc: Exception | None) -> None:
        self.authenticated = False
        if self.pinger is not None:
            self.pinger.cancel()
            self.pinger = None
        self.lost.set()


class Ami:
    def __init__(self, host: str, port: int, user: str, secret: str, timeout: float = 10) -> None:
        self._host, self._port = host, port
        self._login = {"username": user, "secret": secret}
        self._timeout = timeout
        self._handlers: list[tuple[str, Handler]] = []
        self._connection: _Connection | None = None

    def on(self, pattern: str, handler: Handler) -> None:
        """Call `handler` with each event whose name matches `pattern` (fnmatch, e.g. `Contact*`)."""
        self._handlers.append((pattern, handler))

    async def run(self) -> None:
        delay = 0.2
        while True:
            lost = asyncio.Event()
            try:
                connection = await self._connect(lost)
            except (OSError, TimeoutError, AmiError) as exc:
                log.warning("AMI connection failed (%s); retrying in %.1f s", exc, delay)
            else:
                log.info("AMI connected to %s:%s", self._host, self._port)
                delay = 0.2
                self._connection = connection
                AMI_CONNECTED.set(1)
                try:
                    await lost.wait()
                finally:
                    self._connection = None
                    AMI_CONNECTED.set(0)
                    connection.close()
                log.warning("AMI connection lost; reconnecting")
            AMI_RECONNECTS.inc()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _connect(self, lost: asyncio.Event) -> _Connection:
        loop = asyncio.get_running_loop()
        connection = _Connection(lost, loop=loop, host=self._host, port=self._port, **self._login)
        for pattern, handler in self._handlers:
            connection.register_event(pattern, lambda _manager, event, h=handler: h(event))
        opened = loop.create_future()
        opened.set_result(await loop.create_connection(AMIProtocol, self._host, self._port))
        connection.connection_made(opened)  # panoramisk's own set-up, then its Login action
        login = connection.authenticated_future
        try:
            # Shielded: a cancelled login future would break panoramisk's callback on it.
            async with asyncio.timeout(self._timeout):
                reply = await asyncio.shield(login)
        except BaseException:
            connection.close()
            raise
        if not reply.success:
            connection.close()
            raise AmiError(f"login refused ({reply.message}); check AMI_USER / AMI_SECRET")
        return connection

    async def send(self, action: str, **fields: str) -> list[Message]:
        """Send an action; its response, followed by the events of a list action (panoramisk
        gathers them up to the `...Complete` event)."""
        connection = self._connection
        if connection is None:
            raise AmiError("not connected")
        reply = connection.send_action({"Action": action, **fields})
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation that comes
            # as the answer does, and the bridge then never stops (seen in the stop test).
            async with asyncio.timeout(self._timeout):
                result = await reply
        except TimeoutError:
            raise AmiError(f"no answer to {action} within {self._timeout} s") from None
        return result if isinstance(result, list) else [result]
