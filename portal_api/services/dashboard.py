"""The dashboard: how many calls, how many answered, talk time, spend, over a period in the caller's
time zone, and where the calls went. Admins see all calls, customers theirs, buyers the calls sent
to them (with their payout, never the customer's spend). Whole UTC days are read from the daily
rollups, whole hours from the hourly ones (core/reporting/rollups.py), the rest from the call rows
(docs/reports.md)."""

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, time, timedelta
from decimal import Decimal
from functools import partial
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    SQLColumnExpression,
    Subquery,
    case,
    column,
    func,
    literal,
    select,
    true,
    tuple_,
    union_all,
    values,
)
from sqlalchemy.orm import QueryableAttribute
from sqlmodel import Session

from core.infra.names import live_buyer_key, live_user_key
from core.infra.redis_client import get_redis
from core.models import (
    Buyer,
    Call,
    CallRegionRollup,
    CallRegionRollupDay,
    CallRollup,
    CallRollupDay,
    Campaign,
    Target,
    TrafficSource,
    User,
)
from core.reporting.rollups import DISPOSITION_COLUMNS, MEASURES
from core.values.enums import Disposition, RatingStatus, Role
from portal_api.auth.principal import Principal
from portal_api.schemas.dashboard import (
    Bucket,
    CallDetail,
    CallRegions,
    CallSources,
    Counts,
    DashboardCalls,
    DispositionCount,
    OriginSlice,
    PartyCounts,
    Period,
    Slice,
    SourceSlice,
)
from portal_api.services import live_feed
from portal_api.services.tenancy import get_visible, scoped

N = TypeVar("N", int, Decimal)  # a sum: of counts and seconds, or of money
TopRow = tuple[int | None, int, int, int]  # id, calls, answered, talk seconds
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


Rollup = type[CallRollup] | type[CallRollupDay]
# The rows to sum come from calls and from rollups, as statements whose columns SQLAlchemy types
# each its own way (labels, sums, cases) though they line up by name: so they are typed loosely.
Narrow = Callable[[Select[Any], type[Call] | Rollup], Select[Any]]
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
NOON = timedelta(hours=12)
_PENDING = literal(RatingStatus.PENDING.value, literal_execute=True)  # matches ix_call_unrated


def _floor(at: datetime, step: timedelta) -> datetime:
    hour = at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return hour.replace(hour=0) if step == DAY else hour


def _ceil(at: datetime, step: timedelta) -> datetime:
    floor = _floor(at, step)
    return floor + step if floor < at else floor


def _raw(narrow: Narrow, *where: ColumnElement[bool]) -> Select[Any]:
    """Call rows as rollup rows of one call each."""
    counts = [case((Call.disposition == d, 1), else_=0).label(c) for d, c in DISPOSITION_COLUMNS.items()]
    stmt = select(
        Call.started_at.label("at"),
        Call.user_id,
        Call.campaign_id,
        Call.target_id,
        Call.buyer_id,
        Call.source_id,
        literal(1).label("calls"),
        *counts,
        Call.talk_seconds,
        case((Call.converted, 1), else_=0).label("converted"),
        func.coalesce(Call.cost, 0).label("spend"),
        Call.payout,
        Call.publisher_payout,
        func.coalesce(Call.profit, 0).label("profit"),
    )
    return narrow(stmt.where(*where), Call)


def _rolled(
    model: Rollup, at: SQLColumnExpression[datetime], sign: SQLColumnExpression[int] | None = None
) -> Select[Any]:
    """Rollup rows as rows to sum, `at` the instant they count at, their sums times `sign`."""
    return select(
        at.label("at"),
        model.user_id,
        model.campaign_id,
        model.target_id,
        model.buyer_id,
        model.source_id,
        *[getattr(model, m) if sign is None else (getattr(model, m) * sign).label(m) for m in MEASURES],
    )


