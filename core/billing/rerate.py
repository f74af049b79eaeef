"""Re-rating a period after a rate change: each rated call is priced again at the rates now in
force at its start, and the difference goes to the ledger as an adjustment row
(`call:{id}:rerate:{n}`); the original debit is never edited. The publisher payout is owed again
on the call's traffic source's terms now, and the profit follows both. Running it again finds no
difference and writes nothing.

And one call's conversion and payout again, when what was said on it changed them
(`rerate_conversion`, through rating's own rule, `rating.earned`).
"""

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Row, select, text
from sqlmodel import Session

from core.billing import rating, wallet
from core.billing.prefixes import TariffCache
from core.billing.pricing import call_cost
from core.billing.publisher import profit, publisher_payout, terms_of
from core.infra.db import session_scope
from core.models import Call, User
from core.models.columns import utcnow
from core.reporting import rollup_deltas, rollups
from core.values.enums import TransactionType
from core.values.money import money_text

BATCH = 2000
ZERO = Decimal(0)
# A call whose money changed: (id, started_at, cost, rate_id, publisher_payout, profit).
Changed = tuple[int, datetime, Decimal | None, int | None, Decimal, Decimal | None]


@dataclass
class Rerated:
    calls: int = 0  # calls looked at
    adjusted: int = 0  # adjustment rows written
    unmatched: int = 0  # calls no rate covers any more: left as they were
    delta: Decimal = field(default_factory=Decimal)  # net change to the customers' balances


# One table, walked in id order: a plan that stays cheap whatever the statistics say.
_CLAIM = text("""
SELECT c.id, c.user_id, coalesce(c.destination, c.did) AS number, c.started_at, c.billsec, c.cost, c.rate_id,
       c.converted, c.payout, c.publisher_payout, c.profit, c.source_id
FROM call c
WHERE c.user_id = ANY(:user_ids) AND c.rating_status = 'rated' AND c.billsec > 0
  AND c.started_at >= :start AND c.started_at < :end AND c.id > :after
ORDER BY c.id
LIMIT :limit
FOR UPDATE
""")
_LEDGER = text("""
SELECT call_id, sum(amount) AS amount, count(*) FILTER (WHERE transaction_type = 'adjustment') AS reruns
FROM wallet_transaction WHERE call_id = ANY(:ids) GROUP BY call_id
""")
# By the whole key, (id, started_at): each row is found in its month's partition only.
_SAVE = text("""
UPDATE call c SET cost = d.cost, rate_id = d.rate_id, publisher_payout = d.publisher_payout,
                  profit = d.profit, rated_at = :now, updated_at = :now
FROM unnest(CAST(:ids AS bigint[]), CAST(:started AS timestamptz[]), CAST(:costs AS numeric[]),
            CAST(:rate_ids AS int[]), CAST(:publisher AS numeric[]), CAST(:profits AS numeric[]))
     AS d(id, started_at, cost, rate_id, publisher_payout, profit)
WHERE c.id = d.id AND c.started_at = d.started_at
""")


def rerate_period(
    start: datetime,
    end: datetime,
    tariff_id: int | None = None,
    user_id: int | None = None,
    batch: int = BATCH,
    workers: int = rating.WORKERS,
) -> Rerated:
    """Re-rate the calls started in [start, end) (of one tariff's customers, or one customer),
    a batch per transaction, `workers` transactions at once, each for its own share of the
    customers (so they never wait for each other's ledger rows)."""
    customers = select(User.id, User.tariff_id).where(User.tariff_id.is_not(None))
    if tariff_id is not None:
        customers = customers.where(User.tariff_id == tariff_id)
    if user_id is not None:
        customers = customers.where(User.id == user_id)
    with session_scope() as session:
        tariffs: dict[int, int] = dict(session.execute(customers).all())
    ids = sorted(tariffs)
    shares = [ids[n::workers] for n in range(min(workers, len(ids)))] or [[]]

    def work(share: list[int]) -> Rerated:
        window: dict[str, object] = {"start": start, "end": end, "user_ids": share, "limit": batch}
        after: int | None
        result, cache, after = Rerated(), TariffCache(), 0
        while after is not None:
            with session_scope() as session:
                after = _rerate_batch(session, cache, tariffs, result, {**window, "after": after})
        return result

    if len(shares) == 1:
        return work(shares[0])
    with ThreadPoolExecutor(len(shares), thread_name_prefix="rerating") as pool:
        parts = list(pool.map(work, shares))
    return Rerated(
        calls=sum(p.calls for p in parts),
        adjusted=sum(p.adjusted for p in parts),
        unmatched=sum(p.unmatched for p in parts),
        delta=sum((p.delta for p in parts), Decimal(0)),
    )


