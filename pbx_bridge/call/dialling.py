"""Dialling: the caller sent on to the dialplan (`[callroute-dial]`, ARI continue) with the chosen
targets in dialling order; Asterisk dials them in turn, with failover, and bridges the caller with
the first that answers. The bridge follows each attempt from the user events that dialplan raises
(AMI): a failed one (the next target with room rings), the answer, the end."""

import asyncio
import logging
import re
from typing import TypedDict

from core.calls import q850
from core.calls.record import Result, Step, TrailValue
from core.infra import names
from core.pbx.ari import AriError
from core.routing import Admission, Candidate
from core.values.enums import Disposition, HangupBy, WebhookEvent
from pbx_bridge.ami import AmiError
from pbx_bridge.call.caller import CANCELLED, Caller, cause_of, is_dialplan_event, now
from pbx_bridge.call.claims import Claims
from pbx_bridge.call.context import CallerGone, Context
from pbx_bridge.call.ending import abandoned, ended_by, hung_up, refuse
from pbx_bridge.events import Event
from pbx_bridge.trunks import endpoint_name
from pbx_bridge.whisper import heard, skipped, whisper_variables

log = logging.getLogger(__name__)

# What a dial string may hold: the dialplan splits its plan on ^ and Dial its arguments on , and &.
_DIALABLE = re.compile(r"[A-Za-z0-9+*#@:/._-]+")


class Target(TypedDict):
    """What the trail says of a dial attempt's target."""

    target_id: int
    name: str
    trunk_id: int | None
    destination: str


def target(candidate: Candidate) -> Target:
    return {
        "target_id": candidate.target_id,
        "name": candidate.name,
        "trunk_id": candidate.trunk_id,
        "destination": candidate.destination,
    }


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


