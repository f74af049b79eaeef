"""Rating calls (domain.md, step 5): price each call at its customer's tariff, debit the wallet
and mark the call rated, in one transaction, once per call.

Two paths give the same answer: `rate_call` for one call as it hangs up (`pricing.find_rate`, a
few index probes) and `rate_pending` for many, in batches (the tariff's rate card in memory, one
statement per step). Both lock the call rows and skip calls already rated, and the ledger reference
`call:{id}` is unique, so a repeated or concurrent task never charges twice. A call no rate
matches is not free: it is left `no_rate`, the admins are told, and reconciliation retries it.
A call the batch can't write (an amount out of the column's range) is set aside as `error`, with
the reason, so that it never holds up the other calls; reconciliation retries it too.
"""

import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, TypedDict

import psycopg
from sqlalchemy import Row, select, text
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError
from sqlmodel import Session

from core.billing import credit, wallet
from core.billing.prefixes import TariffCache
from core.billing.pricing import Price, call_cost, find_rate
from core.billing.publisher import PublisherTerms, profit, publisher_payout, terms_of
from core.infra.db import session_scope
from core.models import Call, CallConversation, Campaign, Target, User
from core.models.columns import utcnow
from core.notices import bell as notices
from core.reporting import rollup_deltas, rollups
from core.values.enums import RatingStatus, TransactionType
from core.values.money import round_money
from core.webhooks import intake as call_hooks

BATCH = 2000
# Batches rated at once by a sweep: while one waits on PostgreSQL (writing its call rows, mostly),
# another prices its calls or writes its own; the ledger and the rollups still go one at a time.
WORKERS = 2
ZERO = round_money(Decimal(0))


@dataclass(frozen=True)
class Rated:
    status: RatingStatus
    rate_id: int | None
    cost: Decimal | None
    converted: bool
    payout: Decimal
    publisher_payout: Decimal = ZERO  # owed to the call's traffic source (core.billing.publisher)
    profit: Decimal | None = None  # payout - cost - publisher_payout; None while the cost is unknown


def earned(
    *,
    connected: bool,
    talk_ms: int,
    buffer_seconds: int | None,
    target_payout: Decimal | None,
    said: bool | None = None,
) -> tuple[bool, Decimal]:
    """Whether a call converted, and the payout it earns. Converted when connected to the target at
    least the campaign's buffer seconds (talk time, not IVR time, to the millisecond: 29.990 s is
    short of a 30 s buffer), unless its keyword rules said otherwise (`said`, core.conversation:
    True converted by a phrase, False not billable to the buyer); converted calls earn the target's
    payout (or the call's winning bid)."""
    converted = connected and buffer_seconds is not None and talk_ms >= buffer_seconds * 1000
    if said is not None:
        converted = connected and said
    return converted, round_money(target_payout or ZERO) if converted else ZERO


def assess(
    *,
    has_customer: bool,
    billsec: int,
    found: tuple[int, Price] | None,
    connected: bool,
    talk_ms: int,
    buffer_seconds: int | None,
    target_payout: Decimal | None,
    said: bool | None = None,
    publisher: PublisherTerms | None = None,
) -> Rated:
    """What a call costs and earns. Free when nobody talked or no customer took it; `no_rate` when
    it was billable and no rate matched. Converted and its payout: `earned`; a converted call owes
    its traffic source its publisher payout."""
    converted, payout = earned(
        connected=connected,
        talk_ms=talk_ms,
        buffer_seconds=buffer_seconds,
        target_payout=target_payout,
        said=said,
    )
    owed = publisher_payout(publisher, converted, payout)
    if not has_customer or billsec <= 0:
        status, rate_id, cost = RatingStatus.RATED, None, ZERO
    elif found is None:
        status, rate_id, cost = RatingStatus.NO_RATE, None, None
    else:
        status, rate_id, cost = RatingStatus.RATED, found[0], call_cost(billsec, found[1])
    return Rated(status, rate_id, cost, converted, payout, owed, profit(payout, cost, owed))


def reference(call_id: int) -> str:
    return f"call:{call_id}"


