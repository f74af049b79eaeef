"""One inbound call, from StasisStart to its call row (domain.md, "A call, from ring to invoice").

The bridge decides in Stasis (admission, the IVR, target selection), then sends the caller on to
the dialplan (`[callroute-dial]`, ARI continue) with the chosen targets in dialling order: Asterisk
dials them in turn, with failover, and bridges the caller with the first that answers. The bridge
follows the rest from the user events that dialplan raises over AMI (each failed attempt, the
answer, the end) and keeps the live view, the credit and the row.

Why the dialplan dials: holding every leg in Stasis cost a dozen ARI requests and events per call
(originate, a bridge, answers, hang-ups), which were most of Asterisk's and the bridge's work per
call; dialled by the dialplan, a call costs two requests after the decision, its media is relayed
by Asterisk with nobody asking, and a talking call goes on if the bridge stops (the next one takes
it back, `resume`).

Each call has its own event queue consumed by its own task, so the events of one call are handled
in the order Asterisk sent them. Database work runs in a thread so the event loop never blocks.
"""

import asyncio
import contextlib
import logging
import math
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from core import names
from core.enums import Disposition
from core.models import Call
from core.routing import Admission, Candidate, IvrSettings, Result, Selection, Step, entry
from pbx_bridge.ami import Ami, AmiError
from pbx_bridge.ari import Ari, AriError
from pbx_bridge.call_record import RowWriter
from pbx_bridge.credit_hold import CreditHold
from pbx_bridge.live_store import LiveStore
from pbx_bridge.trunks import endpoint_name

log = logging.getLogger(__name__)
Event = dict[str, Any]

EXTEND_AHEAD_SECONDS = 10  # ask for the next slice this long before the paid-for time ends
WARNING_SECONDS = 2  # the goodbye prompt plays this long before credit runs out
GOODBYE_SECONDS = 10  # how long the goodbye may take before the call is hung up regardless
ROW_WAIT_SECONDS = 5  # how long a call's connected state waits for its answered row
# The only ARI events a call's flow reads; Asterisk is asked for no others (ARI's event filter).
EVENTS_READ = ("StasisStart", "StasisEnd", "PlaybackFinished", "ChannelDtmfReceived")
# The user events the dialplan raises (AMI), as the flows read them.
ATTEMPT, ANSWERED, ENDED = names.ATTEMPT_EVENT, names.ANSWERED_EVENT, names.END_EVENT
DIALPLAN_EVENTS = (ATTEMPT, ANSWERED, ENDED)
# What a dial string may hold: the dialplan splits its plan on ^ and Dial its arguments on , and &.
_DIALABLE = re.compile(r"[A-Za-z0-9+*#@:/._-]+")


class Router(Protocol):
    """The routing engine as the bridge uses it (core.routing behind pbx_bridge.routing)."""

    def route(self, did: str, caller: str, now: datetime) -> tuple[Admission, Selection | None]: ...

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection: ...


class CallerGone(Exception):
    """The caller hung up; whatever the flow was waiting for no longer matters."""


class LetGo(Exception):
    """The bridge stops following this call (it is stopping, or Asterisk lost track of the end):
    the call, in the dialplan, needs nobody; its open row is for the reconciliation to complete."""


@dataclass
class Context:
    """What every call shares: the gateways, the live store, the router, who owns which channel."""

    ari: Ari
    live: LiveStore
    router: Router
    rows: RowWriter
    ami: Ami | None = None  # redirects a call out of credit to its goodbye
    channels: dict[str, "CallFlow"] = field(default_factory=dict)
    after_hangup: Callable[[str], None] | None = None  # e.g. enqueue rating


def _now() -> datetime:
    return datetime.now(UTC)


def channel_of(event: Event) -> str | None:
    if "channel" in event:
        return str(event["channel"]["id"])
    target = event.get("playback", {}).get("target_uri", "")
    return target.removeprefix("channel:") or None


