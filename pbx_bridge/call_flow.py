"""One inbound call, from StasisStart to its call row (domain.md, "A call, from ring to invoice").

The bridge decides in Stasis (admission, the IVR, target selection), then sends the caller on to
the dialplan (`[callroute-dial]`, ARI continue) with the chosen targets in dialling order: Asterisk
dials them in turn, with failover, and bridges the caller with the first that answers. The bridge
follows the rest from the user events that dialplan raises over AMI (each failed attempt, the
answer, the end) and keeps the live view, the credit and the row.

Why the dialplan dials: holding every leg in Stasis cost a dozen ARI requests and events per call
(originate, a bridge, answers, hang-ups), which were most of Asterisk's and the bridge's work per
call; dialled by the dialplan, a call costs three requests after the decision (the plan, `continue`
and the subscription to the caller's channel, whose answer and hang-up bill it), its media is relayed
by Asterisk with nobody asking, and a talking call goes on if the bridge stops (the next one takes
it back, `resume`).

The call's facts are one `core.calls.CallState`: the row and the live view are its views. Each
call has its own event queue consumed by its own task, so the events of one call are handled in
the order Asterisk sent them. Database work runs in a thread so the event loop never blocks.
"""

import asyncio
import contextlib
import logging
import math
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from core import logs, names, q850
from core.ari import AriError
from core.calls import CallState, Result, Step, stopped_at
from core.enums import Disposition, HangupBy, LiveState, WebhookEvent
from core.models import Call
from core.names import cap_count_key, duplicate_key, live_target_key, live_trunk_key
from core.routing import Admission, Candidate, IvrSettings, Selection
from core.routing.auction import Auction
from core.routing.bids import CallFacts
from core.whisper import Whisper
from pbx_bridge.ami import AmiError
from pbx_bridge.credit_hold import CreditHold
from pbx_bridge.live_store import Counted, LiveStore
from pbx_bridge.metrics import CALLS
from pbx_bridge.row_writer import RowWriter
from pbx_bridge.trunks import endpoint_name
from pbx_bridge.whisper import WhisperFiles, heard, skipped, whisper_variables

log = logging.getLogger(__name__)
Event = dict[str, Any]

# The user events the dialplan raises for the call it dials (AMI), as the flows read them.
DIALPLAN_EVENTS = (names.ATTEMPT_EVENT, names.ANSWERED_EVENT, names.END_EVENT)
# What a dial string may hold: the dialplan splits its plan on ^ and Dial its arguments on , and &.
_DIALABLE = re.compile(r"[A-Za-z0-9+*#@:/._-]+")
_LET_GO = "LetGo"  # the event that tells a flow to let go of its call
_CANCELLED = 487  # Request Terminated: what a caller's CANCEL gets for its INVITE
_COUNTER_MARGIN = 3600  # a period counter outlives its period by this long (s): clocks differ
_CAPPED = re.compile(r"\b(cap|channels) \d+/\d+")  # a target skipped for its caps (core.routing)
# What a refused call hears before it is released (Asterisk's core sounds).
_NOT_ROUTED, _REJECTED, _ALL_BUSY = "ss-noservice", "cannot-complete-as-dialed", "all-circuits-busy-now"


@dataclass(frozen=True)
class Timing:
    """How long a call waits for what (seconds). Tests shorten them; the defaults are the product's."""

    extend_ahead: float = 10  # ask for the next credit slice this long before the paid-for time ends
    warning: float = 2  # the goodbye plays this long before credit runs out
    goodbye: float = 10  # how long the goodbye may take before the call is hung up regardless
    row_wait: float = 5  # how long a call's connected state waits for its answered row
    digit: float = 10  # how long the IVR waits for each PIN digit
    retry_prompt: float = 5  # the "wrong PIN" prompt's longest wait


class CallAri(Protocol):
    """ARI as a call's flow uses it (pbx_bridge.ari.Ari; a fake in the unit tests)."""

    async def answer(self, channel: str) -> None: ...

    async def hangup(self, channel: str, reason: str = "normal") -> None: ...

    async def play(self, channel: str, media: str, playback_id: str) -> None: ...

    async def continue_in_dialplan(self, channel: str, context: str, variables: dict[str, str]) -> None: ...

    async def follow(self, channel: str) -> None: ...

    async def channel_var(self, channel: str, name: str) -> str | None: ...


