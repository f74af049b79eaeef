"""The conductor: one call's phases in order, from StasisStart to its final row, and what ends it
whatever happens on the way (the caller hanging up, the bridge stopping, a failure)."""

import asyncio
import logging

from core.calls.record import CallState, Result, Step
from core.infra import logs
from core.infra.names import duplicate_key
from core.models import Call
from core.routing import Admission, Selection
from core.values.enums import Disposition, HangupBy
from pbx_bridge.call import admission, auction, talk
from pbx_bridge.call.caller import Caller, now
from pbx_bridge.call.claims import Claims
from pbx_bridge.call.context import CallerGone, Context, LetGo
from pbx_bridge.call.dialling import Dialling
from pbx_bridge.call.ending import Ending, abandoned, hung_up, refuse
from pbx_bridge.events import Channel, Event

log = logging.getLogger(__name__)


class CallFlow:
    """One call, followed by its own task (`run`): the caller's channel, the claims it holds, and its
    ending; the facts are its CallState's."""

    def __init__(
        self, ctx: Context, state: CallState, name: str = "", exten: str | None = None, resumed: bool = False
    ) -> None:
        self.ctx, self.call = ctx, state
        self.caller = Caller(ctx.ari, state, name)
        self.claims = Claims(ctx.live, state.linkedid)
        self.ending = Ending(ctx, self.caller, self.claims, owner=self)
        self.exten = exten  # the extension dialled, as Asterisk received it (`did`: the dialplan's copy)
        self.resumed = resumed  # taken back after a bridge restart: it talks on in the dialplan

    @classmethod
    def start(cls, ctx: Context, channel: Channel, did: str, caller: str) -> "CallFlow":
        """A call that has just entered Stasis (its StasisStart's channel and arguments)."""
        state = CallState(linkedid=channel.get("id", ""), did=did, caller=caller, started_at=now())
        return cls(ctx, state, channel.get("name", ""), channel.get("dialplan", {}).get("exten"))

    @classmethod
    def resume(cls, ctx: Context, row: Call) -> "CallFlow":
        """Take back a call that was talking when the bridge stopped (it talks on in the dialplan)."""
        flow = cls(ctx, CallState.of_row(row), resumed=True)
        flow.caller.in_dialplan = True
        return flow

    @property
    def linkedid(self) -> str:
        return self.call.linkedid

    @property
    def finished(self) -> bool:
        """Its final row is written or on its way."""
        return self.ending.finished

    def deliver(self, event: Event) -> None:
        self.caller.deliver(event)

    def let_go(self) -> None:
        self.caller.let_go()

    def hung_up_from_portal(self, user_id: int) -> None:
        """A user hangs the call up from the live calls screen (the hang-up itself is ARI's)."""
        hung_up(self.call, HangupBy.PORTAL, f"hung up from the portal by user {user_id}", user_id=user_id)

    async def run(self) -> None:
        with logs.about_call(self.linkedid):  # every line this call's task logs names it
            await self._follow()

    async def _follow(self) -> None:
        try:
            disposition = await (talk.carry_on(self.ctx, self.caller) if self.resumed else self._route())
        except CallerGone:
            hung_up(self.call, HangupBy.CALLER, "caller hung up")
            disposition = abandoned(self.call)
        except (LetGo, asyncio.CancelledError) as stop:
            if not self.caller.in_dialplan:  # a call still in Stasis can't go on without us
                reason = "the bridge stopped while the call was being routed"
                self.call.note(
                    Step.BRIDGE, Result.STOPPED, reason, now(), disposition=Disposition.FAILED.value
                )
                await self.ending.finish(Disposition.FAILED)
            else:
                await self.ending.release()
            if isinstance(stop, asyncio.CancelledError):
                raise
            return
        except Exception:
            log.exception("call %s failed", self.linkedid)
            disposition = self.call.provisional
            reason = "the bridge failed handling this call"
            self.call.note(Step.BRIDGE, Result.STOPPED, reason, now(), disposition=disposition.value)
        await self.ending.finish(disposition)

    async def _route(self) -> Disposition:
        """Admission, the IVR, the targets and their auction, the repeat-caller check, dialling and
        talk: each phase may refuse the call, which then hears why and is released."""
        ctx, call = self.ctx, self.call
        ctx.live.starting(self.linkedid)
        if admission.misdialled(call, self.exten):
            return await refuse(ctx, self.caller, Disposition.NO_ROUTE)
        admitted, selection = await asyncio.to_thread(ctx.router.route, call.did, call.caller, now())
        admission.take_in(ctx, call, admitted)
        await ctx.attribution.attribute(call)  # a pool number's visitor: one Redis round trip
        # Shown live from the first step that takes time: a prompt, the IVR or the first dial.
        if admitted.disposition is not None:
            return await refuse(ctx, self.caller, admitted.disposition)
        if (ivr := admitted.ivr_to_pass) is not None and not await admission.ivr(ctx, self.caller, ivr):
            return await refuse(ctx, self.caller, Disposition.IVR_FAILED)
        selection = await auction.choose(ctx, call, admitted, selection)
        if selection.disposition is not None:
            return await refuse(ctx, self.caller, selection.disposition)
        if await self._repeated(admitted, selection):
            return await refuse(ctx, self.caller, Disposition.DUPLICATE)
        if selection.other_buyers_for and admitted.campaign_id is not None:
            self.claims.keep_buyers(admitted.campaign_id, call.caller, selection.other_buyers_for)
        answered = await Dialling(ctx, self.caller, self.claims, admitted).dial(selection.candidates)
        if isinstance(answered, Disposition):  # not connected
            return answered
        return await talk.talk(ctx, self.caller, answered, admitted.tariff_id, admitted.record)

    async def _repeated(self, admitted: Admission, selection: Selection) -> bool:
        """The campaign rejects repeat callers and the same caller's other call is being connected,
        on this node or another; else this call holds the caller (Claims)."""
        if not selection.reject_repeats_for or admitted.campaign_id is None:
            return False
        key = duplicate_key(admitted.campaign_id, self.call.caller)
        holder = await self.claims.hold_caller(key, selection.reject_repeats_for)
        if holder is None:
            return False
        reason = f"caller {self.call.caller} is being connected on call {holder} of the campaign"
        self.call.note(Step.DUPLICATE, Result.STOPPED, reason, now(), disposition=Disposition.DUPLICATE.value)
        return True
