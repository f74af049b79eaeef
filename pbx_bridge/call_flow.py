"""One inbound call, from StasisStart to its call row (domain.md, "A call, from ring to invoice").

Each call has its own event queue consumed by its own task, so the events of one call are handled
in the order Asterisk sent them. Database work runs in a thread so the event loop never blocks.
"""

import asyncio
import logging
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from core.enums import Disposition
from core.models import Call
from core.routing import Admission, Candidate, IvrSettings, Selection
from pbx_bridge import call_record
from pbx_bridge.ari import Ari, AriError
from pbx_bridge.credit_hold import CreditHold
from pbx_bridge.live_store import LiveStore
from pbx_bridge.trunks import endpoint_name

log = logging.getLogger(__name__)
Event = dict[str, Any]

# Q.850 causes on a failed outbound leg, as the dial status they mean.
_CAUSE_STATUS = {
    17: "BUSY",
    18: "NOANSWER",
    19: "NOANSWER",
    21: "CONGESTION",
    34: "CONGESTION",
    1: "CHANUNAVAIL",
    3: "CHANUNAVAIL",
    20: "CHANUNAVAIL",
    27: "CHANUNAVAIL",
}
EXTEND_AHEAD_SECONDS = 10  # ask for the next slice this long before the paid-for time ends
WARNING_SECONDS = 2  # the goodbye prompt plays this long before credit runs out
# A leg is over when it leaves the app (StasisEnd) or, for a leg dialled but never answered (so
# never in the app), when it is destroyed. ChannelHangupRequest, just before, says nothing more.
# Asterisk sends ChannelDestroyed only while the app is subscribed: not always for a leg that left.
_LEG_ENDED = ("StasisEnd", "ChannelDestroyed")
# The only events a call's flow reads; Asterisk is asked for no others (ARI's event filter):
# ChannelVarset alone came 34 times a call, more than all the rest together.
EVENTS_READ = ("StasisStart", *_LEG_ENDED, "Dial", "PlaybackFinished", "ChannelDtmfReceived")
# Dial statuses on the way to an outcome (the first Dial event has an empty one).
_PROGRESS = ("", "RINGING", "PROGRESS", "PROCEEDING")


class Router(Protocol):
    """The routing engine as the bridge uses it (core.routing behind pbx_bridge.routing)."""

    def route(
        self, did: str, caller: str, now: datetime, first_row: Callable[[Admission], dict[str, Any]]
    ) -> tuple[Admission, Selection | None]: ...

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection: ...


class CallerGone(Exception):
    """The caller hung up; whatever the flow was waiting for no longer matters."""


@dataclass
class Context:
    """What every call shares: the gateway, the live store, the router, who owns which channel."""

    ari: Ari
    live: LiveStore
    router: Router
    channels: dict[str, "CallFlow"] = field(default_factory=dict)
    after_hangup: Callable[[str], None] | None = None  # e.g. enqueue rating


def _now() -> datetime:
    return datetime.now(UTC)


def bridge_id(linkedid: str) -> str:
    """The ARI bridge that joins a call's caller and target."""
    return f"br-{linkedid}"


