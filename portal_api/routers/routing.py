"""The routing dry run (domain.md, "Seeing why"): the engine's answer for a call not yet made."""

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter

from core.redis_client import get_redis
from core.routing import RedisLiveCounts, admit, select_targets
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.routing import DryRunCandidate, DryRunIn, DryRunOut

router = APIRouter(prefix="/routing", tags=["routing"])


@router.post(
    "/dry-run",
    response_model=Envelope[DryRunOut],
    summary="Where a call from `caller` to `did` would go right now, and why (writes nothing)",
)
def dry_run(body: DryRunIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict[str, Any]:
    now = datetime.now(UTC)
    # A customer routes only its own numbers; any other answers as an unknown number.
    admission = admit(session, body.did, body.caller, now, owner_id=principal.owner_id)
    if not admission.admitted:
        out = DryRunOut(
            disposition=admission.disposition,
            stopped_at=admission.stopped_at,
            ivr=False,
            candidates=[],
            trail=admission.trail,
        )
        return ok(out, f"The call would stop at {admission.stopped_at}: {admission.disposition}.")
    # Live counts as the bridge sees them; the round-robin cursor is read, never moved. The IVR
    # can't be answered in a dry run, so selection runs as if the PIN was right.
    selection = select_targets(
        session, admission, body.caller, now, RedisLiveCounts(get_redis()), advance_cursor=False
    )
    out = DryRunOut(
        disposition=selection.disposition,
        stopped_at=selection.stopped_at,
        ivr=admission.ivr_to_pass is not None,
        candidates=[DryRunCandidate.of(c) for c in selection.candidates],
        trail=admission.trail + selection.trail,
    )
    if selection.disposition is not None:
        return ok(out, f"The call would stop at {selection.stopped_at}: {selection.disposition}.")
    return ok(out, f"The call would be dialled to {selection.candidates[0].name} first.")
