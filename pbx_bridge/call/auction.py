"""The targets a call is dialled to: chosen with the counts of now when an IVR came between
admission and selection, then offered to the campaign's real-time bidders (core.routing.auction,
docs/bidding.md) on the call's event loop."""

import asyncio

from core.calls.record import CallState
from core.routing import Admission, Selection
from core.routing.bids import CallFacts
from pbx_bridge.call.caller import now
from pbx_bridge.call.context import Context


async def choose(
    ctx: Context, call: CallState, admission: Admission, selection: Selection | None
) -> Selection:
    """The selection to dial (its trail on the call's); one with a disposition refuses the call."""
    if selection is None:  # after the IVR: chosen now, with the counts of now
        selection = await asyncio.to_thread(ctx.router.select, admission, call.caller, now())
    facts = CallFacts(call.linkedid, call.campaign_id or 0, selection.campaign_name, call.caller)
    selection = (await ctx.auction.run(selection, facts)).selection
    call.trail.extend(selection.trail)
    return selection