class CallAmi(Protocol):
    """AMI as a call's flow uses it (pbx_bridge.ami.Ami): actions; raises AmiError when it can't."""

    async def send(self, action: str, **fields: str) -> list[Any]: ...


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
    """What every call shares: the gateways, the stores, the router, and which flow owns which
    call (by the caller's channel id, which is the call's linkedid)."""

    ari: CallAri
    ami: CallAmi  # redirects a call out of credit to its goodbye
    live: LiveStore
    router: Router
    rows: RowWriter
    after_hangup: Callable[[str], None]  # told each call whose final row is in (rating)
    timing: Timing = field(default_factory=Timing)
    channels: dict[str, "CallFlow"] = field(default_factory=dict)
    node_id: str = ""  # this node's (core.nodes): the calls it answers for
    hooks: Callable[[WebhookEvent, CallState], None] = lambda kind, state: None  # webhooks' events
    auction: Auction = field(default_factory=Auction)  # asks bidding targets for bids (docs/bidding.md)
    whispers: WhisperFiles = field(default_factory=WhisperFiles.from_settings)  # where Asterisk plays them


def _now() -> datetime:
    return datetime.now(UTC)


def asterisk_time(event: Event) -> datetime | None:
    """When Asterisk says the dialplan event happened (`At`: epoch seconds to the microsecond, from
    the dialplan's STRFTIME), not when the bridge heard it: talk time is billed from these when the
    caller's channel's own answer or hang-up (`ari_time`) was not heard."""
    seconds, _, fraction = str(event.get("at") or "").partition(".")
    if not seconds.isdigit() or not (fraction or "0").isdigit():
        return None
    micros = int((fraction + "000000")[:6])
    return datetime.fromtimestamp(int(seconds), UTC) + timedelta(microseconds=micros)


def ari_time(event: Event) -> datetime | None:
    """When Asterisk says an ARI event happened (its `timestamp`, to the millisecond: the moment
    Asterisk published it, not when the bridge heard it)."""
    try:
        return datetime.strptime(str(event.get("timestamp")), "%Y-%m-%dT%H:%M:%S.%f%z").astimezone(UTC)
    except ValueError:
        return None


