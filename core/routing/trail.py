"""The routing trail: one plain JSON dict per decision, stored as-is in Call.trail.

Every entry has `step`, `at` (ISO 8601 with offset), `result` and a human `reason`; steps add
their own fields (docs/routing.md lists them). The bridge appends its IVR and dial entries
with the same `entry` helper, so the call's detail view reads one shape.
"""

from datetime import datetime
from enum import StrEnum
from typing import Any


class Step(StrEnum):
    ROUTE = "route"
    BLOCK = "block"
    CREDIT = "credit"
    IVR = "ivr"  # written by the bridge
    DUPLICATE = "duplicate"
    TARGET = "target"
    SELECT = "select"
    DIAL = "dial"  # written by the bridge


class Result(StrEnum):
    PASSED = "passed"
    STOPPED = "stopped"
    CANDIDATE = "candidate"
    SKIPPED = "skipped"


def entry(step: Step, result: Result, reason: str, now: datetime, **fields: Any) -> dict[str, Any]:
    """One trail entry; `fields` must be JSON values (ids, numbers, strings, money as strings)."""
    return {"step": step.value, "at": now.isoformat(), "result": result.value, "reason": reason, **fields}


def stopped_at(trail: list[dict[str, Any]]) -> str | None:
    """The step a call stopped at: the last entry's step when that entry stopped it."""
    if trail and trail[-1]["result"] == Result.STOPPED:
        return str(trail[-1]["step"])
    return None


def span(seconds: int) -> str:
    """A duration as people say it: '24 h', '90 min', '45 s'."""
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
