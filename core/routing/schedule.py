"""A target's weekly open hours, read in the target's own time zone."""

from datetime import datetime

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def is_open(schedule: dict[str, list[list[str]]] | None, local_now: datetime) -> bool:
    """Open when `local_now` (already in the target's zone) falls in one of the day's windows.

    An empty schedule is open at all hours; a weekday missing from a non-empty one is closed.
    Windows are ["HH:MM", "HH:MM"], start inclusive, end exclusive ("24:00" closes at midnight);
    zero-padded times compare correctly as text.
    """
    if not schedule:
        return True
    now_hhmm = local_now.strftime("%H:%M")
    return any(start <= now_hhmm < end for start, end in schedule.get(DAYS[local_now.weekday()], []))
