"""The dashboard: how many calls, how many answered, talk time, spend, over a period in the caller's
time zone, and where the calls went. Admins see all calls, customers theirs, buyers the calls sent
to them (with their payout, never the customer's spend). Whole hours are read from the hourly
rollups (core/rollups.py), the rest from the call rows (docs/reports.md)."""

from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, Subquery, case, func, literal, select, union_all
from sqlmodel import Session

from core.enums import Disposition, RatingStatus, Role
from core.models import Buyer, Call, CallRegionRollup, CallRollup, Campaign, Target, User
from core.names import live_buyer_key, live_user_key
from core.redis_client import get_redis
from core.rollups import DISPOSITION_COLUMNS
from portal_api import live_feed
from portal_api.auth.principal import Principal
from portal_api.schemas.dashboard import (
    Bucket,
    CallDetail,
    CallRegions,
    Counts,
    DashboardCalls,
    DispositionCount,
    OriginSlice,
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


Narrow = Callable[[Select[Any], type[Call] | type[CallRollup]], Select[Any]]
HOUR = timedelta(hours=1)
_PENDING = literal(RatingStatus.PENDING.value, literal_execute=True)  # matches ix_call_unrated


def _hour(at: datetime) -> datetime:
    return at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def _raw(narrow: Narrow, *where: Any) -> Select[Any]:
    """Call rows as rollup rows of one call each."""
    counts = [case((Call.disposition == d, 1), else_=0).label(c) for d, c in DISPOSITION_COLUMNS.items()]
    stmt = select(
        Call.started_at.label("at"),
        Call.user_id,
        Call.campaign_id,
        Call.target_id,
        Call.buyer_id,
        literal(1).label("calls"),
        *counts,
        Call.talk_seconds,
        case((Call.converted, 1), else_=0).label("converted"),
        func.coalesce(Call.cost, 0).label("spend"),
        Call.payout,
    )
    return narrow(stmt.where(*where), Call)


def _calls_in(narrow: Narrow, start: datetime, end: datetime) -> Subquery:
    """The calls started in [start, end) as rows to sum: the rollups of the whole hours between,
    and the call rows of the part-hours at either end (the current one) and of the calls in
    between not rated yet (still talking, or rated seconds from now)."""
    first, last = _hour(start), _hour(end)
    first += HOUR if first < start else timedelta(0)
    if first >= last:
        return _raw(narrow, Call.started_at >= start, Call.started_at < end).subquery()
    rolled = select(
        CallRollup.hour.label("at"),
        CallRollup.user_id,
        CallRollup.campaign_id,
        CallRollup.target_id,
        CallRollup.buyer_id,
        CallRollup.calls,
        *[getattr(CallRollup, c) for c in DISPOSITION_COLUMNS.values()],
        CallRollup.talk_seconds,
        CallRollup.converted,
        CallRollup.spend,
        CallRollup.payout,
    ).where(CallRollup.hour >= first, CallRollup.hour < last)
    return union_all(
        narrow(rolled, CallRollup),
        _raw(narrow, Call.started_at >= start, Call.started_at < first),
        _raw(narrow, Call.started_at >= last, Call.started_at < end),
        _raw(narrow, Call.rating_status == _PENDING, Call.started_at >= first, Call.started_at < last),
    ).subquery()


def _scope(principal: Principal) -> Narrow:
    return lambda stmt, model: scoped(stmt, model, principal)


def _sum(column: Any) -> Any:
    return func.coalesce(func.sum(column), 0)


def _count_columns(calls: Subquery) -> list[Any]:
    missed = sum((calls.c[DISPOSITION_COLUMNS[d]] for d in MISSED), start=literal(0))
    return [
        _sum(calls.c.calls),
        _sum(calls.c.answered),
        _sum(missed),
        _sum(calls.c.talk_seconds),
        _sum(calls.c.converted),
    ]


def _counts(row: Any) -> Counts:
    calls, answered, missed, talk, converted = (int(v) for v in row)
    return Counts(
        calls=calls,
        answered=answered,
        missed=missed,
        refused=calls - answered - missed,
        talk_seconds=talk,
        converted=converted,
    )


def _live(key: str) -> int:
    return int(get_redis().scard(key))


def calls(session: Session, principal: Principal, period: Period) -> DashboardCalls:
    """Call counts for a period, with an hourly (today, yesterday) or daily series."""
    tz = principal.user.timezone
    start, end = _bounds(period, tz, datetime.now(UTC))
    mine = _calls_in(_scope(principal), start, end)
    *counted, spend, payout = session.execute(
        select(*_count_columns(mine), _sum(mine.c.spend), _sum(mine.c.payout)).select_from(mine)
    ).one()
    summary = _counts(counted)
    unit = "hour" if period in (Period.TODAY, Period.YESTERDAY) else "day"
    bucket = func.date_trunc(unit, func.timezone(tz, mine.c.at)).label("bucket")
    series = session.execute(
        select(bucket, _sum(mine.c.calls), _sum(mine.c.answered))
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
        spend=None if principal.is_buyer else spend,
        payout=payout,
        live_calls=_live(live_feed.scope_key(principal)),
        series=[Bucket(at=at.replace(tzinfo=zone), calls=n, answered=a) for at, n, a in series],
    )


def _slices(session: Session, calls: Subquery, model: Any, key: str) -> list[Slice]:
    column = calls.c[key]
    calls_n = _sum(calls.c.calls)
    rows = session.execute(
        select(column, model.name, calls_n, _sum(calls.c.answered), _sum(calls.c.talk_seconds))
        .select_from(calls)
        .outerjoin(model, model.id == column)
        .group_by(column, model.name)
        .order_by(calls_n.desc(), column)
        .limit(TOP)
    ).all()
    return [
        Slice(id=i, name=name or "(none)", calls=n, answered=a, talk_seconds=int(t))
        for i, name, n, a, t in rows
    ]


def call_detail(session: Session, principal: Principal, period: Period) -> CallDetail:
    """Where the period's calls went: by disposition, the busiest campaigns and targets."""
    start, end = _bounds(period, principal.user.timezone, datetime.now(UTC))
    mine = _calls_in(_scope(principal), start, end)
    sums = session.execute(
        select(*[_sum(mine.c[c]) for c in DISPOSITION_COLUMNS.values()]).select_from(mine)
    ).one()
    dispositions = sorted(
        ((d, int(n)) for d, n in zip(DISPOSITION_COLUMNS, sums, strict=True) if n), key=lambda dn: -dn[1]
    )
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

    def narrow(stmt: Select[Any], model: type[Call] | type[CallRollup]) -> Select[Any]:
        return stmt.where(getattr(model, column.key).in_(ids))

    for period in (Period.TODAY, Period.MONTH):
        calls = _calls_in(narrow, *_bounds(period, tz, now))
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


OriginNarrow = Callable[[Select[Any], type[Call] | type[CallRegionRollup]], Select[Any]]


def _raw_origins(narrow: OriginNarrow, *where: Any) -> Select[Any]:
    """Call rows as region rollup rows of one call each."""
    stmt = select(
        Call.started_at.label("at"),
        Call.user_id,
        Call.caller_country,
        Call.caller_region,
        Call.caller_line_type,
        literal(1).label("calls"),
        case((Call.disposition == Disposition.ANSWERED.value, 1), else_=0).label("answered"),
        Call.talk_seconds,
    )
    return narrow(stmt.where(*where), Call)


def _origins_in(narrow: OriginNarrow, start: datetime, end: datetime) -> Subquery:
    """As `_calls_in`, from the rollups by region (core/region_rollups.py) and the call rows."""
    first, last = _hour(start), _hour(end)
    first += HOUR if first < start else timedelta(0)
    if first >= last:
        return _raw_origins(narrow, Call.started_at >= start, Call.started_at < end).subquery()
    R = CallRegionRollup
    keys = (
        "user_id",
        "caller_country",
        "caller_region",
        "caller_line_type",
        "calls",
        "answered",
        "talk_seconds",
    )
    rolled = select(R.hour.label("at"), *(getattr(R, k) for k in keys)).where(R.hour >= first, R.hour < last)
    return union_all(
        narrow(rolled, R),
        _raw_origins(narrow, Call.started_at >= start, Call.started_at < first),
        _raw_origins(narrow, Call.started_at >= last, Call.started_at < end),
        _raw_origins(
            narrow, Call.rating_status == _PENDING, Call.started_at >= first, Call.started_at < last
        ),
    ).subquery()


def call_regions(session: Session, principal: Principal, period: Period) -> CallRegions:
    """Where the period's callers were from: by region, by country, by line type (admins and
    customers; the rollup has no buyer, as a buyer's dashboard needs none)."""
    start, end = _bounds(period, principal.user.timezone, datetime.now(UTC))
    mine = _origins_in(lambda stmt, model: scoped(stmt, model, principal), start, end)

    def slices(*keys: str, top: int | None = TOP) -> list[OriginSlice]:
        columns = [mine.c[k] for k in keys]
        calls_n = _sum(mine.c.calls)
        stmt = (
            select(*columns, calls_n, _sum(mine.c.answered), _sum(mine.c.talk_seconds))
            .group_by(*columns)
            .order_by(calls_n.desc(), *columns)
            .limit(top)
        )
        names = [k.removeprefix("caller_") for k in keys]
        return [
            OriginSlice(
                **dict(zip(names, r[: len(keys)], strict=True)),
                calls=int(r[-3]),
                answered=int(r[-2]),
                talk_seconds=int(r[-1]),
            )
            for r in session.execute(stmt)
        ]

    return CallRegions(
        period=period,
        by_region=slices("caller_country", "caller_region"),
        by_country=slices("caller_country"),
        by_line_type=slices("caller_line_type", top=None),
    )