def channel_of(event: Event) -> str | None:
    """The channel an ARI event is about (a playback's: the channel it plays on)."""
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
    def __init__(self, ctx: Context, state: CallState, inbound_name: str = "", exten: str | None = None):
        self.ctx = ctx
        self.call = state
        self.inbound = state.linkedid  # the caller's channel: the call's first, its id the linkedid
        self.inbound_name = inbound_name  # AMI names channels by name, not id
        # The extension dialled, as Asterisk received it (`did` is the dialplan's filtered copy).
        self.exten = exten
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.tariff_id: int | None = None  # the customer's, once admitted
        self.record = False  # the campaign's choice, once admitted
        self.whisper: Whisper | None = None  # what the target hears before it is connected, once admitted
        self.decided: Disposition | None = None  # refused: what the call is, whoever hangs up now
        self.resumed = False  # taken back after a bridge restart
        self.in_dialplan = False  # sent on to the dialplan, which dials: its StasisEnd is no hang-up
        self.finished = False  # its final row is written or on its way
        self.gone = False  # the caller's channel was hung up by us or seen ending: not again
        self.ended_at: datetime | None = None  # the caller's channel's end, by Asterisk's clock
        self.counted: list[Counted] = []  # the period cap slots claimed at the first target
        self.caller_key: str | None = None  # the repeat-caller key this call holds (names.duplicate_key)

    @classmethod
    def start(cls, ctx: Context, channel: Event, did: str, caller: str) -> "CallFlow":
        """A call that has just entered Stasis (its StasisStart's channel and arguments)."""
        state = CallState(linkedid=str(channel["id"]), did=did, caller=caller, started_at=_now())
        exten = channel.get("dialplan", {}).get("exten")
        return cls(ctx, state, str(channel.get("name", "")), exten)

    @classmethod
    def resume(cls, ctx: Context, row: Call) -> "CallFlow":
        """Take back a call that was talking when the bridge stopped (it talks on in the dialplan)."""
        flow = cls(ctx, CallState.of_row(row))
        flow.in_dialplan = flow.resumed = True
        return flow

    @property
    def linkedid(self) -> str:
        return self.call.linkedid

    def deliver(self, event: Event) -> None:
        self.queue.put_nowait(event)

    def let_go(self) -> None:
        """Stop following the call (see LetGo), whatever the flow waits for."""
        self.deliver({"type": _LET_GO})

    def note(self, step: Step, result: Result, reason: str, **fields: Any) -> None:
        self.call.note(step, result, reason, _now(), **fields)

    def hung_up_from_portal(self, user_id: Any) -> None:
        """A user hangs the call up from the live calls screen (the hang-up itself is ARI's)."""
        self._hung_up(HangupBy.PORTAL, f"hung up from the portal by user {user_id}", user_id=user_id)

    def _hung_up(self, by: HangupBy, reason: str, step: Step = Step.HANGUP, **fields: Any) -> None:
        """Someone ended the call before it was over: the first to do so is on the row and the
        trail (the call stops once, at the first stop)."""
        self.call.hung_up_by(by)
        if stopped_at(self.call.trail) is None:
            disposition = self._abandoned().value
            self.note(step, Result.STOPPED, reason, by=by.value, disposition=disposition, **fields)

    def _abandoned(self) -> Disposition:
        """What the call counts as when the caller hangs up now: what a refusal decided, answered
        once connected, and before that abandoned (no answer)."""
        if self.decided is not None:
            return self.decided
        return Disposition.ANSWERED if self.call.connected_at else Disposition.NO_ANSWER

    async def next_event(self, match: Callable[[Event], bool], timeout: float | None) -> Event | None:
        """The next event `match` accepts, or None after `timeout`; raises CallerGone when the
        caller hangs up while the call is in Stasis."""
        try:
            # One deadline for the whole wait (asyncio.timeout: no task per event, as wait_for makes).
            async with asyncio.timeout(timeout):
                while True:
                    event = await self.queue.get()
                    kind = event.get("type")
                    if kind == _LET_GO:
                        raise LetGo
                    if kind == "StasisEnd" and channel_of(event) == self.inbound and not self.in_dialplan:
                        self.gone = True
                        self.call.hung_up_by(HangupBy.CALLER)
                        self._released(16, 200 if self.call.answered_at else _CANCELLED)
                        raise CallerGone
                    if kind == "ChannelStateChange" and channel_of(event) == self.inbound:
                        self._caller_state(event)
                    if kind == "ChannelHangupRequest" and channel_of(event) == self.inbound:
                        self._caller_hung_up(event)
                    if kind == names.END_EVENT:  # the caller's channel is gone: nothing left to hang up
                        self.gone = True
                        self._ends(asterisk_time(event))
                        if str(event.get("cause") or "").isdigit():
                            self.call.hangup_cause = int(event["cause"])
                    if match(event):
                        return event
        except TimeoutError:
            return None

    # --- the call -----------------------------------------------------------------------------

    async def run(self) -> None:
        with logs.about_call(self.linkedid):  # every line this call's task logs names it
            await self._follow()

    async def _follow(self) -> None:
        try:
            disposition = await (self._carry_on() if self.resumed else self._route())
        except CallerGone:
            self._hung_up(HangupBy.CALLER, "caller hung up")
            disposition = self._abandoned()
        except (LetGo, asyncio.CancelledError) as stop:
            if not self.in_dialplan:  # a call still in Stasis can't go on without us
                reason = "the bridge stopped while the call was being routed"
                self.note(Step.BRIDGE, Result.STOPPED, reason, disposition=Disposition.FAILED.value)
                await self._finish(Disposition.FAILED)
            else:
                await self._release()
            if isinstance(stop, asyncio.CancelledError):
                raise
            return
        except Exception:
            log.exception("call %s failed", self.linkedid)
            disposition = self.call.provisional
            reason = "the bridge failed handling this call"
            self.note(Step.BRIDGE, Result.STOPPED, reason, disposition=disposition.value)
        await self._finish(disposition)

    async def _carry_on(self) -> Disposition:
        """A resumed call goes on until a side hangs up."""
        self.note(Step.BRIDGE, Result.PASSED, "the bridge restarted and took the call back")
        await self.ctx.live.put(self.call.live())
        self._ended_by(await self.next_event(_is_end, None))
        return Disposition.ANSWERED

    def _admitted(self, admission: Admission) -> None:
        """Take in what admission decided, and write the call's first row: a row exists from the
        first moment, whatever happens next."""
        call = self.call
        call.trail.extend(admission.trail)
        self.tariff_id, self.record, self.whisper = admission.tariff_id, admission.record, admission.whisper
        # E.164 where they parse, as the engine normalised them.
        call.did, call.caller = admission.did, admission.caller
        call.origin = admission.origin.columns() if admission.origin else None
        call.user_id, call.campaign_id, call.number_id = (
            admission.user_id,
            admission.campaign_id,
            admission.number_id,
        )
        self.ctx.rows.write(call.row(_now()))
        self.ctx.hooks(WebhookEvent.INCOMING, call)

    async def _route(self) -> Disposition:
        self.ctx.live.starting(self.linkedid)
        if self.exten is not None and self.exten != self.call.did:  # refused, not routed to another number
            reason = f"the dialled number {self.exten!r} holds characters no phone number has"
            self.note(Step.ROUTE, Result.STOPPED, reason, disposition=Disposition.NO_ROUTE.value)
            await self._refuse(Disposition.NO_ROUTE)
            return Disposition.NO_ROUTE
        did, caller = self.call.did, self.call.caller
        admission, selection = await asyncio.to_thread(self.ctx.router.route, did, caller, _now())
        self._admitted(admission)
        # Shown live from the first step that takes time: a prompt, the IVR or the first dial.
        if admission.disposition is not None:
            await self._refuse(admission.disposition)
            return Disposition(admission.disposition)
        if (ivr := admission.ivr_to_pass) is not None and not await self._ivr(ivr):
            await self._refuse(Disposition.IVR_FAILED)
            return Disposition.IVR_FAILED
        if selection is None:  # after the IVR: chosen now, with the counts of now
            selection = await asyncio.to_thread(self.ctx.router.select, admission, caller, _now())
        selection = (await self.ctx.auction.run(selection, self._call_facts(selection))).selection
        self.call.trail.extend(selection.trail)
        if selection.disposition is not None:
            await self._refuse(selection.disposition)
            return Disposition(selection.disposition)
        if selection.reject_repeats_for and admission.campaign_id is not None:
            key = duplicate_key(admission.campaign_id, self.call.caller)
            holder = await self.ctx.live.hold_caller(key, self.linkedid, selection.reject_repeats_for)
            if holder is not None:  # the same caller's other call, on this node or another
                self.decided = Disposition.DUPLICATE
                reason = f"caller {self.call.caller} is being connected on call {holder} of the campaign"
                self.note(Step.DUPLICATE, Result.STOPPED, reason, disposition=self.decided.value)
                await self._refuse(self.decided)
                return self.decided
            self.caller_key = key
        return await self._dial(selection.candidates, admission.ring_timeout or 30)

    def _call_facts(self, selection: Selection) -> CallFacts:
        """What this call's bidders are told (core.routing.bids)."""
        campaign_id = self.call.campaign_id or 0
        return CallFacts(self.linkedid, campaign_id, selection.campaign_name, self.call.caller)

    async def _refuse(self, disposition: Disposition) -> None:
        """Release a call the platform will not connect the carrier's way: the dialplan plays why
        as early media (never answered) and hangs up with a cause that says it (docs/routing.md,
        "Refused calls")."""
        self.decided = Disposition(disposition)  # hanging up during the announcement changes nothing
        cause, sound = refusal(self.decided, self.call.trail)
        variables = {"CR_CAUSE": str(cause), "CR_SOUND": sound}
        try:
            await self.ctx.ari.continue_in_dialplan(self.inbound, names.REFUSE_CONTEXT, variables)
        except AriError as exc:
            if exc.status in (404, 409, 412):  # the caller went first
                raise CallerGone from None
            raise
        self.in_dialplan = True
        self._ended_by(await self.next_event(_is_end, None))
        answered = self.call.answered_at is not None  # by the IVR, before it failed
        released = q850.sip_status(cause) if self.call.hangup_by == HangupBy.SYSTEM else _CANCELLED
        self.call.sip_status = 200 if answered else released

    async def _answer(self) -> None:
        await self.ctx.ari.answer(self.inbound)
        self.call.answered_at = _now()

    async def _play(self, media: str, wait: float) -> None:
        playback = f"pb-{uuid.uuid4().hex}"
        await self.ctx.ari.play(self.inbound, media, playback)
        await self.next_event(
            lambda e: e.get("type") == "PlaybackFinished" and e["playback"]["id"] == playback, wait
        )

    async def _ivr(self, ivr: IvrSettings) -> bool:
        """Answer, ask for the PIN as DTMF, allow `attempts` tries."""
        await self._answer()
        self.call.live_state = LiveState.IVR
        await self.ctx.live.put(self.call.live())
        for attempt in range(1, ivr.attempts + 1):
            await self.ctx.ari.play(
                self.inbound, f"sound:{ivr.prompt or 'agent-pass'}", f"pb-{uuid.uuid4().hex}"
            )
            digits = await self._collect_digits(ivr.digits, self.ctx.timing.digit)
            if digits in ivr.pins:
                self.note(Step.IVR, Result.PASSED, "PIN accepted", attempt=attempt)
                self.call.ivr_result = Result.PASSED.value
                return True
            why = "wrong PIN" if digits else "no PIN entered"
            if attempt < ivr.attempts:
                self.note(Step.IVR, Result.FAILED, why, attempt=attempt)
                await self._play("sound:auth-incorrect", self.ctx.timing.retry_prompt)
        self.decided = Disposition.IVR_FAILED
        self.note(Step.IVR, Result.STOPPED, why, attempt=attempt, disposition=self.decided.value)
        self.call.ivr_result = Result.FAILED.value
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
                self.note(Step.DIAL, Result.SKIPPED, why, **_attempt(candidate))
        if not dialled:
            self.decided = Disposition.FAILED
            reason = "no target could be dialled"
            self.note(Step.DIAL, Result.STOPPED, reason, disposition=Disposition.FAILED.value)
            await self._refuse(Disposition.FAILED)
            return Disposition.FAILED
        while dialled and (full := await self._claim(dialled[0])) is not None:
            self.note(Step.TARGET, Result.SKIPPED, full, **_attempt(dialled[0]))
            del dialled[0], endpoints[0]
        if not dialled:  # each was taken to its cap by parallel calls since it was chosen
            self.decided = Disposition.NO_ROUTE
            reason = "no target available: their caps were taken by parallel calls"
            self.note(Step.SELECT, Result.STOPPED, reason, disposition=self.decided.value)
            await self._refuse(self.decided)
            return self.decided
        answer = names.RECORDED_ANSWER if self.record else names.ANSWER_ROUTINE
        played = await self.ctx.whispers.ensure(self.whisper.sound) if self.whisper else None
        if self.whisper is not None and played is None:
            skipped(self.call, self.whisper, _now())
        whispering = whisper_variables(played)
        await self._ringing(dialled[0])
        try:
            plan = "^".join([str(ring_timeout), answer, *endpoints])
            variables = {"CR_PLAN": plan, **whispering}
            # Sent together: the caller is answered no sooner than a target, long after both.
            await asyncio.gather(
                self._follow_caller(),
                self.ctx.ari.continue_in_dialplan(self.inbound, names.DIAL_CONTEXT, variables),
            )
        except AriError as exc:
            if exc.status in (404, 409, 412):  # the caller went before the call could be sent on
                raise CallerGone from None
            raise
        self.in_dialplan = True
        statuses: list[str] = []
        at = 0  # the target the dialplan dials now (its attempt number is at + 1)
        while True:
            event = await self.next_event(lambda e: e.get("type") in DIALPLAN_EVENTS, None)
            assert event is not None
            candidate = dialled[at]
            if event["type"] == names.ATTEMPT_EVENT:
                status = str(event.get("status") or "CHANUNAVAIL")
                statuses.append(status)
                if self.counted:  # the target claimed did not take the call
                    await self._unclaim()
                cause = int(event["cause"]) if str(event.get("cause") or "").isdigit() else None
                sip = event.get("sip") or f"cause {cause or 0}"
                self.call.sip_status = _sip_status(sip) or q850.sip_status(cause)
                fields = {"status": status, "sip": sip, "sip_status": self.call.sip_status}
                if at + 1 < len(dialled):  # the next target with room is dialled (_claim_failover)
                    self.note(Step.DIAL, Result.FAILED, _describe(status), **fields, **_attempt(candidate))
                    if (claimed := await self._claim_failover(dialled, at + 1)) is not None:
                        at = claimed
                        await self._ringing(dialled[at])
                        continue
                    self.decided = _all_failed(statuses)
                    reason = "no target left: the others' caps were taken by parallel calls"
                    self.note(Step.SELECT, Result.STOPPED, reason, disposition=self.decided.value)
                else:  # nobody left: the dialplan hangs up, the call ends (CallrouteEnd follows)
                    self.decided = _all_failed(statuses)
                    fields["disposition"] = self.decided.value
                    self.note(Step.DIAL, Result.STOPPED, _describe(status), **fields, **_attempt(candidate))
            elif event["type"] == names.ANSWERED_EVENT:
                self.call.sip_status = 200
                answered = {"status": "ANSWER", "sip_status": 200, **_attempt(candidate)}
                self.note(Step.DIAL, Result.PASSED, _describe("ANSWER"), **answered)
                if self.whisper is not None and whispering:
                    heard(self.call, self.whisper, _now())
                return await self._talk(event)
            elif whispering and event.get("status") == "ANSWER":  # answered, over before the bridge
                self._ended_by(event)  # the target's leg when the dialplan says so, else the caller
                why = "the call ended during the whisper, before the target was connected"
                self._hung_up(HangupBy.CALLER, why, Step.DIAL, status="ANSWER", **_attempt(candidate))
                return self._abandoned()
            elif self.decided is None:  # over while a target rang: the caller gave up
                why = "caller hung up while the target rang"
                self.call.sip_status = _CANCELLED  # Dial cancels the target's INVITE too
                cancelled = {"status": "CANCEL", "sip_status": _CANCELLED, **_attempt(candidate)}
                self._hung_up(HangupBy.CALLER, why, Step.DIAL, **cancelled)
                return self._abandoned()
            else:  # every target tried; the dialplan hung up (486 when all were busy)
                return self.decided

    async def _follow_caller(self) -> None:
        """Keep hearing the caller's channel in the dialplan: its answer starts talk time. Without
        it, talk time starts at the target's answer (the dialplan's `At`), a little early."""
        try:
            await self.ctx.ari.follow(self.inbound)
        except AriError as exc:
            log.warning("could not follow the caller's channel %s: %s", self.inbound, exc)

    def _caller_state(self, event: Event) -> None:
        """The caller's channel answered (`Up`), by Asterisk's clock: Dial answers it after the
        target, as it bridges them, and its 200 OK leaves within a few ms (docs/billing.md, "Talk
        time"). Billed time starts there, and talk time too when the target answered first (it
        did, unless the IVR had answered the caller long before)."""
        up = ari_time(event) if event.get("channel", {}).get("state") == "Up" else None
        if up is None:
            return
        call = self.call
        call.answered_at = up
        if call.connected_at is not None:
            call.connected_at = max(call.connected_at, up)

    def _caller_hung_up(self, event: Event) -> None:
        """The caller's side hung up (a hangup request from its channel driver: its BYE, as
        Asterisk's SIP stack took it in; a soft one is Asterisk's own, ARI's or a redirect). Under
        load the dialplan's end (`At`, in the h extension) runs up to hundreds of ms after it."""
        if not event.get("soft"):
            self._ends(ari_time(event))

    def _ends(self, at: datetime | None) -> None:
        """The call's end by Asterisk's clock: the first moment it knew."""
        if at is not None:
            self.ended_at = min(self.ended_at or at, at)

    async def _claim(self, candidate: Candidate) -> str | None:
        """Take a slot in the target's caps and its trunk's channel limit, shared by every node
        (pbx_bridge.live_store); None when taken, else why the target is full. The period slots
        are given back unless the call connects to this target (`_unclaim`)."""
        limits: list[tuple[str, int]] = []
        why: list[str] = []
        if candidate.concurrency_cap is not None:
            cap = candidate.concurrency_cap
            limits.append((live_target_key(candidate.target_id), cap))
            why.append(f"concurrency cap {cap}/{cap}")
        if candidate.trunk is not None and candidate.trunk.max_channels is not None:
            most, trunk = candidate.trunk.max_channels, candidate.trunk
            limits.append((live_trunk_key(trunk.id), most))
            why.append(f"trunk '{trunk.name}' channels {most}/{most}")
        now = _now()
        counted = [
            Counted(
                cap_count_key(candidate.target_id, use.label, use.start.isoformat()),
                use.used,
                use.cap,
                math.ceil((use.end - now).total_seconds()) + _COUNTER_MARGIN,
            )
            for use in candidate.period_caps
        ]
        why += [f"{use.label} cap {use.cap}/{use.cap}" for use in candidate.period_caps]
        full = await self.ctx.live.claim(self.linkedid, limits, counted)
        if full is not None:
            return f"{why[full]}, taken by a parallel call"
        self.counted = counted
        return None

    async def _claim_failover(self, dialled: list[Candidate], start: int) -> int | None:
        """Claim the first of `dialled[start:]` with room, as `_claim` did the first target, and
        tell the dialplan, which waits before each next attempt (CR_GO_<attempt>: `dial`, or
        `skip` for a target full since it was chosen); its index, or None when all are full. Without
        AMI the dialplan stops waiting after FAILOVER_WAIT and dials unclaimed, as before claims."""
        for index in range(start, len(dialled)):
            full = await self._claim(dialled[index])
            if full is not None:
                self.note(Step.TARGET, Result.SKIPPED, full, **_attempt(dialled[index]))
            go = "skip" if full else "dial"
            try:
                await self.ctx.ami.send(
                    "Setvar", Channel=self.inbound_name, Variable=f"CR_GO_{index + 1}", Value=go
                )
            except AmiError as exc:
                log.warning("could not tell the dialplan to %s attempt %d: %s", go, index + 1, exc)
            if full is None:
                return index
        return None

    async def _unclaim(self) -> None:
        """The claimed target will not take the call: its period slots are free again."""
        counted, self.counted = self.counted, []
        try:
            await self.ctx.live.unclaim(counted)
        except Exception:  # Redis away: the slots stay taken until the period ends (never over a cap)
            log.exception("could not give back the cap slots of %s", self.linkedid)

    async def _let_caller_go(self) -> None:
        """A call that reached no buyer does not hold its caller: the next call may be connected."""
        key, self.caller_key = self.caller_key, None
        if key is None:
            return
        try:
            await self.ctx.live.release_caller(key, self.linkedid)
        except Exception:  # Redis away: the caller is held until the window ends
            log.exception("could not release the caller of %s", self.linkedid)

    async def _ringing(self, candidate: Candidate) -> None:
        """The target the call rings now, in the live view and on the row (which keeps the last
        one rung when none answers)."""
        call = self.call
        call.target_id, call.buyer_id = candidate.target_id, candidate.buyer_id
        call.trunk_id = candidate.trunk_id
        call.target_name, call.destination = candidate.name, candidate.destination
        self.ctx.hooks(WebhookEvent.ROUTED, call)
        call.bid = candidate.bid  # a bidder's payout is its bid (rating takes it in place of the target's)
        await self.ctx.live.put(call.live())

    async def _talk(self, answered: Event) -> Disposition:
        call = self.call
        call.connected_at = asterisk_time(answered) or _now()
        if call.answered_at is None:  # Dial answers the caller next (_caller_state says when)
            call.answered_at = call.connected_at
        else:  # by the IVR before, or (its event first) by Dial just now
            call.connected_at = max(call.connected_at, call.answered_at)
        self.ctx.hooks(WebhookEvent.CONNECTED, call)
        if self.record:
            if answered.get("recording"):
                call.recording = names.recording_name(self.linkedid)
                self.note(Step.RECORD, Result.PASSED, "both sides recorded", name=call.recording)
            else:
                self.note(Step.RECORD, Result.FAILED, "recording could not start")
        assert call.user_id is not None and call.destination is not None  # admitted, then dialled
        hold = CreditHold(call.user_id, self.tariff_id, self.linkedid, call.destination, call.connected_at)
        # The answered row: a bridge restarted after it is in takes the call back from it. The call
        # shows connected only then (at the writer's next tick, at most 50 ms on), so whatever saw
        # it connected can count on the row. A bridge that dies in between leaves it unconnected.
        written = asyncio.Event()
        self.ctx.rows.write(call.row(_now()), then=lambda _: written.set())
        covered = await hold.next_slice()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.ctx.timing.row_wait):  # the database may be down: go on
                await written.wait()
        call.live_state = LiveState.CONNECTED
        await self.ctx.live.put(call.live())
        await self._talk_within_credit(hold, covered)
        return Disposition.ANSWERED

    def _ended_by(self, event: Event | None) -> None:
        """Who hung up, from the call's end (unless the bridge itself ended it, and said so)."""
        if event is not None:
            by = {"target": HangupBy.TARGET, "system": HangupBy.SYSTEM}.get(str(event.get("by")))
            self.call.hung_up_by(by or HangupBy.CALLER)

    async def _talk_within_credit(self, hold: CreditHold, covered: float) -> None:
        """Wait for a side to hang up, holding credit slice by slice; end the call when the
        customer's credit runs out (so parallel calls can't spend the same money twice)."""
        connected_at = self.call.connected_at
        assert connected_at is not None
        timing = self.ctx.timing
        while True:
            talked = (_now() - connected_at).total_seconds()
            wait = None if math.isinf(covered) else max(0.0, covered - talked - timing.extend_ahead)
            if (end := await self.next_event(_is_end, wait)) is not None:
                return self._ended_by(end)
            paid_for, covered = covered, await hold.next_slice()
            if covered > paid_for:
                self.note(Step.CREDIT, Result.PASSED, f"credit held for {int(covered)} s of talk time")
                continue
            reason = f"credit ran out after {int(covered)} s of talk time"
            self.note(Step.CREDIT, Result.STOPPED, reason, disposition=Disposition.ANSWERED.value)
            remaining = covered - (_now() - connected_at).total_seconds()
            if (end := await self.next_event(_is_end, max(0.0, remaining - timing.warning))) is not None:
                return self._ended_by(end)
            self.call.hung_up_by(HangupBy.SYSTEM)
            await self._say_goodbye()
            if await self.next_event(_is_end, timing.goodbye) is None:
                await self._hang_up()
            return

    async def _say_goodbye(self) -> None:
        """Both sides hear goodbye, then Asterisk hangs them up. The call talks in the dialplan's
        bridge, out of ARI's reach: AMI moves both legs to the goodbye. When AMI can't, the call
        is only hung up, when the paid-for time is over."""
        peer = await self.ctx.ari.channel_var(self.inbound, "BRIDGEPEER")
        try:
            if not peer:
                raise AmiError("no target leg to redirect")
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
            await asyncio.sleep(self.ctx.timing.warning)
            await self._hang_up()

    async def _finish(self, disposition: Disposition) -> None:
        ended = self.ended_at or _now()  # a call ended in Stasis: the bridge hangs it up now
        if self.call.connected_at is None:
            await self._unclaim()
            await self._let_caller_go()
        try:
            await self._hang_up()
        except Exception:  # Asterisk may be gone; the row below matters more
            log.warning("could not hang up %s", self.inbound)
        self.call.ended_at, self.call.disposition = ended, disposition
        self.call.hung_up_by(HangupBy.SYSTEM)  # nobody else did: the platform released the call
        self.finished = True
        self.ctx.rows.write(self.call.row(_now()), then=self._written)
        await self._unlist()

    def _written(self, linkedid: str) -> None:
        """The final row is in the database: the call is no longer ours (until then the
        reconciliation leaves it to us, and completes it from Asterisk's record should the row
        never be written), and it goes to rating."""
        self._disown()
        disposition = (self.call.disposition or self.call.provisional).value
        CALLS.labels(disposition).inc()
        with logs.about_call(linkedid):  # the row writer's task, not the call's
            log.info("call ended: %s", disposition)
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

    async def _hang_up(self) -> None:
        """Hang up the caller once: a second request would cost a round trip and could change the
        cause the caller hears (486 Busy turned into 603 Decline). ARI hangs a channel up in the
        dialplan too."""
        if not self.gone:
            self.gone = True
            self._released(16, 200 if self.call.answered_at else None)
            await self.ctx.ari.hangup(self.inbound, "normal")

    def _released(self, cause: int, sip_status: int | None) -> None:
        """The caller's channel ends with `cause` (Q.850); an unanswered caller's INVITE gets the
        status Asterisk maps it to, unless `sip_status` says what it got."""
        self.call.hangup_cause = cause
        if self.call.sip_status is None:  # a target's status, once dialled, stays the call's
            self.call.sip_status = sip_status or q850.sip_status(cause)


