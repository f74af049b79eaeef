"""Talk: the connected call, from the target's answer to a side hanging up. Its recording named, its
answered row written, its credit held slice by slice (pbx_bridge.credit_hold) and, when the
customer's credit runs out, the goodbye (pbx_bridge.call.ending)."""

import asyncio
import contextlib
import math

from core.calls.record import Result, Step
from core.infra import names
from core.values.enums import Disposition, HangupBy, LiveState, WebhookEvent
from pbx_bridge.call.caller import Caller, asterisk_time, is_end, now
from pbx_bridge.call.context import Context
from pbx_bridge.call.ending import ended_by, goodbye
from pbx_bridge.credit_hold import CreditHold
from pbx_bridge.events import Event


async def talk(
    ctx: Context, caller: Caller, answered: Event, tariff_id: int | None, record: bool
) -> Disposition:
    """The target answered (`answered`: the dialplan's event); returns once a side hung up."""
    call = caller.call
    call.connected_at = asterisk_time(answered) or now()
    if call.answered_at is None:  # Dial answers the caller next (the caller's `Up` says when)
        call.answered_at = call.connected_at
    else:  # by the IVR before, or (its event first) by Dial just now
        call.connected_at = max(call.connected_at, call.answered_at)
    ctx.hooks(WebhookEvent.CONNECTED, call)
    if record:
        if answered.get("recording"):
            call.recording = names.recording_name(call.linkedid)
            call.note(
                Step.RECORD, Result.PASSED, "both sides recorded, and each alone", now(), name=call.recording
            )
        else:
            call.note(Step.RECORD, Result.FAILED, "recording could not start", now())
    assert call.user_id is not None and call.destination is not None  # admitted, then dialled
    hold = CreditHold(call.user_id, tariff_id, call.linkedid, call.destination, call.connected_at, ctx.outage)
    # The answered row: a bridge restarted after it is in takes the call back from it. The call
    # shows connected only then (at the writer's next tick, at most 50 ms on), so whatever saw
    # it connected can count on the row. A bridge that dies in between leaves it unconnected.
    written = asyncio.Event()
    ctx.rows.write(call.row(now()), then=lambda _: written.set())
    covered = await hold.next_slice()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(ctx.timing.row_wait):  # the database may be down: go on
            await written.wait()
    call.live_state = LiveState.CONNECTED
    await ctx.live.put(call.live())
    await _within_credit(ctx, caller, hold, covered)
    return Disposition.ANSWERED


async def carry_on(ctx: Context, caller: Caller) -> Disposition:
    """A call taken back after a bridge restart talks on until a side hangs up."""
    call = caller.call
    call.note(Step.BRIDGE, Result.PASSED, "the bridge restarted and took the call back", now())
    await ctx.live.put(call.live())
    ended_by(call, await caller.next_event(is_end, None))
    return Disposition.ANSWERED


async def _within_credit(ctx: Context, caller: Caller, hold: CreditHold, covered: float) -> None:
    """Wait for a side to hang up, holding credit slice by slice; end the call when the
    customer's credit runs out (so parallel calls can't spend the same money twice)."""
    call, timing = caller.call, ctx.timing
    connected_at = call.connected_at
    assert connected_at is not None
    while True:
        talked = (now() - connected_at).total_seconds()
        wait = None if math.isinf(covered) else max(0.0, covered - talked - timing.extend_ahead)
        if (end := await caller.next_event(is_end, wait)) is not None:
            return ended_by(call, end)
        paid_for, covered = covered, await hold.next_slice()
        if covered > paid_for:
            call.note(Step.CREDIT, Result.PASSED, f"credit held for {int(covered)} s of talk time", now())
            continue
        reason = f"credit ran out after {int(covered)} s of talk time"
        call.note(Step.CREDIT, Result.STOPPED, reason, now(), disposition=Disposition.ANSWERED.value)
        remaining = covered - (now() - connected_at).total_seconds()
        if (end := await caller.next_event(is_end, max(0.0, remaining - timing.warning))) is not None:
            return ended_by(call, end)
        call.hung_up_by(HangupBy.SYSTEM)
        await goodbye(ctx, caller)
        if await caller.next_event(is_end, timing.goodbye) is None:
            await caller.hang_up()
        return
