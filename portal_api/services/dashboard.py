"""The dashboard: how many calls, how many answered, talk time, spend, over a period in the caller's
time zone, and where the calls went. Admins see all calls, customers theirs, buyers the calls sent
to them (with their payout, never the customer's spend)."""

from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, Subquery, func, select
from sqlmodel import Session

from core.enums import Disposition, Role
from core.models import Buyer, Call, Campaign, Target, User
from core.names import live_buyer_key, live_user_key
from core.redis_client import get_redis
from portal_api import live_feed
from portal_api.auth.principal import Principal
from portal_api.schemas.dashboard import (
    Bucket,
    CallDetail,
    Counts,
    DashboardCalls,
    DispositionCount,
    PartyCounts,
    Period,
    Slice,
)
from portal_api.tenancy import get_visible, scoped

MISSED = [d.value for d in (Disposition.NO_ANSWER, Disposition.BUSY, Disposition.FAILED)]
TOP = 10


def _bounds(period: Period, tz: str, now: datetime) -> tuple[datetime, datetime]:
    """The period as instants: from the local midnight it starts at, to now (yesterday: midnight)."""
    zone = ZoneInfo(tz)
    today = datetime.combine(now.astimezone(zone).date(), time.min, zone)
    start = {
        Period.TODAY: today,
        Period.YESTERDAY: today - timedelta(days=1),
        Period.WEEK: today - timedelta(days=6),
        Period.MONTH: today.replace(day=1),
    }[period]
    return start, today if period is Period.YESTERDAY else now.astimezone(zone)


def _calls_in(stmt: Select[Any], start: datetime, end: datetime) -> Subquery:
    return stmt.where(Call.started_at >= start, Call.started_at < end).subquery()


def _count_columns(calls: Subquery) -> list[Any]:
    answered = calls.c.disposition == Disposition.ANSWERED.value
    return [
        func.count(),
        func.count().filter(answered),
        func.count().filter(calls.c.disposition.in_(MISSED)),
        func.coalesce(func.sum(calls.c.talk_seconds), 0),
        func.count().filter(calls.c.converted),
    ]


def _counts(row: Any) -> Counts:
    calls, answered, missed, talk, converted = row
    return Counts(
        calls=calls,
        answered=answered,
        missed=missed,
        refused=calls - answered - missed,
        talk_seconds=int(talk),
        converted=converted,
    )


def _live(key: str) -> int:
    return int(get_redis().scard(key))


def calls(session: Session, principal: Principal, period: Period) -> DashboardCalls:
    """Call counts for a period, with an hourly (today, yesterday) or daily series."""
    tz = principal.user.timezone
    start, end = _bounds(period, tz, datetime.now(UTC))
    mine = _calls_in(scoped(select(Call), Call, principal), start, end)
    *counted, spend, payout = session.execute(
        select(
            *_count_columns(mine), func.sum(mine.c.cost), func.coalesce(func.sum(mine.c.payout), 0)
        ).select_from(mine)
    ).one()
    summary = _counts(counted)
    unit = "hour" if period in (Period.TODAY, Period.YESTERDAY) else "day"
    bucket = func.date_trunc(unit, func.timezone(tz, mine.c.started_at)).label("bucket")
    series = session.execute(
        select(bucket, func.count(), func.count().filter(mine.c.disposition == Disposition.ANSWERED.value))
        .select_from(mine)
        .group_by(bucket)
        .order_by(bucket)
    ).all()
    zone = ZoneInfo(tz)
    return DashboardCalls(
        **summary.model_dump(),
        period=period,
        start=start,
        end=end,
        answer_rate=round(summary.answered / summary.calls, 4) if summary.calls else 0.0,
        average_talk_seconds=summary.talk_seconds // summary.answered if summary.answered else 0,
        spend=None if principal.is_buyer else (spend or Decimal(0)),
        payout=payout,
        live_calls=_live(live_feed.scope_key(principal)),
        series=[Bucket(at=at.replace(tzinfo=zone), calls=n, answered=a) for at, n, a in series],
    )


def _slices(session: Session, calls: Subquery, model: Any, key: str) -> list[Slice]:
    column = calls.c[key]
    rows = session.execute(
        select(
            column,
            model.name,
            func.count(),
            func.count().filter(calls.c.disposition == Disposition.ANSWERED.value),
            func.coalesce(func.sum(calls.c.talk_seconds), 0),
        )
        .select_from(calls)
        .outerjoin(model, model.id == column)
        .group_by(column, model.name)
        .order_by(func.count().desc(), column)
        .limit(TOP)
    ).all()
    return [
        Slice(id=i, name=name or "(none)", calls=n, answered=a, talk_seconds=int(t))
        for i, name, n, a, t in rows
    ]


def call_detail(session: Session, principal: Principal, period: Period) -> CallDetail:
    """Where the period's calls went: by disposition, the busiest campaigns and targets."""
    start, end = _bounds(period, principal.user.timezone, datetime.now(UTC))
    mine = _calls_in(scoped(select(Call), Call, principal), start, end)
    dispositions = session.execute(
        select(mine.c.disposition, func.count())
        .select_from(mine)
        .group_by(mine.c.disposition)
        .order_by(func.count().desc())
    ).all()
    return CallDetail(
        period=period,
        by_disposition=[DispositionCount(disposition=d, calls=n) for d, n in dispositions],
        by_campaign=_slices(session, mine, Campaign, "campaign_id"),
        by_target=_slices(session, mine, Target, "target_id"),
    )


ZERO = Counts(calls=0, answered=0, missed=0, refused=0, talk_seconds=0, converted=0)


def _parties(
    session: Session, column: Any, named: list[tuple[int, str]], tz: str, live_key: Callable[[int], str]
) -> list[PartyCounts]:
    """Per customer or buyer (`column` is the call's user_id or buyer_id): its calls today and this
    month (one query each, whatever the number of parties) and its live calls now."""
    ids = [i for i, _ in named]
    found: dict[int, dict[Period, Counts]] = {i: {} for i in ids}
    now = datetime.now(UTC)
    for period in (Period.TODAY, Period.MONTH):
        calls = _calls_in(select(Call).where(column.in_(ids)), *_bounds(period, tz, now))
        key = calls.c[column.key]
        for party, *row in session.execute(
            select(key, *_count_columns(calls)).select_from(calls).group_by(key)
        ):
            found[party][period] = _counts(row)
    pipe = get_redis().pipeline(transaction=False)
    for i in ids:
        pipe.scard(live_key(i))
    return [
        PartyCounts(
            id=i,
            name=name,
            live_calls=int(live_now),
            today=found[i].get(Period.TODAY, ZERO),
            month=found[i].get(Period.MONTH, ZERO),
        )
        for (i, name), live_now in zip(named, pipe.execute(), strict=True)
    ]


def buyer_counts(session: Session, principal: Principal, buyer_id: int) -> PartyCounts:
    buyer = get_visible(session, Buyer, buyer_id, principal, "Buyer")
    (counts,) = _parties(
        session, Call.buyer_id, [(buyer_id, buyer.name)], principal.user.timezone, live_buyer_key
    )
    return counts


def customer_counts(session: Session, principal: Principal) -> list[PartyCounts]:
    """Per customer (an admin: all; a customer: itself)."""
    customers = session.execute(
        scoped(select(User.id, User.name), User, principal)
        .where(User.role == Role.CUSTOMER)
        .order_by(User.name)
    ).all()
    named = [(i, name) for i, name in customers]
    return _parties(session, Call.user_id, named, principal.user.timezone, live_user_key) if named else []