def refusal(disposition: Disposition, trail: list[dict[str, Any]]) -> tuple[int, str]:
    """The Q.850 cause a refused call is released with, and the announcement it hears first."""
    if disposition in (Disposition.BLOCKED, Disposition.DUPLICATE, Disposition.IVR_FAILED):
        return 21, _REJECTED  # call rejected: 403
    if disposition == Disposition.NO_ROUTE and stopped_at(trail) == Step.SELECT:  # no target free now
        skipped = [e["reason"] for e in trail if e["step"] == Step.TARGET]
        if skipped and all(_CAPPED.search(reason) for reason in skipped):
            return 17, _ALL_BUSY  # every target at its caps: user busy, 486
        return 34, _ALL_BUSY  # closed hours, targets paused: no circuit now, 503
    if disposition == Disposition.NO_ROUTE:
        return 1, _NOT_ROUTED  # not a number the platform routes: unallocated, 404
    return 34, _ALL_BUSY  # no balance, no target that could be dialled: 503


def _is_end(event: Event) -> bool:
    return event.get("type") == names.END_EVENT


def _all_failed(statuses: list[str]) -> Disposition:
    """The call's disposition when every target was tried and none answered."""
    if set(statuses) == {"BUSY"}:
        return Disposition.BUSY
    return Disposition.NO_ANSWER if "NOANSWER" in statuses else Disposition.FAILED


def _sip_status(tech_cause: str) -> int | None:
    """The status in Asterisk's technology cause of a leg ("SIP 486 Busy Here" -> 486)."""
    found = re.match(r"SIP (\d{3})\b", tech_cause)
    return int(found.group(1)) if found else None


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
