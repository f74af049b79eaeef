"""The routing dry run (domain.md, "Seeing why"): the engine's answer for a call not yet made."""

import asyncio
import uuid
from datetime import UTC, datetime

from sqlmodel import Session

from core.infra.redis_client import get_redis
from core.routing import RedisLiveCounts, Selection, admit, select_targets
from core.routing.auction import Auction, Outcome
from core.routing.bids import CallFacts
from portal_api.auth.principal import Principal
from portal_api.schemas.routing import DryRunCandidate, DryRunExchange, DryRunOut, trail_out


def dry_run(session: Session, principal: Principal, did: str, caller: str) -> DryRunOut:
    """Where a call from `caller` to `did` would go right now, and why; writes nothing."""
    now = datetime.now(UTC)
    # A customer routes only its own numbers; any other answers as an unknown number.
    admission = admit(session, did, caller, now, owner_id=principal.owner_id)
    if not admission.admitted:
        return DryRunOut(
            disposition=admission.disposition,
            stopped_at=admission.stopped_at,
            ivr=False,
            candidates=[],
            trail=trail_out(admission.trail),
        )
    # Live counts as the bridge sees them; the round-robin cursor is read, never moved. The IVR
    # can't be answered in a dry run, so selection runs as if the PIN was right.
    selection = select_targets(
        session, admission, caller, now, RedisLiveCounts(get_redis()), advance_cursor=False
    )
    # Bidders are really pinged, flagged `test`, and their bids ranked; the post is only shown.
    call_id, campaign_id = f"dry-run-{uuid.uuid4().hex[:12]}", admission.campaign_id or 0
    facts = CallFacts(call_id, campaign_id, selection.campaign_name, admission.caller, test=True)
    outcome = asyncio.run(_auction(selection, facts))
    selection = outcome.selection
    trail = admission.trail + selection.trail
    if admission.whisper is not None and selection.candidates:  # what the answering target will hear
        trail.append(admission.whisper.planned(now))
    return DryRunOut(
        disposition=selection.disposition,
        stopped_at=selection.stopped_at,
        ivr=admission.ivr_to_pass is not None,
        candidates=[DryRunCandidate.of(c) for c in selection.candidates],
        trail=trail_out(trail),
        bids=[DryRunExchange.of(x) for x in outcome.exchanges],
    )


async def _auction(selection: Selection, facts: CallFacts) -> Outcome:
    """The auction on this request's thread (a loop of its own: the dry run is a sync endpoint)."""
    auction = Auction()
    try:
        return await auction.run(selection, facts)
    finally:
        await auction.close()
