"""The call row: one per call, keyed by linkedid; written so that repeating a write changes nothing."""

from typing import Any

from sqlalchemy.dialects.postgresql import insert
from sqlmodel import select

from core.db import get_engine, session_scope
from core.enums import RatingStatus
from core.models import Call


def save(row: dict[str, Any]) -> None:
    """Insert the call, or update the row already there for its linkedid (idempotent)."""
    stmt = insert(Call).values(**row)
    updates = {k: stmt.excluded[k] for k in row if k not in ("linkedid", "started_at")}
    # A rated call is final: a late or repeated write must not change what was charged.
    pending = Call.rating_status == RatingStatus.PENDING.value
    # A plain connection, not an ORM session: written three times per call, on the bridge's hot path.
    with get_engine().begin() as conn:
        conn.execute(stmt.on_conflict_do_update(index_elements=["linkedid"], set_=updates, where=pending))


def open_calls() -> list[Call]:
    """Calls the bridge started but never finished (it stopped or crashed meanwhile)."""
    with session_scope() as session:
        stmt = select(Call).where(Call.ended_at.is_(None))  # type: ignore[union-attr]
        return list(session.exec(stmt).all())
