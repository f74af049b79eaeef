"""A call's attribution as the bridge writes it (docs/attribution.md): the traffic source a visit's
utm_source names, and the `call_attribution` row of a call to a pool number."""

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col

from core.calls.visits import Attribution
from core.infra.db import get_engine
from core.models import Call, CallAttribution, TrafficSource
from core.values.enums import Status


def source_named(user_id: int, utm_source: str | None) -> int | None:
    """The customer's active traffic source whose `utm_source` is the visit's (whatever the case)."""
    if not utm_source:
        return None
    query = (
        select(TrafficSource.id)
        .where(
            TrafficSource.user_id == user_id,
            func.lower(col(TrafficSource.utm_source)) == utm_source.lower(),
            TrafficSource.status == Status.ACTIVE.value,
        )
        .order_by(col(TrafficSource.id))
        .limit(1)
    )
    with get_engine().connect() as conn:
        return conn.execute(query).scalar_one_or_none()


def record(linkedid: str, started_at: datetime, user_id: int, found: Attribution) -> bool:
    """The call's `call_attribution` row (once: a repeat is ignored); False when its call row is not
    in the database (yet)."""
    call = select(Call.id).where(Call.linkedid == linkedid, Call.started_at == started_at)
    with get_engine().begin() as conn:
        call_id = conn.execute(call).scalar_one_or_none()
        if call_id is None:
            return False
        row = {
            "call_id": call_id,
            "call_started_at": started_at,
            "user_id": user_id,
            **found.model_dump(mode="json", exclude={"utm_source"}),
        }
        conn.execute(insert(CallAttribution).values(row).on_conflict_do_nothing(index_elements=["call_id"]))
    return True