def rate_call(session: Session, call_id: int) -> Call | None:
    """Rate one call, debit its cost and release its credit hold. A rated call is left as it is.
    The caller commits."""
    stmt = select(Call).where(Call.id == call_id).with_for_update()
    call = session.scalars(stmt.execution_options(populate_existing=True)).first()
    if call is None or call.rating_status == RatingStatus.RATED:
        return call
    was_pending = call.rating_status == RatingStatus.PENDING
    found = None
    number = call.destination or call.did
    if call.user_id is not None and call.billsec > 0:
        tariff_id = session.scalar(select(User.tariff_id).where(User.id == call.user_id))
        rate = find_rate(session, tariff_id, number, call.started_at) if tariff_id else None
        found = (rate.id or 0, Price.of(rate)) if rate else None
    terms = None if call.source_id is None else terms_of(session, [call.source_id]).get(call.source_id)
    rated = assess(
        has_customer=call.user_id is not None,
        billsec=call.billsec,
        found=found,
        publisher=terms,
        **earning(session, call),
    )
    now = utcnow()
    call.rating_status, call.rate_id, call.cost = rated.status.value, rated.rate_id, rated.cost
    call.converted, call.payout, call.rated_at, call.updated_at = rated.converted, rated.payout, now, now
    call.publisher_payout, call.profit = rated.publisher_payout, rated.profit
    session.add(call)
    if rated.cost:
        wallet.post(
            session,
            user_id=call.user_id or 0,
            kind=TransactionType.CALL,
            amount=-rated.cost,
            reference=reference(call_id),
            description=_description(number, call.billsec),
            call_id=call_id,
        )
    elif rated.status is RatingStatus.NO_RATE:
        flag_unrated(session, [call.user_id or 0], now)
    credit.release(session, call.linkedid)
    session.flush()
    if was_pending:  # new to the rollups: added, not its hour summed again
        rollup_deltas.add_calls(session, [(call_id, call.started_at)])
    else:
        rollups.refresh(session, [call_id])
    call_hooks.rated(session, [call_id])
    return call


class Earning(TypedDict):
    connected: bool
    talk_ms: int
    buffer_seconds: int | None
    target_payout: Decimal | None
    said: bool | None


def earning(session: Session, call: Call) -> Earning:
    """What a call's conversion and payout depend on (`earned`), read for one call."""
    # A bidder's winning bid is the call's payout in place of the target's (docs/bidding.md).
    payout = (
        call.bid
        if call.bid is not None
        else session.scalar(select(Target.payout).where(Target.id == call.target_id))
    )
    return {
        "connected": call.connected_at is not None,
        "talk_ms": call.talk_seconds * 1000 if call.talk_ms is None else call.talk_ms,
        "buffer_seconds": session.scalar(
            select(Campaign.buffer_seconds).where(Campaign.id == call.campaign_id)
        ),
        "target_payout": payout,
        "said": session.scalar(select(CallConversation.converted).where(CallConversation.call_id == call.id)),
    }


def rate_hangup(session: Session, linkedid: str) -> Call | None:
    """rate_call for a call known by Asterisk's linkedid, as the bridge knows it at hangup. None
    while its row is not written yet: the 30-second batch rates it once it is."""
    call_id = session.scalar(select(Call.id).where(Call.linkedid == linkedid))
    return rate_call(session, call_id) if call_id is not None else None


