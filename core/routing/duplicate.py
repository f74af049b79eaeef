"""Repeat callers: earlier calls of this caller that reached a buyer of the campaign."""

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlmodel import Session

from core.models import Call


@dataclass(frozen=True)
class Contact:
    call_id: int
    buyer_id: int | None
    at: datetime


def recent_contacts(
    session: Session, campaign_id: int, callers: Collection[str], since: datetime
) -> list[Contact]:
    """Calls from `callers` in the campaign that were connected to a target (or converted) at or
    after `since`, newest first. Connection time counts, since that is when a buyer was reached."""
    reached_at = func.coalesce(Call.connected_at, Call.started_at)
    stmt = (
        select(Call.id, Call.buyer_id, reached_at)
        .where(
            Call.campaign_id == campaign_id,
            Call.caller.in_(list(callers)),
            or_(Call.connected_at.is_not(None), Call.converted),
            reached_at >= since,
        )
        .order_by(reached_at.desc())
    )
    return [Contact(*row) for row in session.exec(stmt).all()]