def _hours(narrow: Narrow, first: datetime, last: datetime) -> list[Select[Any]]:
    """The hourly rollups of [first, last), whole hours."""
    if first >= last:
        return []
    hours = _rolled(CallRollup, CallRollup.hour).where(CallRollup.hour >= first, CallRollup.hour < last)
    return [narrow(hours, CallRollup)]


def _strays(first_day: datetime, last_day: datetime, zone: ZoneInfo) -> list[datetime]:
    """The hours of the UTC days [first_day, last_day) whose local day (where the hour starts) is
    not that of their UTC day's noon, where a daily rollup counts in a series (none in UTC)."""
    strays = []
    day = first_day
    while day < last_day:
        noon = (day + NOON).astimezone(zone).date()
        strays += [h for h in (day + k * HOUR for k in range(24)) if h.astimezone(zone).date() != noon]
        day += DAY
    return strays


def _calls_in(
    narrow: Narrow, start: datetime, end: datetime, days: bool = True, zone: ZoneInfo | None = None
) -> Subquery:
    """The calls started in [start, end) as rows to sum: the daily rollups of the whole UTC days
    between (unless not `days`: an hourly series), the hourly ones of the other whole hours, and
    the call rows of the part-hours at either end (the current one) and of the calls in between
    not rated yet (still talking, or rated seconds from now).

    A daily rollup counts at its day's noon. For a series by local day in `zone` (not UTC), each
    day's hours that fall on another local day are moved there: taken off at noon, added at the
    hour. Without `zone` (totals only) nothing is moved."""
    first, last = _ceil(start, HOUR), _floor(end, HOUR)
    if first >= last:
        return _raw(narrow, Call.started_at >= start, Call.started_at < end).subquery()
    first_day, last_day = _ceil(first, DAY), _floor(last, DAY)
    if days and first_day < last_day:
        daily = _rolled(CallRollupDay, CallRollupDay.day + NOON).where(
            CallRollupDay.day >= first_day, CallRollupDay.day < last_day
        )
        rolled = [
            narrow(daily, CallRollupDay),
            *_hours(narrow, first, first_day),
            *_hours(narrow, last_day, last),
        ]
        strays = _strays(first_day, last_day, zone) if zone else []
        if strays:
            sign = values(column("sign", Integer), name="sign").data([(1,), (-1,)])
            day_noon = func.date_trunc("day", CallRollup.hour, "UTC") + NOON
            moved = _rolled(
                CallRollup, case((sign.c.sign == 1, CallRollup.hour), else_=day_noon), sign.c.sign
            )
            moved = moved.select_from(CallRollup).join(sign, true()).where(CallRollup.hour.in_(strays))
            rolled.append(narrow(moved, CallRollup))
    else:
        rolled = _hours(narrow, first, last)
    return union_all(*rolled, *_unrolled(partial(_raw, narrow), start, first, last, end)).subquery()


def _unrolled(
    raw: Callable[..., Select[Any]], start: datetime, first: datetime, last: datetime, end: datetime
) -> list[Select[Any]]:
    """The calls of [start, end) that the rollups of the whole hours [first, last) do not hold, as
    `raw` rows: those of the part-hours at either end, and those in between not rated yet."""
    return [
        raw(Call.started_at >= start, Call.started_at < first),
        raw(Call.started_at >= last, Call.started_at < end),
        raw(Call.rating_status == _PENDING, Call.started_at >= first, Call.started_at < last),
    ]


def _scope(principal: Principal) -> Narrow:
    return lambda stmt, model: scoped(stmt, model, principal)


def _sum(column: SQLColumnExpression[N]) -> ColumnElement[N]:
    return func.coalesce(func.sum(column), 0)


def _count_columns(calls: Subquery) -> list[ColumnElement[int]]:
    missed = sum((calls.c[DISPOSITION_COLUMNS[d]] for d in MISSED), start=literal(0))
    return [
        _sum(calls.c.calls),
        _sum(calls.c.answered),
        _sum(missed),
        _sum(calls.c.talk_seconds),
        _sum(calls.c.converted),
    ]


