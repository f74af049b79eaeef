"""Data kept only for a while: Asterisk's channel event log grows with every call and is needed
only until the bridge has reconciled the calls it describes (minutes, at worst a day)."""

from datetime import UTC, datetime, timedelta

from sqlmodel import delete

from core.infra.db import session_scope
from core.models import ChannelEvent

CHANNEL_EVENT_DAYS = 30  # well past reconciliation, long enough to look into a disputed call


def purge_channel_events(now: datetime, days: int = CHANNEL_EVENT_DAYS) -> int:
    """Delete events older than `days`; returns how many went."""
    cutoff = (now - timedelta(days=days)).astimezone(UTC).replace(tzinfo=None)  # the column is naive UTC
    with session_scope() as session:
        result = session.exec(delete(ChannelEvent).where(ChannelEvent.eventtime < cutoff))
        return int(result.rowcount or 0)
