"""Calendar arithmetic for fees and invoices."""

import calendar
from datetime import date, datetime, time
from zoneinfo import ZoneInfo


def add_months(anchor: datetime, months: int) -> datetime:
    """The anchor's day `months` later, clipped to the month's end (31 Jan: 28/29 Feb, then 31 Mar)."""
    index = anchor.month - 1 + months
    year, month = anchor.year + index // 12, index % 12 + 1
    return anchor.replace(year=year, month=month, day=min(anchor.day, calendar.monthrange(year, month)[1]))


def next_anniversary(anchor: datetime, current: datetime) -> datetime:
    """The first monthly anniversary of `anchor` after `current` (counted from the anchor, so a
    number bought on the 31st renews on every month's last day, not on the 28th for ever)."""
    months = (current.year - anchor.year) * 12 + current.month - anchor.month
    while add_months(anchor, months) <= current:
        months += 1
    return add_months(anchor, months)


def month_bounds(month: date, timezone: str) -> tuple[datetime, datetime]:
    """First and after-last instant of a calendar month in `timezone`."""
    zone = ZoneInfo(timezone)
    first = date(month.year, month.month, 1)
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return datetime.combine(first, time.min, zone), datetime.combine(following, time.min, zone)


def previous_month(moment: datetime, timezone: str) -> date:
    """The first day of the month before the one `moment` falls in, in `timezone`."""
    local = moment.astimezone(ZoneInfo(timezone)).date()
    return date(local.year - (local.month == 1), (local.month - 2) % 12 + 1, 1)