def _counts(row: Sequence[int | Decimal]) -> Counts:
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
    """Call counts for a period, with an hourly (today, yesterday) or daily series: one scan, by
    bucket, the totals added up here."""
    tz = principal.user.timezone
    zone = ZoneInfo(tz)
    start, end = _bounds(period, tz, datetime.now(UTC))
    hourly = period in (Period.TODAY, Period.YESTERDAY)
    mine = _calls_in(_scope(principal), start, end, days=not hourly, zone=zone)
    bucket = func.date_trunc("hour" if hourly else "day", func.timezone(tz, mine.c.at)).label("bucket")
    rows = session.execute(
        select(bucket, *_count_columns(mine), _sum(mine.c.spend), _sum(mine.c.payout))
        .select_from(mine)
        .group_by(bucket)
        .order_by(bucket)
    ).all()
    totals = [sum((row[k] for row in rows), start=0) for k in range(1, 8)]
    summary = _counts(totals[:5])
    spend, payout = (Decimal(v) for v in totals[5:])
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
        # A day whose calls all moved to the next local day (_calls_in) sums to none: not a bucket.
        series=[
            Bucket(at=row[0].replace(tzinfo=zone), calls=row[1], answered=row[2]) for row in rows if row[1]
        ],
    )


def _top(session: Session, rows: list[TopRow], model: type[Campaign] | type[Target]) -> list[Slice]:
    """The TOP busiest of `rows` (id, calls, answered, talk seconds), with their names."""
    top = sorted(rows, key=lambda r: (-r[1], r[0] is None, r[0] or 0))[:TOP]
    ids = [r[0] for r in top if r[0] is not None]
    names = dict(session.execute(select(model.id, model.name).where(model.id.in_(ids))).all()) if ids else {}
    return [
        Slice(id=i, name=names.get(i) or "(none)", calls=n, answered=a, talk_seconds=int(t))
        for i, n, a, t in top
    ]


def call_detail(session: Session, principal: Principal, period: Period) -> CallDetail:
    """Where the period's calls went: by disposition, the busiest campaigns and targets. One scan:
    grouped by campaign, by target and not at all (grouping sets)."""
    start, end = _bounds(period, principal.user.timezone, datetime.now(UTC))
    mine = _calls_in(_scope(principal), start, end)
    campaign, target = mine.c.campaign_id, mine.c.target_id
    rows = session.execute(
        select(
            func.grouping(campaign, target),
            campaign,
            target,
            _sum(mine.c.calls),
            _sum(mine.c.answered),
            _sum(mine.c.talk_seconds),
            *[_sum(mine.c[c]) for c in DISPOSITION_COLUMNS.values()],
        )
        .select_from(mine)
        .group_by(func.grouping_sets(tuple_(campaign), tuple_(target), tuple_()))
    ).all()
    # GROUPING(campaign, target): 1 for the rows by campaign, 2 by target, 3 the total.
    by_campaign = [(r[1], *r[3:6]) for r in rows if r[0] == 1]
    by_target = [(r[2], *r[3:6]) for r in rows if r[0] == 2]
    sums = next((r[6:] for r in rows if r[0] == 3), [0] * len(DISPOSITION_COLUMNS))
    dispositions = sorted(
        ((d, int(n)) for d, n in zip(DISPOSITION_COLUMNS, sums, strict=True) if n), key=lambda dn: -dn[1]
    )
    return CallDetail(
        period=period,
        by_disposition=[DispositionCount(disposition=d, calls=n) for d, n in dispositions],
        by_campaign=_top(session, by_campaign, Campaign),
        by_target=_top(session, by_target, Target),
    )


ZERO = Counts(calls=0, answered=0, missed=0, refused=0, talk_seconds=0, converted=0)


