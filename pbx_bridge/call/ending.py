"""How a call ends: who hung up, what the call counts as, a refused call's release, the goodbye
of a call out of credit, and the row's last write (then rating)."""

import asyncio
import logging
import re

from core.calls import q850
from core.calls.record import CallState, Entry, Result, Step, TrailValue, stopped_at
from core.infra import logs, names
from core.pbx.ari import AriError
from core.values.enums import Disposition, HangupBy
from pbx_bridge.ami import AmiError
from pbx_bridge.call.caller import CANCELLED, Caller, is_end, now
from pbx_bridge.call.claims import Claims
from pbx_bridge.call.context import CallerGone, Context
from pbx_bridge.events import Event
from pbx_bridge.metrics import CALLS

log = logging.getLogger(__name__)

_CAPPED = re.compile(r"\b(cap|channels) \d+/\d+")  # a target skipped for its caps (core.routing)
# What a refused call hears before it is released (Asterisk's core sounds).
_NOT_ROUTED, _REJECTED, _ALL_BUSY = "ss-noservice", "cannot-complete-as-dialed", "all-circuits-busy-now"


def ended_by(call: CallState, event: Event | None) -> None:
    """Who hung up, from the call's end (unless the bridge itself ended it, and said so)."""
    if event is not None:
        by = {"target": HangupBy.TARGET, "system": HangupBy.SYSTEM}.get(event.get("by", ""))
        call.hung_up_by(by or HangupBy.CALLER)


def hung_up(
    call: CallState, by: HangupBy, reason: str, step: Step = Step.HANGUP, **fields: TrailValue
) -> None:
    """Someone ended the call before it was over: the first to do so is on the row and the
    trail (the call stops once, at the first stop)."""
    call.hung_up_by(by)
    if stopped_at(call.trail) is None:
        call.note(
            step, Result.STOPPED, reason, now(), by=by.value, disposition=abandoned(call).value, **fields
        )


def abandoned(call: CallState) -> Disposition:
    """What the call counts as when the caller hangs up now: what a refusal decided, answered
    once connected, and before that abandoned (no answer)."""
    if call.disposition is not None:
        return call.disposition
    return Disposition.ANSWERED if call.connected_at else Disposition.NO_ANSWER


def refusal(disposition: Disposition, trail: list[Entry]) -> tuple[int, str]:
    """The Q.850 cause a refused call is released with, and the announcement it hears first."""
    if disposition in (Disposition.BLOCKED, Disposition.DUPLICATE, Disposition.IVR_FAILED):
        return 21, _REJECTED  # call rejected: 403
    if disposition == Disposition.NO_ROUTE and stopped_at(trail) == Step.SELECT:  # no target free now
        skipped = [str(e["reason"]) for e in trail if e["step"] == Step.TARGET]
        if skipped and all(_CAPPED.search(reason) for reason in skipped):
            return 17, _ALL_BUSY  # every target at its caps: user busy, 486
        return 34, _ALL_BUSY  # closed hours, targets paused: no circuit now, 503
    if disposition == Disposition.NO_ROUTE:
        return 1, _NOT_ROUTED  # not a number the platform routes: unallocated, 404
    return 34, _ALL_BUSY  # no balance, no target that could be dialled: 503


async def refuse(ctx: Context, caller: Caller, disposition: Disposition) -> Disposition:
    """Release a call the platform will not connect the carrier's way: the dialplan plays why
    as early media (never answered) and hangs up with a cause that says it (docs/routing.md,
    "Refused calls"). What the call is, is decided now: hanging up during the announcement
    changes nothing."""
    call = caller.call
    call.disposition = Disposition(disposition)
    cause, sound = refusal(call.disposition, call.trail)
    variables = {"CR_CAUSE": str(cause), "CR_SOUND": sound}
    try:
        await ctx.ari.continue_in_dialplan(caller.id, names.REFUSE_CONTEXT, variables)
    except AriError as exc:
        if exc.status in (404, 409, 412):  # the caller went first
            raise CallerGone from None
        raise
    caller.in_dialplan = True
    ended_by(call, await caller.next_event(is_end, None))
    answered = call.answered_at is not None  # by the IVR, before it failed
    released = q850.sip_status(cause) if call.hangup_by == HangupBy.SYSTEM else CANCELLED
    call.sip_status = 200 if answered else released
    return call.disposition


async def goodbye(ctx: Context, caller: Caller) -> None:
    """Both sides hear goodbye, then Asterisk hangs them up. The call talks in the dialplan's
    bridge, out of ARI's reach: AMI moves both legs to the goodbye. When AMI can't, the call
    is only hung up, when the paid-for time is over."""
    peer = await ctx.ari.channel_var(caller.id, "BRIDGEPEER")
    try:
        if not peer:
            raise AmiError("no target leg to redirect")
        await ctx.ami.send(
            "Redirect",
            Channel=caller.name,
            ExtraChannel=peer,
            Context=names.GOODBYE_CONTEXT,
            Exten="s",
            Priority="1",
            ExtraContext=names.GOODBYE_CONTEXT,
            ExtraExten="s",
            ExtraPriority="1",
        )
    except AmiError as exc:
        log.warning("could not play the credit warning on %s: %s", caller.id, exc)
        await asyncio.sleep(ctx.timing.warning)
        await caller.hang_up()


class Ending:
    """The call's last steps, for the flow that owns it in `ctx.channels` (`owner`)."""

    def __init__(self, ctx: Context, caller: Caller, claims: Claims, owner: object) -> None:
        self.ctx, self.caller, self.claims, self.owner = ctx, caller, claims, owner
        self.finished = False  # the final row is written or on its way

    async def finish(self, disposition: Disposition) -> None:
        """The call is over: its claims given back unless it connected, the caller hung up, the
        final row written (then rating), the call off the live view."""
        call = self.caller.call
        ended = call.ended_at or now()  # a call ended in Stasis: the bridge hangs it up now
        if call.connected_at is None:
            await self.claims.release()
        try:
            await self.caller.hang_up()
        except Exception:  # Asterisk may be gone; the row below matters more
            log.warning("could not hang up %s", self.caller.id)
        call.ended_at, call.disposition = ended, disposition
        call.hung_up_by(HangupBy.SYSTEM)  # nobody else did: the platform released the call
        self.finished = True
        self.ctx.rows.write(call.row(now()), then=self._written)
        await self._unlist()

    def _written(self, linkedid: str) -> None:
        """The final row is in the database: the call is no longer ours (until then the
        reconciliation leaves it to us, and completes it from Asterisk's record should the row
        never be written), and it goes to rating."""
        self._disown()
        call = self.caller.call
        disposition = (call.disposition or call.provisional).value
        CALLS.labels(disposition).inc()
        with logs.about_call(linkedid):  # the row writer's task, not the call's
            log.info("call ended: %s", disposition)
        self.ctx.after_hangup(linkedid)

    async def release(self) -> None:
        """This flow no longer answers for the call: not ours, not shown live."""
        self._disown()
        await self._unlist()

    def _disown(self) -> None:
        if self.ctx.channels.get(self.caller.id) is self.owner:
            del self.ctx.channels[self.caller.id]

    async def _unlist(self) -> None:
        try:
            await self.ctx.live.remove(self.caller.id)
        except Exception:
            log.exception("could not remove live call %s", self.caller.id)