def dial_endpoint(candidate: Candidate) -> str | None:
    """The PJSIP dial string for a target through its trunk, or None when it has no trunk."""
    trunk = candidate.trunk
    if trunk is None:
        return None
    endpoint = endpoint_name(trunk.id)
    if candidate.destination.startswith(("sip:", "sips:")):
        return f"PJSIP/{endpoint}/{candidate.destination}"
    number = candidate.destination.lstrip("+")[trunk.strip_digits :]
    return f"PJSIP/{trunk.dial_prefix}{number}@{endpoint}"


class CallFlow:
    def __init__(self, ctx: Context, channel: Event, did: str, caller: str) -> None:
        self.ctx = ctx
        self.inbound = str(channel["id"])
        self.inbound_name = str(channel.get("name", ""))  # AMI names channels by name, not id
        # The extension dialled, as Asterisk received it (`did` is the dialplan's filtered copy).
        self.exten: str | None = channel.get("dialplan", {}).get("exten")
        # The inbound channel is the first of the call, so its uniqueid is the call's linkedid.
        self.linkedid = self.inbound
        self.did, self.caller = did, caller
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.trail: list[dict[str, Any]] = []
        self.started_at = _now()
        self.answered_at: datetime | None = None
        self.connected_at: datetime | None = None
        self.row: dict[str, Any] = {
            "linkedid": self.linkedid,
            "did": did,
            "caller": caller,
            "started_at": self.started_at,
        }
        self.hangup_by: str | None = None
        self.tariff_id: int | None = None  # the customer's, once admitted
        self.record = False  # the campaign's choice, once admitted
        self.in_dialplan = False  # sent on to the dialplan, which dials: its StasisEnd is no hang-up
        self.finished = False  # its final row is written or on its way
        self.gone = False  # the caller's channel was hung up by us or seen ending: not again
        # What the call counts as if the caller hangs up now: abandoned until connected.
        self.if_caller_hangs = Disposition.NO_ANSWER
        self.resumed = False  # taken back after a bridge restart
        self.live_call: dict[str, Any] = {
            "linkedid": self.linkedid,
            "did": did,
            "caller": caller,
            "state": "ringing",
            "started_at": self.started_at.isoformat(),
        }

    @classmethod
    def resume(cls, ctx: Context, row: Call) -> "CallFlow":
        """Take back a call that was talking when the bridge stopped (it talks on in the dialplan)."""
        flow = cls(ctx, {"id": row.linkedid}, row.did, row.caller)
        flow.started_at, flow.answered_at, flow.connected_at = (
            row.started_at,
            row.answered_at,
            row.connected_at,
        )
        flow.trail = list(row.trail)
        flow.row.update(
            started_at=row.started_at,
            user_id=row.user_id,
            campaign_id=row.campaign_id,
            number_id=row.number_id,
            target_id=row.target_id,
            buyer_id=row.buyer_id,
            trunk_id=row.trunk_id,
            destination=row.destination,
            ivr_result=row.ivr_result,
            recording=row.recording,
        )
        flow.in_dialplan = flow.resumed = True
        return flow

    def deliver(self, event: Event) -> None:
        self.queue.put_nowait(event)

    def let_go(self) -> None:
        """Stop following the call (see LetGo), whatever the flow waits for."""
        self.deliver({"type": LetGo.__name__})

    def note(self, step: str, reason: str, **extra: Any) -> None:
        self.trail.append({"step": step, "at": _now().isoformat(), "reason": reason, **extra})

    async def next_event(self, match: Callable[[Event], bool], timeout: float | None) -> Event | None:
        """The next event `match` accepts, or None after `timeout`; raises CallerGone when the
        caller hangs up while the call is in Stasis."""
        try:
            # One deadline for the whole wait (asyncio.timeout: no task per event, as wait_for makes).
            async with asyncio.timeout(timeout):
                while True:
                    event = await self.queue.get()
                    kind = event.get("type")
                    if kind == LetGo.__name__:
                        raise LetGo
                    if kind == "StasisEnd" and channel_of(event) == self.inbound and not self.in_dialplan:
                        self.gone = True
                        self.hangup_by = self.hangup_by or "caller"
                        raise CallerGone
                    if kind == ENDED:  # the caller's channel is gone: nothing left to hang up
                        self.gone = True
                    if match(event):
                        return event
        except TimeoutError:
            return None

    # --- the call -----------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            disposition = await (self._carry_on() if self.resumed else self._route())
        except CallerGone:
            disposition = self.if_caller_hangs
        except (LetGo, asyncio.CancelledError) as stop:
            if not self.in_dialplan:  # a call still in Stasis can't go on without us
                await self._finish(Disposition.FAILED)
            else:
                await self._release()
            if isinstance(stop, asyncio.CancelledError):
                raise
            return
        except Exception:
            log.exception("call %s failed", self.linkedid)
            self.note("error", "the bridge failed handling this call")
            disposition = Disposition.ANSWERED if self.connected_at else Disposition.FAILED
        await self._finish(disposition)

    async def _carry_on(self) -> Disposition:
        """A resumed call goes on until a side hangs up."""
        self.note("bridge", "the bridge restarted and took the call back")
        self.if_caller_hangs = Disposition.ANSWERED
        self.live_call.update(
            user_id=self.row["user_id"],
            buyer_id=self.row["buyer_id"],
            target_id=self.row["target_id"],
            trunk_id=self.row["trunk_id"],
            state="connected",
            connected_at=self.connected_at.isoformat(),
        )
        await self.ctx.live.put(self.live_call)
        self._ended_by(await self.next_event(lambda e: e.get("type") == ENDED, None))
        return Disposition.ANSWERED

    def _admitted(self, admission: Admission) -> None:
        """Take in what admission decided, and write the call's first row: a row exists from the
        first moment, whatever happens next."""
        self.trail.extend(admission.trail)
        self.tariff_id, self.record = admission.tariff_id, admission.record
        self.row.update(
            did=admission.did,  # E.164 where it parses, as the engine normalised them
            caller=admission.caller,
            user_id=admission.user_id,
            campaign_id=admission.campaign_id,
            number_id=admission.number_id,
        )
        self.live_call.update(
            did=admission.did,
            caller=admission.caller,
            user_id=admission.user_id,
            campaign_id=admission.campaign_id,
        )
        self.ctx.rows.write(self._row(Disposition.FAILED))

    async def _route(self) -> Disposition:
        self.ctx.live.starting(self.linkedid)
        if self.exten is not None and self.exten != self.did:  # refused, not routed to another number
            reason = f"the dialled number {self.exten!r} holds characters no phone number has"
            stop = entry(Step.ROUTE, Result.STOPPED, reason, _now(), disposition=Disposition.NO_ROUTE)
            self.trail.append(stop)
            await self._refuse(Disposition.NO_ROUTE)
            return Disposition.NO_ROUTE
        admission, selection = await asyncio.to_thread(self.ctx.router.route, self.did, self.caller, _now())
        self._admitted(admission)
        # Shown live from the first step that takes time: a prompt, the IVR or the first dial.
        if admission.disposition is not None:
            await self._refuse(admission.disposition)
            return Disposition(admission.disposition)
        if (ivr := admission.ivr_to_pass) is not None and not await self._ivr(ivr):
            await self._hang_up()
            return Disposition.IVR_FAILED
        if selection is None:  # after the IVR: chosen now, with the counts of now
            selection = await asyncio.to_thread(self.ctx.router.select, admission, self.caller, _now())
        self.trail.extend(selection.trail)
        if selection.disposition is not None:
            await self._refuse(selection.disposition)
            return Disposition(selection.disposition)
        return await self._dial(selection.candidates, admission.ring_timeout or 30)

    async def _refuse(self, disposition: str) -> None:
        self.if_caller_hangs = Disposition(disposition)  # decided: hanging up during a prompt changes nothing
        if disposition == Disposition.NO_ROUTE and self.row.get("number_id") is None:
            # A number that routes nowhere says so, like a carrier would.
            await self.ctx.ari.answer(self.inbound)
            self.answered_at = _now()
            await self.ctx.live.put(self.live_call)
            await self._play("sound:ss-noservice", wait=8)
        await self._hang_up("busy" if disposition == Disposition.BUSY else "normal")

    async def _play(self, media: str, wait: float) -> None:
        playback = f"pb-{uuid.uuid4().hex}"
        await self.ctx.ari.play(self.inbound, media, playback)
        await self.next_event(
            lambda e: e.get("type") == "PlaybackFinished" and e["playback"]["id"] == playback, wait
        )

    async def _ivr(self, ivr: IvrSettings) -> bool:
        """Answer, ask for the PIN as DTMF, allow `attempts` tries."""
        await self.ctx.ari.answer(self.inbound)
        self.answered_at = _now()
        self.live_call["state"] = "ivr"
        await self.ctx.live.put(self.live_call)
        for attempt in range(1, ivr.attempts + 1):
            await self.ctx.ari.play(
                self.inbound, f"sound:{ivr.prompt or 'agent-pass'}", f"pb-{uuid.uuid4().hex}"
            )
            digits = await self._collect_digits(ivr.digits, timeout=10)
            if digits in ivr.pins:
                self.note("ivr", "PIN accepted", attempt=attempt, result="passed")
                self.row["ivr_result"] = "passed"
                return True
            self.note("ivr", "wrong PIN" if digits else "no PIN entered", attempt=attempt, result="failed")
            if attempt < ivr.attempts:
                await self._play("sound:auth-incorrect", wait=5)
        self.row["ivr_result"] = "failed"
        return False

    async def _collect_digits(self, count: int, timeout: float) -> str:
        digits = ""
        while len(digits) < count:
            event = await self.next_event(
                lambda e: e.get("type") == "ChannelDtmfReceived" and channel_of(e) == self.inbound, timeout
            )
            if event is None:
                break
            digits += event["digit"]
        return digits

    async def _dial(self, candidates: list[Candidate], ring_timeout: int) -> Disposition:
        """Send the caller on to the dialplan with the targets to dial, then follow its attempts."""
        dialled: list[Candidate] = []
        endpoints: list[str] = []
        for candidate in candidates:
            endpoint = dial_endpoint(candidate)
            if endpoint is not None and _DIALABLE.fullmatch(endpoint):
                dialled.append(candidate)
                endpoints.append(endpoint)
            else:
                why = "target has no outbound trunk" if endpoint is None else "destination can't be dialled"
                self.note("dial", why, result="skipped", **_attempt(candidate))
        if not dialled:
            await self._hang_up()
            return Disposition.FAILED
        answer = names.RECORDED_ANSWER if self.record else names.ANSWER_ROUTINE
        await self._ringing(dialled[0])
        try:
            plan = "^".join([str(ring_timeout), answer, *endpoints])
            await self.ctx.ari.continue_in_dialplan(self.inbound, names.DIAL_CONTEXT, {"CR_PLAN": plan})
        except AriError as exc:
            if exc.status in (404, 409, 412):  # the caller went before the call could be sent on
                raise CallerGone from None
            raise
        self.in_dialplan = True
        statuses: list[str] = []
        while True:
            event = await self.next_event(lambda e: e.get("type") in DIALPLAN_EVENTS, None)
            assert event is not None
            candidate = dialled[min(len(statuses), len(dialled) - 1)]
            if event["type"] == ATTEMPT:
                status = str(event.get("status") or "CHANUNAVAIL")
                sip = event.get("sip") or f"cause {event.get('cause') or 0}"
                self.note("dial", _describe(status), result=status, sip=sip, **_attempt(candidate))
                statuses.append(status)
                await self._ringing(dialled[len(statuses)] if len(statuses) < len(dialled) else None)
            elif event["type"] == ANSWERED:
                answer = {"result": "ANSWER", "sip": "dial status ANSWER"}
                self.note("dial", _describe("ANSWER"), **answer, **_attempt(candidate))
                return await self._talk(event)
            elif len(statuses) < len(dialled):  # over while a target rang: the caller gave up
                why = "caller hung up while the target rang"
                self.note("dial", why, result="CANCEL", **_attempt(candidate))
                self.hangup_by = self.hangup_by or "caller"
                return self.if_caller_hangs
            else:  # every target tried; the dialplan hung up (486 when all were busy)
                if set(statuses) == {"BUSY"}:
                    return Disposition.BUSY
                return Disposition.NO_ANSWER if "NOANSWER" in statuses else Disposition.FAILED

    async def _ringing(self, candidate: Candidate | None) -> None:
        """The target the call rings now (None: none left), in the live view and on the row."""
        target = {
            "target_id": candidate.target_id if candidate else None,
            "buyer_id": candidate.buyer_id if candidate else None,
            "trunk_id": candidate.trunk_id if candidate else None,
        }
        self.live_call.update(target, target_name=candidate.name if candidate else None)
        if candidate is None:
            return
        self.row.update(target, destination=candidate.destination)
        await self.ctx.live.put(self.live_call)

    async def _talk(self, answered: Event) -> Disposition:
        self.connected_at = _now()
        self.answered_at = self.answered_at or self.connected_at  # Dial answers the caller now
        self.if_caller_hangs = Disposition.ANSWERED
        if self.record:
            if answered.get("recording"):
                self.row["recording"] = names.recording_name(self.linkedid)
                self.note("record", "both sides recorded", result="started", name=self.row["recording"])
            else:
                self.note("record", "recording could not start", result="failed")
        hold = CreditHold(
            self.row["user_id"], self.tariff_id, self.linkedid, self.row["destination"], self.connected_at
        )
        # The answered row: a bridge restarted after it is in takes the call back from it. The call
        # shows connected only then (at the writer's next tick, at most 50 ms on), so whatever saw
        # it connected can count on the row. A bridge that dies in between leaves it unconnected.
        written = asyncio.Event()
        self.ctx.rows.write(self._row(Disposition.ANSWERED), then=lambda _: written.set())
        covered = await hold.next_slice()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ROW_WAIT_SECONDS):  # the database may be down: the call goes on
                await written.wait()
        self.live_call.update(state="connected", connected_at=self.connected_at.isoformat())
        await self.ctx.live.put(self.live_call)
        await self._talk_within_credit(hold, covered)
        return Disposition.ANSWERED

    def _ended_by(self, event: Event | None) -> None:
        """Who hung up, from the call's end (unless the bridge itself ended it, and said so)."""
        if event is not None:
            self.hangup_by = self.hangup_by or ("target" if event.get("by") == "target" else "caller")

    async def _talk_within_credit(self, hold: CreditHold, covered: float) -> None:
        """Wait for a side to hang up, holding credit slice by slice; end the call when the
        customer's credit runs out (so parallel calls can't spend the same money twice)."""
        assert self.connected_at is not None

        def over(event: Event) -> bool:
            return event.get("type") == ENDED

        while True:
            talked = (_now() - self.connected_at).total_seconds()
            wait = None if math.isinf(covered) else max(0.0, covered - talked - EXTEND_AHEAD_SECONDS)
            if (end := await self.next_event(over, wait)) is not None:
                return self._ended_by(end)
            paid_for, covered = covered, await hold.next_slice()
            if covered > paid_for:
                self.note("credit", f"credit held for {int(covered)} s of talk time", result="extended")
                continue
            self.note("credit", f"credit ran out after {int(covered)} s of talk time", result="stopped")
            remaining = covered - (_now() - self.connected_at).total_seconds()
            if (end := await self.next_event(over, max(0.0, remaining - WARNING_SECONDS))) is not None:
                return self._ended_by(end)
            self.hangup_by = "system"
            await self._say_goodbye()
            if await self.next_event(over, GOODBYE_SECONDS) is None:
                await self._hang_up()
            return

    async def _say_goodbye(self) -> None:
        """Both sides hear goodbye, then Asterisk hangs them up. The call talks in the dialplan's
        bridge, out of ARI's reach: AMI moves both legs to the goodbye. Without AMI the call is
        only hung up, when the paid-for time is over."""
        peer = await self.ctx.ari.channel_var(self.inbound, "BRIDGEPEER")
        try:
            if self.ctx.ami is None or not peer:
                raise AmiError("no AMI connection or no target leg to redirect")
            await self.ctx.ami.send(
                "Redirect",
                Channel=self.inbound_name,
                ExtraChannel=peer,
                Context=names.GOODBYE_CONTEXT,
                Exten="s",
                Priority="1",
                ExtraContext=names.GOODBYE_CONTEXT,
                ExtraExten="s",
                ExtraPriority="1",
            )
        except AmiError as exc:
            log.warning("could not play the credit warning on %s: %s", self.linkedid, exc)
            await asyncio.sleep(WARNING_SECONDS)
            await self._hang_up()

    async def _finish(self, disposition: Disposition) -> None:
        ended = _now()
        try:
            await self._hang_up()
        except Exception:  # Asterisk may be gone; the row below matters more
            log.warning("could not hang up %s", self.inbound)
        self.row["ended_at"] = ended
        self.finished = True
        self.ctx.rows.write(self._row(disposition, ended), then=self._written)
        await self._unlist()

    def _written(self, linkedid: str) -> None:
        """The final row is in the database: the call is no longer ours (until then the
        reconciliation leaves it to us, and completes it from Asterisk's record should the row
        never be written), and it goes to rating."""
        self._disown()
        if self.ctx.after_hangup is not None:
            self.ctx.after_hangup(linkedid)

    async def _release(self) -> None:
        """This flow no longer answers for the call: not ours, not shown live."""
        self._disown()
        await self._unlist()

    def _disown(self) -> None:
        if self.ctx.channels.get(self.inbound) is self:
            del self.ctx.channels[self.inbound]

    async def _unlist(self) -> None:
        try:
            await self.ctx.live.remove(self.linkedid)
        except Exception:
            log.exception("could not remove live call %s", self.linkedid)

    async def _hang_up(self, reason: str = "normal") -> None:
        """Hang up the caller once: a second request would cost a round trip and could change the
        cause the caller hears (486 Busy turned into 603 Decline). ARI hangs a channel up in the
        dialplan too."""
        if not self.gone:
            self.gone = True
            await self.ctx.ari.hangup(self.inbound, reason)

    def _row(self, disposition: Disposition, ended: datetime | None = None) -> dict[str, Any]:
        """The call row as of now."""
        end = ended or _now()
        row = dict(self.row)
        row.update(
            disposition=disposition.value,
            answered_at=self.answered_at,
            connected_at=self.connected_at,
            duration=int((end - self.started_at).total_seconds()) if ended else 0,
            billsec=int((end - self.answered_at).total_seconds()) if ended and self.answered_at else 0,
            talk_seconds=int((end - self.connected_at).total_seconds()) if ended and self.connected_at else 0,
            hangup_by=self.hangup_by,
            trail=self.trail,
            updated_at=_now(),
        )
        return row


def _attempt(candidate: Candidate) -> dict[str, Any]:
    """What the trail says of a dial attempt's target."""
    return {
        "target_id": candidate.target_id,
        "name": candidate.name,
        "trunk_id": candidate.trunk_id,
        "destination": candidate.destination,
    }


def _describe(status: str) -> str:
    return {
        "ANSWER": "target answered",
        "BUSY": "target busy (486)",
        "NOANSWER": "no answer within ring timeout",
        "CONGESTION": "trunk congested or call rejected",
        "CHANUNAVAIL": "target or trunk unavailable",
        "CANCEL": "dial cancelled",
    }.get(status, f"dial ended: {status}")