def _parties(
    session: Session,
    column: QueryableAttribute[int | None],
    named: list[tuple[int, str]],
    tz: str,
    live_key: Callable[[int], str],
) -> list[PartyCounts]:
    """Per customer or buyer (`column` is the call's user_id or buyer_id): its calls today and this
    month (one query each, whatever the number of parties) and its live calls now."""
    ids = [i for i, _ in named]
    found: dict[int, dict[Period, Counts]] = {i: {} for i in ids}
    now = datetime.now(UTC)

    def narrow(stmt: Select[Any], model: type[Call] | Rollup) -> Select[Any]:
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


OriginNarrow = Callable[
    [Select[Any], type[Call] | type[CallRegionRollup] | type[CallRegionRollupDay]], Select[Any]
]


def _raw_origins(narrow: OriginNarrow, *where: ColumnElement[bool]) -> Select[Any]:
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
    """As `_calls_in` for totals, from the rollups by region (core/reporting/region_rollups.py): the
    daily ones of the whole UTC days between, the hourly ones of the other whole hours, and the
    call rows."""
    first, last = _ceil(start, HOUR), _floor(end, HOUR)
    if first >= last:
        return _raw_origins(narrow, Call.started_at >= start, Call.started_at < end).subquery()
    first_day, last_day = _ceil(first, DAY), _floor(last, DAY)
    if first_day >= last_day:  # no whole UTC day: hours only
        first_day = last_day = last
    keys = (
        "user_id",
        "caller_country",
        "caller_region",
        "caller_line_type",
        "calls",
        "answered",
        "talk_seconds",
    )

    def rolled(
        model: type[CallRegionRollup] | type[CallRegionRollupDay], at: Any, a: datetime, b: datetime
    ) -> Select[Any]:
        return narrow(
            select(at.label("at"), *(getattr(model, k) for k in keys)).where(at >= a, at < b), model
        )

    H, D = CallRegionRollup, CallRegionRollupDay
    parts = [
        rolled(H, H.hour, first, first_day),
        rolled(D, D.day, first_day, last_day),
        rolled(H, H.hour, last_day, last),
    ]
    raw = partial(_raw_origins, narrow)
    return union_all(*parts, *_unrolled(raw, start, first, last, end)).subquery()


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


_NO_SOURCE = "(no source)"


def call_sources(session: Session, principal: Principal, period: Period) -> CallSources:
    """The period's calls by traffic source, with what they earned and cost (admins, customers; a
    buyer sees none of it): one scan of the rollups and the unrolled rows, by source and in all."""
    start, end = _bounds(period, principal.user.timezone, datetime.now(UTC))
    mine = _calls_in(_scope(principal), start, end)
    source = mine.c.source_id
    sums = [
        _sum(mine.c[c])
        for c in ("calls", "answered", "converted", "payout", "spend", "publisher_payout", "profit")
    ]
    rows = session.execute(
        select(func.grouping(source), source, *sums)
        .select_from(mine)
        .group_by(func.grouping_sets(tuple_(source), tuple_()))
    ).all()
    ids = [r[1] for r in rows if r[0] == 0 and r[1] is not None]
    names = dict(
        session.execute(select(TrafficSource.id, TrafficSource.name).where(TrafficSource.id.in_(ids))).all()
    )

    def sliced(source_id: int | None, name: str, values: Sequence[int | Decimal]) -> SourceSlice:
        calls, answered, converted, revenue, cost, publisher, profit = values
        return SourceSlice(
            id=source_id,
            name=name,
            calls=int(calls),
            answered=int(answered),
            converted=int(converted),
            revenue=Decimal(revenue),
            cost=Decimal(cost),
            publisher_payout=Decimal(publisher),
            profit=Decimal(profit),
        )

    by_source = [sliced(r[1], names.get(r[1], _NO_SOURCE), r[2:]) for r in rows if r[0] == 0 and r[2]]
    by_source.sort(key=lambda s: (-s.calls, s.id is None, s.name.lower()))
    total = next((r[2:] for r in rows if r[0] == 1), [0] * len(sums))
    return CallSources(period=period, by_source=by_source, total=sliced(None, "All calls", total))
