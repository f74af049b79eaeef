"""Whether each outbound trunk answers, from Asterisk's qualify over AMI, into Redis
(`names.trunk_status_key`: the trunk list's status column).

Asterisk sends OPTIONS to every outbound trunk each `trunk_qualify_seconds` (see `trunks.py`); any
answer, even 403 or 405, means the carrier is there. What the list shows:

- `Reachable (12 ms)`: the last OPTIONS was answered, in that round trip (`<1 ms` on a LAN);
- `Unreachable`: no answer within the qualify timeout (3 s). Asterisk does not dial such a trunk,
  so its targets fail over until it answers again;
- `Unknown`: just (re)created in Asterisk, no OPTIONS answered or timed out yet;
- `Not loaded`: active in the portal but not in Asterisk: the bridge could not push it (see its log),
  or Asterisk has just restarted and the trunks are on their way back.

Inbound and inactive trunks, and outbound ones with `qualify` off (carriers that ignore OPTIONS),
have no key (the list shows none): Asterisk has nothing to send OPTIONS to for an inbound trunk,
which only receives. Portal trunks never register, so there is no
registration state to show.

All keys are read again when the AMI connection is (re)established (`FullyBooted`, which Asterisk
sends on every login once it has loaded) and every few seconds; `ContactStatus` events update a trunk
in between, as soon as Asterisk notices a change. A contact not qualified yet (a trunk just created,
changed, or pushed again after a restart) is qualified at the next read: Asterisk itself would first
do it at a random moment within the whole period. Keys outlive a few reads only: when the bridge or
Asterisk stops, the statuses go away instead of claiming a state nobody checks, and a trunk deleted,
deactivated or turned inbound loses its key at the next read.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

import redis.asyncio as aioredis
from panoramisk.message import Message

from core.infra.names import TRUNK_STATUS_PREFIX, trunk_status_key
from pbx_bridge import trunks
from pbx_bridge.ami import Ami, AmiError

log = logging.getLogger(__name__)

UNREACHABLE, UNKNOWN, NOT_LOADED = "Unreachable", "Unknown", "Not loaded"
REFRESH_SECONDS = 5.0
KEY_TTL_SECONDS = 30


def contact_status_text(status: str, roundtrip_usec: str = "") -> str:
    """The list's words for a contact's qualify state (AMI `ContactStatus` / `ContactStatusDetail`)."""
    if status == "Unreachable":
        return UNREACHABLE
    if status != "Reachable":
        return UNKNOWN  # Unknown, Created, NonQualified: no answer either way yet
    usec = int(roundtrip_usec) if roundtrip_usec.isdigit() else 0
    if usec <= 0:
        return "Reachable"
    ms = round(usec / 1000)
    return f"Reachable ({ms} ms)" if ms else "Reachable (<1 ms)"


class TrunkStatus:
    """Keeps the keys in line with Asterisk. One worker applies events and refreshes in the order
    they came, so a refresh never overwrites a newer event."""

    def __init__(self, ami: Ami, redis: aioredis.Redis, qualify_seconds: float) -> None:
        self.ami = ami
        self.redis = redis
        self.refresh_seconds = min(qualify_seconds, REFRESH_SECONDS)
        self._work: asyncio.Queue[Callable[[], Awaitable[object]]] = asyncio.Queue()
        ami.on("FullyBooted", self._fully_booted)
        ami.on("ContactStatus", self._contact_status)

    async def run(self) -> None:
        """Until cancelled. Calls go on without it: a failure here is logged, not raised."""
        try:
            async with asyncio.TaskGroup() as tasks:
                tasks.create_task(self.ami.run())
                tasks.create_task(self._apply())
                tasks.create_task(self._tick())
        except Exception:
            log.exception("trunk status stopped; the trunk list shows none once the keys expire")

    def _fully_booted(self, event: Message) -> None:
        log.info("Asterisk fully booted (up %s s): reading every trunk's status", event.get("Uptime"))
        self._work.put_nowait(self.refresh)

    def _contact_status(self, event: Message) -> None:
        trunk_id = trunks.trunk_of(event.get("AOR", ""))
        status = event.get("ContactStatus", "")
        if trunk_id is None or status == "Updated":  # Updated: the contact's details, not its state
            return
        if status == "Removed":
            self._work.put_nowait(partial(self.redis.delete, trunk_status_key(trunk_id)))
        else:
            text = contact_status_text(status, event.get("RoundtripUsec", ""))
            self._work.put_nowait(partial(self._write, {trunk_id: text}))

    async def refresh(self) -> None:
        """Every monitored trunk's status as Asterisk has it now; the ones not qualified yet are."""
        statuses = {trunk_id: await self._ask(trunk_id) for trunk_id in await self._prune()}
        await self._write(statuses)
        for trunk_id, text in statuses.items():
            if text == UNKNOWN:  # the answer comes as a ContactStatus event
                await self.ami.send("PJSIPQualify", Endpoint=trunks.endpoint_name(trunk_id))

    async def _prune(self) -> list[int]:
        """The trunks Asterisk qualifies (`trunks.is_qualified`); every other trunk's key is removed."""
        monitored = [
            t.id for t in await asyncio.to_thread(trunks.load) if t.id is not None and trunks.is_qualified(t)
        ]
        keep = {trunk_status_key(trunk_id) for trunk_id in monitored}
        found = self.redis.scan_iter(match=f"{TRUNK_STATUS_PREFIX}*")
        stale = [key async for key in found if key not in keep]
        if stale:
            await self.redis.delete(*stale)
        return monitored

    async def _ask(self, trunk_id: int) -> str:
        reply = await self.ami.send("PJSIPShowEndpoint", Endpoint=trunks.endpoint_name(trunk_id))
        if not reply[0].success:  # "Unable to retrieve endpoint"
            return NOT_LOADED
        contacts = [m for m in reply if m.event == "ContactStatusDetail"]
        if not contacts:
            return UNKNOWN
        return contact_status_text(contacts[0].get("Status", ""), contacts[0].get("RoundtripUsec", ""))

    async def _write(self, statuses: dict[int, str]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for trunk_id, text in statuses.items():
                pipe.set(trunk_status_key(trunk_id), text, ex=KEY_TTL_SECONDS)
            await pipe.execute()

    async def _apply(self) -> None:
        while True:
            work = await self._work.get()
            try:
                await work()
            except AmiError as exc:  # Asterisk away: the keys expire, the next refresh fills them
                log.debug("trunk status not read: %s", exc)
            except Exception:
                log.exception("trunk status not updated")
            # redis-py can lose a cancellation that arrives as a command's answer does (seen with
            # SCAN): honour it here, or the bridge never stops.
            if (task := asyncio.current_task()) is not None and task.cancelling():
                raise asyncio.CancelledError

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_seconds)
            self._work.put_nowait(self.refresh)
