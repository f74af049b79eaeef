"""What the call tests share: calls routed to targets, and how a row's trail reads."""

from typing import Any

from sqlmodel import select

from core.infra.db import session_scope
from core.models import Call, Target
from testkit.rows import Line, desk, line, trunk


def dialled_line(*desks: str, **campaign: Any) -> tuple[Line, list[Target]]:
    """A customer's number routed to a campaign whose targets (in priority order) have a trunk."""
    ln = line(**campaign)
    carrier = trunk(f"carrier-{ln.campaign.id}")
    targets = [desk(ln, name, priority=n, trunk_id=carrier.id) for n, name in enumerate(desks, 1)]
    return ln, targets


def steps(call_row: Call, step: str) -> list[tuple[str, str]]:
    """The (result, reason) of each trail entry of `step`."""
    return [(e["result"], e["reason"]) for e in call_row.trail if e["step"] == step]


def refused(requests: list[tuple[Any, ...]]) -> list[tuple[str, str, str]]:
    """Where the call was sent in the dialplan, with its refusal's cause and announcement: a refused
    call goes once, to the refusal, never to the dial."""
    sent = [r for r in requests if r[0] == "continue"]
    return [(r[2], r[3].get("CR_CAUSE", ""), r[3].get("CR_SOUND", "")) for r in sent]


def ended_row(linkedid: str) -> Call:
    """The call's row once it has its end (while other calls still run)."""
    with session_scope() as s:
        found = s.exec(select(Call).where(Call.linkedid == linkedid, Call.ended_at.is_not(None))).first()
    assert found is not None
    return found


def last(call_row: Call) -> tuple[str, str, str | None]:
    entry = call_row.trail[-1]
    return entry["step"], entry["result"], entry.get("disposition")