def _rerate_batch(
    session: Session, cache: TariffCache, tariffs: dict[int, int], result: Rerated, window: dict[str, object]
) -> int | None:
    """One batch into `result`; returns the id to continue after, None when the period is done."""
    rows = _claim(session, window)
    if not rows:
        return None
    ledger = _charged(session, [r.id for r in rows])
    entries: list[wallet.Entry] = []
    changed: list[Changed] = []
    sources = terms_of(session, (row.source_id for row in rows))
    for row in rows:
        result.calls += 1
        owed = publisher_payout(sources.get(row.source_id), row.converted, row.payout)
        found = cache.lookup(session, tariffs[row.user_id], row.number, row.started_at)
        if found is None:  # its price is left as it was; what its publisher is owed follows the terms
            result.unmatched += 1
            if owed != row.publisher_payout:
                changed.append(
                    (row.id, row.started_at, row.cost, row.rate_id, owed, profit(row.payout, row.cost, owed))
                )
            continue
        rate_id, price = found
        cost = call_cost(row.billsec, price)
        posted = ledger.get(row.id)
        charged = -posted.amount if posted else Decimal(0)
        if cost != charged:
            runs = (posted.reruns if posted else 0) + 1
            entries.append(
                wallet.Entry(
                    row.user_id,
                    TransactionType.ADJUSTMENT,
                    charged - cost,
                    f"call:{row.id}:rerate:{runs}",
                    f"Call {row.id} re-rated: {money_text(charged)} -> {money_text(cost)}",
                    row.id,
                )
            )
            result.delta += charged - cost
        earned = profit(row.payout, cost, owed)
        if cost != row.cost or rate_id != row.rate_id or owed != row.publisher_payout or earned != row.profit:
            changed.append((row.id, row.started_at, cost, rate_id, owed, earned))
    result.adjusted += wallet.post_many(session, entries)
    if changed:
        _save(session, changed)
        old = {row.id: row for row in rows}
        rollup_deltas.move_money(session, [_moved(old[c[0]], c) for c in changed])
    return int(rows[-1].id)


def _moved(was: Row[Any], now: Changed) -> rollup_deltas.Moved:
    """What a call's new price moved in the rollups, which count an unknown cost or profit as 0."""
    call_id, started, cost, _, owed, earned = now
    return (
        call_id,
        started,
        (cost or ZERO) - (was.cost or ZERO),
        owed - was.publisher_payout,
        (earned or ZERO) - (was.profit or ZERO),
    )


# Rows of text queries (_CLAIM, _LEDGER): SQLAlchemy can't type their columns.
def _claim(session: Session, window: dict[str, object]) -> Sequence[Row[Any]]:
    return session.execute(_CLAIM, window).all()


def _charged(session: Session, call_ids: list[int]) -> dict[int, Row[Any]]:
    """What the ledger holds for each call: (call_id, amount summed, reruns so far)."""
    return {r.call_id: r for r in session.execute(_LEDGER, {"ids": call_ids})}


def _save(session: Session, changed: list[Changed]) -> None:
    """The new price, publisher payout and profit of the calls whose money changed."""
    ids, started, costs, rate_ids, publisher, profits = (
        list(column) for column in zip(*changed, strict=True)
    )
    session.execute(
        _SAVE,
        {
            "now": utcnow(),
            "ids": ids,
            "started": started,
            "costs": costs,
            "rate_ids": rate_ids,
            "publisher": publisher,
            "profits": profits,
        },
    )


def rerate_conversion(session: Session, call: Call) -> bool:
    """A call's conversion and payout worked out again, once rating has been through it, because
    its keyword rules changed what it is (core.conversation); its cost is left as it is, the
    publisher payout and the profit follow. Whether
    they changed. The caller holds the row locked and commits; the dashboard's rollups follow."""
    converted, payout = rating.earned(**rating.earning(session, call))
    if (converted, payout) == (call.converted, call.payout):
        return False
    terms = terms_of(session, [call.source_id]).get(call.source_id) if call.source_id is not None else None
    owed = publisher_payout(terms, converted, payout)
    call.converted, call.payout, call.updated_at = converted, payout, utcnow()
    call.publisher_payout, call.profit = owed, profit(payout, call.cost, owed)
    session.add(call)
    session.flush()
    rollups.refresh(session, [call.id or 0])
    return True