_CLAIM = """
SELECT c.id, c.user_id, c.linkedid, coalesce(c.destination, c.did) AS number, c.started_at, c.billsec,
       coalesce(c.talk_ms, c.talk_seconds::bigint * 1000) AS talk_ms, c.connected_at IS NOT NULL AS connected,
       u.tariff_id, cp.buffer_seconds, coalesce(c.bid, t.payout) AS payout, c.source_id, v.converted AS said,
       c.rating_status AS was
FROM call c
LEFT JOIN users u ON u.id = c.user_id
LEFT JOIN campaign cp ON cp.id = c.campaign_id
LEFT JOIN target t ON t.id = c.target_id
LEFT JOIN call_conversation v ON v.call_id = c.id
WHERE c.rating_status = '{status}' AND c.ended_at IS NOT NULL AND c.id > :after
ORDER BY c.id
LIMIT :limit
FOR UPDATE OF c SKIP LOCKED
"""
# By the whole key, (id, started_at): each row is found in its month's partition only.
_SAVE = text("""
UPDATE call c SET rating_status = d.status, rate_id = d.rate_id, cost = d.cost, converted = d.converted,
                  payout = d.payout, publisher_payout = d.publisher_payout, profit = d.profit,
                  rated_at = :now, updated_at = :now, rating_error = NULL
FROM unnest(CAST(:ids AS bigint[]), CAST(:started AS timestamptz[]), CAST(:statuses AS text[]),
            CAST(:rate_ids AS int[]), CAST(:costs AS numeric[]), CAST(:converted AS boolean[]),
            CAST(:payouts AS numeric[]), CAST(:publisher AS numeric[]), CAST(:profits AS numeric[]))
     AS d(id, started_at, status, rate_id, cost, converted, payout, publisher_payout, profit)
WHERE c.id = d.id AND c.started_at = d.started_at
""")


# A row whose data can't be rated (an amount out of the column's range, say), as opposed to a lost
# connection or a deadlock, which fail the whole batch for the next sweep to retry.
_ROW_FAULTS = (psycopg.DataError, psycopg.IntegrityError, DataError, IntegrityError, ArithmeticError)
_SET_ASIDE = text("""
UPDATE call SET rating_status = :status, rating_error = :reason, updated_at = :now WHERE id = :id
""")


def rate_claimed(session: Session, cache: TariffCache, rows: Sequence[Row[Any]]) -> None:
    """Rate the rows `_claim` locked. When the batch fails on a row's data, it is rated again row
    by row and each row that still fails is set aside (`error`, with the reason, and the admins
    told) so one bad call never stops the others."""
    if not rows:
        return
    try:
        with session.begin_nested():
            _rate_rows(session, cache, rows)
    except _ROW_FAULTS:
        for row in rows:
            try:
                with session.begin_nested():
                    _rate_rows(session, cache, [row])
            except _ROW_FAULTS as exc:
                set_aside(session, row.id, _reason(exc))


# The claimed rows come from a text query (_CLAIM): SQLAlchemy can't type their columns.
def _claim(session: Session, status: RatingStatus, after: int, limit: int) -> Sequence[Row[Any]]:
    return session.execute(text(_CLAIM.format(status=status.value)), {"after": after, "limit": limit}).all()


def _rate_rows(session: Session, cache: TariffCache, rows: Sequence[Row[Any]]) -> None:
    saved: list[Rated] = []  # in the rows' order
    entries: list[wallet.Entry] = []
    unrated: set[int] = set()
    sources = terms_of(session, (row.source_id for row in rows))
    for row in rows:
        billable = row.user_id is not None and row.billsec > 0
        rated = assess(
            has_customer=row.user_id is not None,
            billsec=row.billsec,
            found=cache.lookup(session, row.tariff_id, row.number, row.started_at) if billable else None,
            connected=row.connected,
            talk_ms=row.talk_ms,
            buffer_seconds=row.buffer_seconds,
            target_payout=row.payout,
            publisher=sources.get(row.source_id),
            said=row.said,
        )
        saved.append(rated)
        if rated.cost:
            description = _description(row.number, row.billsec)
            entries.append(
                wallet.Entry(
                    row.user_id, TransactionType.CALL, -rated.cost, reference(row.id), description, row.id
                )
            )
        elif rated.status is RatingStatus.NO_RATE:
            unrated.add(row.user_id)
    now = utcnow()
    # The batch's own rows first: the ledger locks the customers' rows, which every batch run at
    # once (rate_pending's workers) waits for, until the commit.
    _save(session, rows, saved, now)
    credit.release_many(session, [row.linkedid for row in rows])
    wallet.post_many(session, entries)
    flag_unrated(session, unrated, now)
    if all(row.was == RatingStatus.PENDING for row in rows):  # new to the rollups: added
        rollup_deltas.add_calls(session, [(row.id, row.started_at) for row in rows])
    else:  # in them already, as they were: their hours summed again
        rollups.refresh_hours(session, rollups.hours_started(row.started_at for row in rows))
    call_hooks.rated(session, [row.id for row in rows])


