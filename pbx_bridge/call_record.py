"""The call row: one per call, keyed by linkedid; written so that repeating a write changes nothing."""

from contextlib import nullcontext
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlmodel import select

from core.db import autocommit_engine, session_scope
from core.enums import RatingStatus
from core.models import Call


@lru_cache(maxsize=64)
def _upsert(columns: tuple[str, ...]) -> Insert:
    """The statement for rows with these columns, built once: building it (`excluded` copies the
    whole table) cost more than the write itself."""
    stmt = insert(Call)
    updates = {k: stmt.excluded[k] for k in columns if k not in ("linkedid", "started_at")}
    # A rated call is final: a late or repeated write must not change what was charged.
    pending = Call.rating_status == RatingStatus.PENDING.value
    return stmt.on_conflict_do_update(index_elements=["linkedid"], set_=updates, where=pending)


def save(row: dict[str, Any], conn: Connection | None = None) -> None:
    """Insert the call, or update the row already there for its linkedid (idempotent); in `conn`'s
    transaction when given (written with the work it goes with: one commit fewer per call), else
    on its own (autocommit: the one statement is its own transaction)."""
    # A plain connection, not an ORM session: written three times per call, on the bridge's hot path.
    with nullcontext(conn) if conn is not None else autocommit_engine().connect() as target:
        target.execute(_upsert(tuple(sorted(row))), row)


def open_calls() -> list[Call]:
    """Calls the bridge started but never finished (it stopped or crashed meanwhile)."""
    with session_scope() as session:
        stmt = select(Call).where(Call.ended_at.is_(None))  # type: ignore[union-attr]
        return list(session.exec(stmt).all())
