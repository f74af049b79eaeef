"""A fake Asterisk for the bridge's call flow: ARI and AMI that record what the bridge asks and answer
as Asterisk would (a playback finishes, a hung-up channel leaves Stasis or ends its dialplan, a
redirected call hears goodbye and ends), with the real routing engine, row writer and live store on
the test PostgreSQL and Redis. `BridgeUnderTest` drives calls through the bridge's event table."""

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from itertools import count
from typing import Any

from sqlmodel import select

from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import async_redis, pubsub_channel
from core.models import Call
from pbx_bridge.ami import AmiError
from pbx_bridge.app import Bridge
from pbx_bridge.attribution import Attributor
from pbx_bridge.call.context import Context, Timing
from pbx_bridge.events import EventTable
from pbx_bridge.live_store import LiveStore
from pbx_bridge.routing import EngineRouter
from pbx_bridge.row_writer import RowWriter
from testkit.rows import CALLER, DID

WAIT = 3.0  # the most a test waits for the bridge to do something (it takes milliseconds)
# Prompts and digits are waited for briefly: a fake Asterisk answers at once or never.
FAST = Timing(row_wait=1, digit=0.05, retry_prompt=1, goodbye=1)
_ids = count(1)


def _ari(at: datetime) -> str:
    """A moment as ARI's events spell it (milliseconds, a zone)."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+0000"


class FakeAri:
    def __init__(self) -> None:
        self.requests: list[tuple[Any, ...]] = []
        self.table: EventTable | None = None
        self.stasis: set[str] = set()  # channels in the Stasis app
        self.dialplan: set[str] = set()  # channels sent on to the dialplan
        self.variables: dict[str, str] = {}
        self.started = "boot 1"  # Asterisk's startup time: a restart changes it
        self._changed = asyncio.Condition()

    def _emit(self, event: dict[str, Any]) -> None:
        """An event a moment later, as Asterisk sends it after answering the request."""
        assert self.table is not None
        asyncio.get_running_loop().call_soon(self.table.dispatch_ari, event)

    async def _record(self, *request: Any) -> None:
        self.requests.append(request)
        async with self._changed:
            self._changed.notify_all()

    async def requested(self, kind: str, channel: str | None = None) -> tuple[Any, ...]:
        """The first request of `kind` (on `channel`), once the bridge made it."""

        def found() -> tuple[Any, ...] | None:
            return next((r for r in self.requests if r[0] == kind and channel in (None, r[1])), None)

        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        request = found()
        assert request is not None
        return request

    def made(self, kind: str) -> list[tuple[Any, ...]]:
        return [r for r in self.requests if r[0] == kind]

    async def answer(self, channel: str) -> None:
        await self._record("answer", channel)

    async def hangup(self, channel: str, reason: str = "normal") -> None:
        await self._record("hangup", channel, reason)
        if channel in self.stasis:
            self.stasis.discard(channel)
            self._emit({"type": "StasisEnd", "channel": {"id": channel}})
        elif channel in self.dialplan:
            self.end(channel)

    def end(self, linkedid: str, by: str = "", cause: str = "16") -> None:
        """The call's end in the dialplan: its h extension tells it (By: target when the target
        hung up first)."""
        self.dialplan.discard(linkedid)
        assert self.table is not None
        self.table.dispatch_user_event(
            {"UserEvent": names.END_EVENT, "Linkedid": linkedid, "By": by, "Cause": cause}
        )

    async def play(self, channel: str, media: str, playback_id: str) -> None:
        await self._record("play", channel, media)
        target = f"channel:{channel}"
        self._emit({"type": "PlaybackFinished", "playback": {"id": playback_id, "target_uri": target}})

    async def continue_in_dialplan(self, channel: str, context: str, variables: dict[str, str]) -> None:
        await self._record("continue", channel, context, variables)
        self.stasis.discard(channel)
        self.dialplan.add(channel)
        self._emit({"type": "StasisEnd", "channel": {"id": channel}})  # no hang-up: it goes on
        if context == names.REFUSE_CONTEXT:  # the announcement, then the release with the cause
            self.end(channel, by="system", cause=variables["CR_CAUSE"])

    async def follow(self, channel: str) -> None:
        await self._record("follow", channel)

    async def channel_var(self, channel: str, name: str) -> str | None:
        return self.variables.get(name)

    async def channels(self) -> list[dict[str, Any]]:
        return [{"id": channel} for channel in self.stasis | self.dialplan]

    async def startup_time(self) -> str:
        return self.started

    async def receive_only(self, event_types: tuple[str, ...]) -> None:
        await self._record("receive_only", event_types)

    def events(
        self, on_connect: Callable[[], Awaitable[None]], stop: asyncio.Event
    ) -> AsyncIterator[dict[str, Any]]:
        raise NotImplementedError("the tests feed the event table themselves")

    async def put_config(self, object_type: str, object_id: str, fields: dict[str, str]) -> None:
        await self._record("put_config", object_type, object_id)

    async def delete_config(self, object_type: str, object_id: str) -> None:
        await self._record("delete_config", object_type, object_id)


class FakeAmi:
    def __init__(self, ari: FakeAri) -> None:
        self.ari = ari
        self.actions: list[tuple[str, dict[str, str]]] = []
        self.connected = True

    async def send(self, action: str, **fields: str) -> list[Any]:
        if not self.connected:
            raise AmiError("not connected")
        self.actions.append((action, fields))
        if action == "Redirect":  # both legs hear goodbye, then the goodbye's h extension ends the call
            self.ari.end(fields["Channel"].removeprefix("PJSIP/carrier-"))
        return []


class BridgeUnderTest:
    def __init__(self, timing: Timing) -> None:
        self.ari = FakeAri()
        self.ami = FakeAmi(self.ari)
        self.redis = async_redis()
        self.rated: list[str] = []
        self._rated: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        self.ctx = Context(
            ari=self.ari,
            ami=self.ami,
            live=LiveStore(self.redis),
            router=EngineRouter(),
            rows=RowWriter(),
            after_hangup=self._to_rating,
            timing=timing,
            attribution=Attributor(self.redis),
        )
        self.bridge = Bridge(self.ctx, self.ari, self.redis)
        self.ari.table = self.bridge.events

    def _to_rating(self, linkedid: str) -> None:
        self.rated.append(linkedid)
        self._rated[linkedid].set()

    def call(self, did: str = DID, caller: str = CALLER, exten: str | None = None) -> str:
        """A call arrives (StasisStart, as the dialplan hands it over); its linkedid."""
        linkedid = f"1763000000.{next(_ids)}"
        self.ari.stasis.add(linkedid)
        channel = {"id": linkedid, "name": f"PJSIP/carrier-{linkedid}", "dialplan": {"exten": exten or did}}
        self.bridge.events.dispatch_ari({"type": "StasisStart", "channel": channel, "args": [did, caller]})
        return linkedid

    def dtmf(self, linkedid: str, digits: str) -> None:
        for digit in digits:
            event = {"type": "ChannelDtmfReceived", "channel": {"id": linkedid}, "digit": digit}
            self.bridge.events.dispatch_ari(event)

    def dialplan_says(self, linkedid: str, event: str, **headers: str) -> None:
        """A user event the dialplan raises for the call (AMI: headers as Asterisk spells them)."""
        self.bridge.events.dispatch_user_event({"UserEvent": event, "Linkedid": linkedid, **headers})

    async def dialled(self, linkedid: str) -> list[str]:
        """The call was sent on to the dialplan: the dial strings, in order."""
        _, _, context, variables = await self.ari.requested("continue", linkedid)
        assert context == names.DIAL_CONTEXT
        return str(variables["CR_PLAN"]).split("^")[2:]

    def caller_answered(self, linkedid: str, at: datetime) -> None:
        """Dial answers the caller's channel (ARI, as Asterisk stamps it: to the millisecond)."""
        channel = {"id": linkedid, "state": "Up"}
        self.bridge.events.dispatch_ari(
            {"type": "ChannelStateChange", "channel": channel, "timestamp": _ari(at)}
        )

    def caller_hung_up(self, linkedid: str, at: datetime, soft: bool = False) -> None:
        """A hangup request on the caller's channel: its BYE, or (soft) Asterisk's own."""
        event = {
            "type": "ChannelHangupRequest",
            "channel": {"id": linkedid},
            "timestamp": _ari(at),
            "cause": 16,
        }
        self.bridge.events.dispatch_ari({**event, "soft": True} if soft else event)

    async def answered(self, linkedid: str, **headers: str) -> None:
        """The target answers; returns once the call shows connected."""
        self.dialplan_says(linkedid, names.ANSWERED_EVENT, Attempt="1", **headers)
        await self.live_until(linkedid, lambda call: call is not None and call["state"] == "connected")

    async def live_until(self, linkedid: str, shown: Callable[[dict[str, Any] | None], bool]) -> None:
        """Wait until the live view of the call satisfies `shown` (each change is published)."""
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(pubsub_channel(names.LIVE_EVENTS))
        try:
            async with asyncio.timeout(WAIT):
                while not shown(await self.ctx.live.get(linkedid)):
                    await pubsub.get_message(timeout=WAIT)
        finally:
            await pubsub.aclose()

    async def ended(self, linkedid: str) -> Call:
        """The call's row once its flow is over and the row is in (and the call gone to rating)."""
        async with asyncio.timeout(WAIT):
            await asyncio.gather(*self.bridge.flows.tasks)
            await self.ctx.rows.flush()
            await self._rated[linkedid].wait()
        return row(linkedid)


def row(linkedid: str) -> Call:
    with session_scope() as s:
        return s.exec(select(Call).where(Call.linkedid == linkedid)).one()


@contextlib.asynccontextmanager
async def bridge(timing: Timing = FAST) -> AsyncIterator[BridgeUnderTest]:
    under_test = BridgeUnderTest(timing)
    stop = asyncio.Event()
    writer = asyncio.create_task(under_test.ctx.rows.run(stop))
    attribution = asyncio.create_task(under_test.ctx.attribution.run(stop))
    commands = asyncio.create_task(under_test.bridge.commands.run())
    try:
        yield under_test
    finally:
        commands.cancel()
        for task in under_test.bridge.flows.tasks:
            task.cancel()
        await asyncio.gather(commands, *under_test.bridge.flows.tasks, return_exceptions=True)
        stop.set()
        await writer
        await attribution
        await under_test.redis.aclose()


def now() -> datetime:
    return datetime.now(UTC)