def channel_of(event: Event) -> str | None:
    if "channel" in event:
        return str(event["channel"]["id"])
    if event.get("type") == "Dial" and "peer" in event:
        return str(event["peer"]["id"])
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
        self.outbound: str | None = None  # the target leg that answered
        self.bridge: str | None = None  # made once the call is to be dialled; destroyed at the end
        self.ended: set[str] = set()  # legs hung up by us or seen ending: never hung up again
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
    def resume(cls, ctx: Context, row: Call, outbound: str) -> "CallFlow":
        """Take back a call that was talking when the bridge stopped (both sides still up)."""
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
        )
        flow.outbound = outbound
        flow.bridge = bridge_id(row.linkedid)
        flow.resumed = True
        return flow

    def deliver(self, event: Event) -> None:
        self.queue.put_nowait(event)

    def note(self, step: str, reason: str, **extra: Any) -> None:
        self.trail.append({"step": step, "at": _now().isoformat(), "reason": reason, **extra})

    async def next_event(self, match: Callable[[Event], bool], timeout: float | None) -> Event | None:
        """The next event `match` accepts, or None after `timeout`; raises CallerGone on hangup."""
        try:
            # One deadline for the whole wait (asyncio.timeout: no task per event, as wait_for makes).
            async with asyncio.timeout(timeout):
                while True:
                    event = await self.queue.get()
                    if event.get("type") in _LEG_ENDED:
                        channel = str(channel_of(event))
                        self.ended.add(channel)
                        if channel == self.inbound:
                            self.hangup_by = self.hangup_by or "caller"
                            raise CallerGone
                    if match(event):
                        return event
        except TimeoutError:
            return None

    # --- the call -----------------------------------------------------------------------------

    async def run(self) -> None:
        disposition = Disposition.FAILED
        try:
            if self.resumed:
                disposition = await self._carry_on()
            else:
                disposition = await self._route()
        except CallerGone:
            disposition = self.if_caller_hangs
        except Exception:
            log.exception("call %s failed", self.linkedid)
            self.note("error", "the bridge failed handling this call")
            disposition = Disposition.ANSWERED if self.connected_at else Disposition.FAILED
        finally:
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
        await self.next_event(lambda e: channel_of(e) == self.outbound and e.get("type") in _LEG_ENDED, None)
        self.hangup_by = self.hangup_by or "target"
        return Disposition.ANSWERED

    def _admitted(self, admission: Admission) -> dict[str, Any]:
        """Take in what admission decided; the call's first row (the router writes it with the
        decision, so a row exists from the first moment, whatever happens next)."""
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
        return self._row(Disposition.FAILED)

    async def _route(self) -> Disposition:
        self.ctx.live.starting(self.linkedid)
        admission, selection = await asyncio.to_thread(
            self.ctx.router.route, self.did, self.caller, _now(), self._admitted
        )
        # Shown live from the first step that takes time: a prompt, the IVR or the first dial.
        if admission.disposition is not None:
            await self._refuse(admission.disposition)
            return Disposition(admission.disposition)
        if (ivr := admission.ivr_to_pass) is not None and not await self._ivr(ivr):
            await self._hang_up(self.inbound)
            return Disposition.IVR_FAILED
        if selection is None:  # after the IVR: chosen now, with the counts of now
            selection = await asyncio.to_thread(self.ctx.router.select, admission, self.caller, _now())
        self.trail.extend(selection.trail)
        if selection.disposition is not None:
            await self._refuse(selection.disposition)
            return Disposition(selection.disposition)
        # The caller rung and the legs' meeting place made at once: the bridge is ready before
        # any target answers (one round trip fewer between that answer and the caller hearing it).
        self.bridge = bridge_id(self.linkedid)
        steps = [self.ctx.ari.create_bridge(self.bridge)]
        if self.answered_at is None:
            steps.append(self.ctx.ari.ring(self.inbound))
        await asyncio.gather(*steps)
        return await self._dial_in_turn(selection.candidates, admission.ring_timeout or 30)

    async def _refuse(self, disposition: str) -> None:
        self.if_caller_hangs = Disposition(disposition)  # decided: hanging up during a prompt changes nothing
        if disposition == Disposition.NO_ROUTE and self.row.get("number_id") is None:
            # A number that routes nowhere says so, like a carrier would.
            await self.ctx.ari.answer(self.inbound)
            self.answered_at = _now()
            await self.ctx.live.put(self.live_call)
            await self._play("sound:ss-noservice", wait=8)
        await self._hang_up(self.inbound, "busy" if disposition == Disposition.BUSY else "normal")

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

    async def _dial_in_turn(self, candidates: list[Candidate], ring_timeout: int) -> Disposition:
        statuses: list[str] = []
        for candidate in candidates:
            status = await self._dial(candidate, ring_timeout)
            statuses.append(status)
            if status == "ANSWER":
                return await self._talk()
        all_busy = bool(statuses) and set(statuses) == {"BUSY"}
        await self._hang_up(self.inbound, "busy" if all_busy else "normal")
        if all_busy:
            return Disposition.BUSY
        return Disposition.NO_ANSWER if "NOANSWER" in statuses or not statuses else Disposition.FAILED

    async def _dial(self, candidate: Candidate, ring_timeout: int) -> str:
        endpoint = dial_endpoint(candidate)
        attempt = {
            "target_id": candidate.target_id,
            "name": candidate.name,
            "trunk_id": candidate.trunk_id,
            "destination": candidate.destination,
        }
        if endpoint is None:
            self.note("dial", "target has no outbound trunk", result="skipped", **attempt)
            return "CHANUNAVAIL"
        out = f"{self.linkedid}-{uuid.uuid4().hex[:8]}"
        self.ctx.channels[out] = self
        self.live_call.update(
            target_id=candidate.target_id,
            buyer_id=candidate.buyer_id,
            trunk_id=candidate.trunk_id,
            target_name=candidate.name,
        )
        await self.ctx.live.put(self.live_call)
        self.row.update(
            target_id=candidate.target_id,
            buyer_id=candidate.buyer_id,
            trunk_id=candidate.trunk_id,
            destination=candidate.destination,
        )
        try:
            # Asterisk's own give-up comes later than ours: the ring timeout is decided here.
            await self.ctx.ari.originate(
                out,
                endpoint,
                originator=self.inbound,
                app_args=f"dialed,{self.linkedid}",
                caller_id=self.caller,
                timeout=ring_timeout + 5,
            )
            status, detail = await self._dial_outcome(out, ring_timeout)
        except CallerGone:
            await self._hang_up(out)
            self.note("dial", "caller hung up while the target rang", result="CANCEL", **attempt)
            raise
        except AriError as exc:
            status = "CHANUNAVAIL"
            self.note("dial", f"Asterisk refused the dial: {exc}", result=status, **attempt)
            return status
        self.note("dial", _describe(status), result=status, sip=detail, **attempt)
        if status == "ANSWER":
            self.outbound = out
        else:
            await self._hang_up(out)
            self.ctx.channels.pop(out, None)
            self.live_call.update(target_id=None, buyer_id=None, trunk_id=None, target_name=None)
        return status

    async def _dial_outcome(self, out: str, timeout: float) -> tuple[str, str]:
        """The attempt's dial status and what Asterisk reported (the SIP cause), for the trail.

        Answered is when the leg enters the app (StasisStart): only then can it join the bridge."""
        while True:
            event = await self.next_event(
                lambda e: channel_of(e) == out and e.get("type") in ("StasisStart", "Dial", *_LEG_ENDED),
                timeout,
            )
            if event is None:
                return "NOANSWER", "no final response within the ring timeout"
            if event["type"] == "StasisStart":
                return "ANSWER", "dial status ANSWER"
            if event["type"] in _LEG_ENDED:  # gone before a final dial status: its cause says why
                cause = int(event.get("cause", 0))
                return _CAUSE_STATUS.get(cause, "CHANUNAVAIL"), f"cause {cause}"
            status = str(event.get("dialstatus", ""))
            if status not in ("ANSWER", *_PROGRESS):  # on ANSWER, the leg entering the app comes next
                return status, f"dial status {status}"

    async def _talk(self) -> Disposition:
        self.connected_at = _now()
        assert self.outbound is not None and self.bridge is not None
        # The caller answered and the legs joined at once: one after the other, the caller could
        # talk to silence for seconds with hundreds of calls up (the answer reaches them first).
        steps = [self.ctx.ari.add_to_bridge(self.bridge, [self.inbound, self.outbound])]
        if self.answered_at is None:
            steps.append(self.ctx.ari.answer(self.inbound))
            self.answered_at = self.connected_at
        if self.record:
            steps.append(self._record(self.bridge))
        await asyncio.gather(*steps)
        self.if_caller_hangs = Disposition.ANSWERED
        hold = CreditHold(
            self.row["user_id"], self.tariff_id, self.linkedid, self.row["destination"], self.connected_at
        )
        # The answered row with the first credit slice, in one transaction: a bridge restarted
        # after this point takes the call back from it.
        covered = await asyncio.to_thread(hold.take, self._row(Disposition.ANSWERED))
        self.live_call.update(state="connected", connected_at=self.connected_at.isoformat())
        await self.ctx.live.put(self.live_call)
        await self._talk_within_credit(self.bridge, hold, covered)
        return Disposition.ANSWERED

    async def _record(self, bridge: str) -> None:
        """Record both sides from the moment they meet; Asterisk keeps the file when the bridge goes.
        A recording that can't start is noted on the trail and the call goes on without it."""
        name = f"call-{self.linkedid}"  # Asterisk stores it as a recording of this name (ARI)
        try:
            await self.ctx.ari.record_bridge(bridge, name)
        except AriError as exc:
            self.note("record", f"recording could not start: {exc}", result="failed")
            return
        self.row["recording"] = name
        self.note("record", "both sides recorded", result="started", name=name)

    async def _talk_within_credit(self, bridge: str, hold: CreditHold, covered: float) -> None:
        """Wait for the target to hang up, holding credit slice by slice; end the call when the
        customer's credit runs out (so parallel calls can't spend the same money twice)."""
        assert self.connected_at is not None

        def target_gone(event: Event) -> bool:
            return channel_of(event) == self.outbound and event.get("type") in _LEG_ENDED

        while True:
            talked = (_now() - self.connected_at).total_seconds()
            wait = None if math.isinf(covered) else max(0.0, covered - talked - EXTEND_AHEAD_SECONDS)
            if await self.next_event(target_gone, wait) is not None:
                self.hangup_by = self.hangup_by or "target"
                return
            paid_for, covered = covered, await asyncio.to_thread(hold.take)
            if covered > paid_for:
                self.note("credit", f"credit held for {int(covered)} s of talk time", result="extended")
                continue
            self.note("credit", f"credit ran out after {int(covered)} s of talk time", result="stopped")
            remaining = covered - (_now() - self.connected_at).total_seconds()
            if await self.next_event(target_gone, max(0.0, remaining - WARNING_SECONDS)) is not None:
                self.hangup_by = self.hangup_by or "target"
                return
            try:
                await self.ctx.ari.play_bridge(bridge, "sound:vm-goodbye", f"pb-{uuid.uuid4().hex}")
            except AriError:
                log.warning("could not play the credit warning on %s", self.linkedid)
            if await self.next_event(target_gone, WARNING_SECONDS) is None:
                self.hangup_by = "system"
            return

    async def _finish(self, disposition: Disposition) -> None:
        ended = _now()
        for channel in (self.inbound, self.outbound):
            if channel:
                try:
                    await self._hang_up(channel)
                except Exception:  # Asterisk may be gone; the row below matters more
                    log.warning("could not hang up %s", channel)
        if self.bridge:
            try:
                await self.ctx.ari.destroy_bridge(self.bridge)
            except Exception:  # left over for the reconciliation to tidy
                log.warning("could not destroy bridge %s", self.bridge)
        self.row["ended_at"] = ended
        try:
            await self._save(disposition, ended)
        finally:
            # Only now: until its row is final, the reconciliation leaves this call to us (and
            # completes it from Asterisk's record should the save have failed).
            for channel, flow in list(self.ctx.channels.items()):
                if flow is self:
                    self.ctx.channels.pop(channel, None)
        try:
            await self.ctx.live.remove(self.linkedid)
        except Exception:
            log.exception("could not remove live call %s", self.linkedid)
        if self.ctx.after_hangup is not None:
            self.ctx.after_hangup(self.linkedid)

    async def _hang_up(self, channel: str, reason: str = "normal") -> None:
        """Hang up a leg once: a second request would cost a round trip and could change the
        cause the caller hears (486 Busy turned into 603 Decline)."""
        if channel not in self.ended:
            self.ended.add(channel)
            await self.ctx.ari.hangup(channel, reason)

    async def _save(self, disposition: Disposition, ended: datetime | None = None) -> None:
        await asyncio.to_thread(call_record.save, self._row(disposition, ended))

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


def _describe(status: str) -> str:
    return {
        "ANSWER": "target answered",
        "BUSY": "target busy (486)",
        "NOANSWER": "no answer within ring timeout",
        "CONGESTION": "trunk congested or call rejected",
        "CHANUNAVAIL": "target or trunk unavailable",
        "CANCEL": "dial cancelled",
    }.get(status, f"dial ended: {status}")