def _save(session: Session, rows: Sequence[Row[Any]], rated: Sequence[Rated], now: datetime) -> None:
    """Each claimed row's rating, `rated` in the same order."""
    session.execute(
        _SAVE,
        {
            "now": now,
            "ids": [row.id for row in rows],
            "started": [row.started_at for row in rows],
            "statuses": [r.status.value for r in rated],
            "rate_ids": [r.rate_id for r in rated],
            "costs": [r.cost for r in rated],
            "converted": [r.converted for r in rated],
            "payouts": [r.payout for r in rated],
            "publisher": [r.publisher_payout for r in rated],
            "profits": [r.profit for r in rated],
        },
    )


def set_aside(session: Session, call_id: int, reason: str) -> None:
    """Mark a call rating can't price as `error`, charged nothing, and tell the admins once."""
    session.execute(
        _SET_ASIDE, {"id": call_id, "status": RatingStatus.ERROR.value, "reason": reason, "now": utcnow()}
    )
    rollups.refresh(session, [call_id])
    notices.notify_admins(
        session,
        f"Call {call_id} could not be rated: {reason} It is set aside (rating status 'error') and "
        "charged nothing; every other call is rated. Correct its rate and the nightly reconciliation "
        "rates it again.",
        f"rating_error:{call_id}",
    )


def _reason(exc: Exception) -> str:
    """The database's own words (message, detail, where), or the exception's, for the call row."""
    error: BaseException = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    if isinstance(error, psycopg.Error) and error.diag.message_primary:
        diag = error.diag
        parts = (diag.message_primary, diag.message_detail, diag.context)
        said = " ".join(p.strip().rstrip(".") + "." for p in parts if p and p.strip())
    else:
        said = f"{type(error).__name__}: {error}"
    return said[:500]


def rate_pending(
    status: RatingStatus = RatingStatus.PENDING,
    batch: int = BATCH,
    budget_seconds: float = 200,
    workers: int = WORKERS,
) -> int:
    """Rate every ended call in `status`, a batch per transaction, `workers` transactions at once,
    within a time budget (the next run carries on). Returns how many calls were processed."""
    deadline = time.monotonic() + budget_seconds
    claims = _Claims(status, batch)

    def work() -> int:
        cache, total = TariffCache(), 0
        while time.monotonic() < deadline:
            with session_scope() as session:
                rows = claims.next(session)
                rate_claimed(session, cache, rows)
            total += len(rows)
            if not rows:
                break
        return total

    if workers == 1:
        return work()
    with ThreadPoolExecutor(workers, thread_name_prefix="rating") as pool:
        return sum(pool.map(lambda _: work(), range(workers)))


class _Claims:
    """The workers' shared place in the calls: each claims the next batch after the last one any
    of them claimed, so a run rates each call once (a call left `no_rate` is not claimed again
    when its status is the one being retried)."""

    def __init__(self, status: RatingStatus, batch: int) -> None:
        self.status, self.batch, self.after = status, batch, 0
        self._lock = threading.Lock()

    def next(self, session: Session) -> Sequence[Row[Any]]:
        with self._lock:
            rows = _claim(session, self.status, self.after, self.batch)
            if rows:
                self.after = rows[-1].id
            return rows


def flag_unrated(session: Session, user_ids: Iterable[int], at: datetime) -> None:
    """Tell the admins, once per customer per day, that billable calls matched no rate."""
    ids = sorted(set(user_ids))
    if not ids:
        return
    told = []
    for user_id, name, tariff_id in session.execute(
        select(User.id, User.name, User.tariff_id).where(User.id.in_(ids))
    ):
        why = "has no tariff" if tariff_id is None else f"match no rate of tariff {tariff_id}"
        message = (
            f"Calls of {name} (customer {user_id}) {why}. They are flagged 'no_rate' and charged "
            "nothing until a rate covers them; reconciliation retries them nightly."
        )
        told.append((message, f"no_rate:{user_id}:{at.date().isoformat()}"))
    notices.notify_admins_of(session, told)


def _description(number: str, billsec: int) -> str:
    return f"Call to {number}, {billsec} s"[:255]