class Dialling:
    """One call's targets as the dialplan dials them: which rings now (`at`), the claim on it, and
    what each attempt ended with."""

    def __init__(self, ctx: Context, caller: Caller, claims: Claims, admission: Admission) -> None:
        self.ctx, self.caller, self.claims, self.admission = ctx, caller, claims, admission
        self.call = caller.call
        self.dialled: list[Candidate] = []  # in dialling order, each with its dial string
        self.endpoints: list[str] = []
        self.at = 0  # the target the dialplan dials now (its attempt number is at + 1)
        self.statuses: list[str] = []  # each failed attempt's dial status
        self.whispering: dict[str, str] = {}  # the dialplan's whisper variable, when one plays

    @property
    def ringing(self) -> Target:
        return target(self.dialled[self.at])

    async def dial(self, candidates: list[Candidate]) -> Disposition | Event:
        """The answer's event once a target answered; else what the call is."""
        if not self._dialable(candidates):
            return await self._stop(Step.DIAL, Disposition.FAILED, "no target could be dialled")
        if not await self._claim_first():  # each was taken to its cap by parallel calls since it was chosen
            reason = "no target available: their caps were taken by parallel calls"
            return await self._stop(Step.SELECT, Disposition.NO_ROUTE, reason)
        await self._send_on()
        while True:
            event = await self.caller.next_event(is_dialplan_event, None)
            assert event is not None  # no timeout
            kind = event.get("type")
            if kind == names.ATTEMPT_EVENT:
                await self._failed(event)
            elif kind == names.ANSWERED_EVENT:
                return self._answered(event)
            else:
                return self._over(event)

    def _dialable(self, candidates: list[Candidate]) -> bool:
        for candidate in candidates:
            endpoint = dial_endpoint(candidate)
            if endpoint is not None and _DIALABLE.fullmatch(endpoint):
                self.dialled.append(candidate)
                self.endpoints.append(endpoint)
            else:
                why = "target has no outbound trunk" if endpoint is None else "destination can't be dialled"
                self.call.note(Step.DIAL, Result.SKIPPED, why, now(), **target(candidate))
        return bool(self.dialled)

    async def _claim_first(self) -> bool:
        while self.dialled and (full := await self.claims.take(self.dialled[0])) is not None:
            self.call.note(Step.TARGET, Result.SKIPPED, full, now(), **target(self.dialled[0]))
            del self.dialled[0], self.endpoints[0]
        return bool(self.dialled)

    async def _stop(self, step: Step, disposition: Disposition, reason: str) -> Disposition:
        self.call.note(step, Result.STOPPED, reason, now(), disposition=disposition.value)
        return await refuse(self.ctx, self.caller, disposition)

    async def _send_on(self) -> None:
        """The caller to the dialplan with its plan: the ring timeout, the answer routine (recorded
        or not), the dial strings, and the whisper the targets hear first."""
        call, whisper = self.call, self.admission.whisper
        answer = names.RECORDED_ANSWER if self.admission.record else names.ANSWER_ROUTINE
        played = await self.ctx.whispers.ensure(whisper.sound) if whisper else None
        if whisper is not None and played is None:
            skipped(call, whisper, now())
        self.whispering = whisper_variables(played)
        await self._ring()
        plan = "^".join([str(self.admission.ring_timeout or 30), answer, *self.endpoints])
        variables = {"CR_PLAN": plan, **self.whispering}
        try:
            # Sent together: the caller is answered no sooner than a target, long after both.
            await asyncio.gather(
                self.caller.follow(),
                self.ctx.ari.continue_in_dialplan(self.caller.id, names.DIAL_CONTEXT, variables),
            )
        except AriError as exc:
            if exc.status in (404, 409, 412):  # the caller went before the call could be sent on
                raise CallerGone from None
            raise
        self.caller.in_dialplan = True

    async def _ring(self) -> None:
        """The target the call rings now, in the live view and on the row (which keeps the last
        one rung when none answers)."""
        call, candidate = self.call, self.dialled[self.at]
        call.target_id, call.buyer_id = candidate.target_id, candidate.buyer_id
        call.trunk_id = candidate.trunk_id
        call.target_name, call.destination = candidate.name, candidate.destination
        self.ctx.hooks(WebhookEvent.ROUTED, call)
        call.bid = candidate.bid  # a bidder's payout is its bid (rating takes it in place of the target's)
        await self.ctx.live.put(call.live())

    async def _failed(self, event: Event) -> None:
        """An attempt failed: the next target with room rings, or none is left (the dialplan then
        hangs up and the call's end follows)."""
        call = self.call
        status = event.get("status") or "CHANUNAVAIL"
        self.statuses.append(status)
        await self.claims.give_back()  # the target claimed did not take the call
        cause = cause_of(event)
        sip = event.get("sip") or f"cause {cause or 0}"
        call.sip_status = _sip_status(sip) or q850.sip_status(cause)
        attempt: dict[str, TrailValue] = {"status": status, "sip": sip, "sip_status": call.sip_status}
        if self.at + 1 == len(self.dialled):
            call.disposition = _all_failed(self.statuses)
            stopped = {**attempt, "disposition": call.disposition.value}
            call.note(Step.DIAL, Result.STOPPED, _describe(status), now(), **stopped, **self.ringing)
            return
        call.note(Step.DIAL, Result.FAILED, _describe(status), now(), **attempt, **self.ringing)
        if (claimed := await self._claim_next()) is not None:
            self.at = claimed
            await self._ring()
            return
        call.disposition = _all_failed(self.statuses)
        reason = "no target left: the others' caps were taken by parallel calls"
        call.note(Step.SELECT, Result.STOPPED, reason, now(), disposition=call.disposition.value)

    async def _claim_next(self) -> int | None:
        """Claim the first target after the one that failed with room, and tell the dialplan, which
        waits before each next attempt (CR_GO_<attempt>: `dial`, or `skip` for a target full since
        it was chosen); its index, or None when all are full. Without AMI the dialplan stops
        waiting after FAILOVER_WAIT and dials unclaimed, as before claims."""
        for index in range(self.at + 1, len(self.dialled)):
            full = await self.claims.take(self.dialled[index])
            if full is not None:
                self.call.note(Step.TARGET, Result.SKIPPED, full, now(), **target(self.dialled[index]))
            go = "skip" if full else "dial"
            try:
                await self.ctx.ami.send(
                    "Setvar", Channel=self.caller.name, Variable=f"CR_GO_{index + 1}", Value=go
                )
            except AmiError as exc:
                log.warning("could not tell the dialplan to %s attempt %d: %s", go, index + 1, exc)
            if full is None:
                return index
        return None

    def _answered(self, event: Event) -> Event:
        self.call.sip_status = 200
        answered: dict[str, TrailValue] = {"status": "ANSWER", "sip_status": 200}
        self.call.note(Step.DIAL, Result.PASSED, _describe("ANSWER"), now(), **answered, **self.ringing)
        if self.admission.whisper is not None and self.whispering:
            heard(self.call, self.admission.whisper, now())
        return event

    def _over(self, event: Event) -> Disposition:
        """The call ended before a target was connected."""
        call = self.call
        if self.whispering and event.get("status") == "ANSWER":  # answered, over before the bridge
            ended_by(call, event)  # the target's leg when the dialplan says so, else the caller
            why = "the call ended during the whisper, before the target was connected"
            hung_up(call, HangupBy.CALLER, why, Step.DIAL, status="ANSWER", **self.ringing)
            return abandoned(call)
        if call.disposition is None:  # over while a target rang: the caller gave up
            call.sip_status = CANCELLED  # Dial cancels the target's INVITE too
            why = "caller hung up while the target rang"
            cancelled: dict[str, TrailValue] = {"status": "CANCEL", "sip_status": CANCELLED}
            hung_up(call, HangupBy.CALLER, why, Step.DIAL, **cancelled, **self.ringing)
            return abandoned(call)
        return call.disposition  # every target tried; the dialplan hung up (486 when all were busy)


def _all_failed(statuses: list[str]) -> Disposition:
    """The call's disposition when every target was tried and none answered."""
    if set(statuses) == {"BUSY"}:
        return Disposition.BUSY
    return Disposition.NO_ANSWER if "NOANSWER" in statuses else Disposition.FAILED


def _sip_status(tech_cause: str) -> int | None:
    """The status in Asterisk's technology cause of a leg ("SIP 486 Busy Here" -> 486)."""
    found = re.match(r"SIP (\d{3})\b", tech_cause)
    return int(found.group(1)) if found else None


def _describe(status: str) -> str:
    return {
        "ANSWER": "target answered",
        "BUSY": "target busy (486)",
        "NOANSWER": "no answer within ring timeout",
        "CONGESTION": "trunk congested or call rejected",
        "CHANUNAVAIL": "target or trunk unavailable",
        "CANCEL": "dial cancelled",
    }.get(status, f"dial ended: {status}")
