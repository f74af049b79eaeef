"""Hourly, daily and monthly caps: calls a target took since the period began in its time zone."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlmodel import Session

from core.models import Call, Target
from core.routing.last_known import remembered


@dataclass(frozen=True)
class CapUse:
    label: str  # "hourly", "daily", "monthly"
    used: int
    cap: int
    start: datetime  # when the period began, in the target's zone
    end: datetime  # when the next one begins

    @property
    def reached(self) -> bool:
        return self.used >= self.cap

    def __str__(self) -> str:
        return f"{self.label} cap {self.used}/{self.cap}"


def period_starts(local_now: datetime) -> dict[str, datetime]:
    """Start of the current hour, day and month at `local_now` (aware, in the target's zone).

    The hour is local too: in a zone such as Asia/Kolkata (+05:30) it starts at :30 UTC.
    """
    hour = local_now.replace(minute=0, second=0, microsecond=0)
    day = hour.replace(hour=0)
    return {"hourly": hour, "daily": day, "monthly": day.replace(day=1)}


def period_ends(starts: dict[str, datetime]) -> dict[str, datetime]:
    """When each period of `period_starts` ends (the next hour, day or month begins)."""
    hour, day, month = starts["hourly"], starts["daily"], starts["monthly"]
    next_month = (month.replace(day=28) + timedelta(days=4)).replace(day=1)
    return {"hourly": hour + timedelta(hours=1), "daily": day + timedelta(days=1), "monthly": next_month}


def connected_since(session: Session, target_id: int, starts: dict[str, datetime]) -> dict[str, int]:
    """Calls the target was connected to (Call.connected_at) since each of `starts`; one query."""
    connected = Call.connected_at
    counts = session.exec(
        select(*(func.count().filter(connected >= start) for start in starts.values())).where(
            Call.target_id == target_id, connected >= min(starts.values())
        )
    ).one()
    return dict(zip(starts, counts, strict=True))


def cap_use(session: Session, target: Target, local_now: datetime) -> list[CapUse]:
    """Usage of each cap the target sets, counting calls it was connected to since each period
    began. Empty when it sets no cap."""
    caps = {"hourly": target.hourly_cap, "daily": target.daily_cap, "monthly": target.monthly_cap}
    every = period_starts(local_now)
    starts = {label: start for label, start in every.items() if caps[label] is not None}
    if not starts:
        return []
    # Offline, the count read last this period: the Redis counter the claim checks holds the rest.
    key = ("caps", target.id, tuple(starts.items()))
    used = remembered(session, key, lambda: connected_since(session, target.id or 0, starts))
    ends = period_ends(every)
    return [CapUse(label, used[label], caps[label] or 0, starts[label], ends[label]) for label in starts]
