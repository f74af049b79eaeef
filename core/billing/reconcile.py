"""The nightly reconciliation (domain.md, step 6): rate what was left unrated or set aside, and flag
every call whose ledger debit differs from its rated cost.

A flagged call gets an entry in its trail (shaped like the routing trail's: step, at, result,
reason) and the admins one notice per night; nothing is changed in the ledger, which only
re-rating (core.billing.rerate) corrects, with adjustment rows.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlmodel import Session

from core.billing.rating import rate_pending
from core.calls.record import Result, Step, entry
from core.infra.db import session_scope
from core.notices import bell as notices
from core.values.enums import RatingStatus
from core.values.money import format_money, money_text


@dataclass(frozen=True)
class Reconciled:
    rated: int  # pending calls rated
    retried: int  # `no_rate` and `error` calls looked at again (a rate may have been added or fixed since)
    mismatched: list[int]  # calls whose ledger and row disagree


_MISMATCHES = text("""
SELECT c.id, coalesce(c.cost, 0) AS cost, coalesce(l.charged, 0) AS charged
FROM call c
LEFT JOIN (SELECT call_id, -sum(amount) AS charged FROM wallet_transaction
           WHERE call_id IS NOT NULL GROUP BY call_id) l ON l.call_id = c.id
WHERE (c.rating_status = 'rated' OR l.call_id IS NOT NULL)
  AND coalesce(c.cost, 0) <> coalesce(l.charged, 0)
ORDER BY c.id
""")
# Appended once per disagreement: a second run finding the same figures adds nothing.
_FLAG = text("""
UPDATE call SET trail = trail || CAST(:entry AS jsonb), updated_at = :now
WHERE id = :id AND NOT trail @> CAST(:probe AS jsonb)
""")


def reconcile(now: datetime) -> Reconciled:
    rated = rate_pending(RatingStatus.PENDING)
    retried = rate_pending(RatingStatus.NO_RATE) + rate_pending(RatingStatus.ERROR)
    with session_scope() as session:
        mismatched = flag_mismatches(session, now)
    return Reconciled(rated, retried, mismatched)


def flag_mismatches(session: Session, now: datetime) -> list[int]:
    """Mark every call whose ledger rows don't sum to minus its cost; returns their ids."""
    rows = session.execute(_MISMATCHES).all()
    for row in rows:
        cost, charged = format_money(row.cost), format_money(row.charged)
        figures = {"step": Step.RECONCILE.value, "cost": cost, "charged": charged}
        reason = (
            f"The ledger charged {money_text(row.charged)} but the call is rated at {money_text(row.cost)}."
        )
        flag = entry(Step.RECONCILE, Result.FLAGGED, reason, now, cost=cost, charged=charged)
        session.execute(
            _FLAG, {"id": row.id, "now": now, "entry": json.dumps([flag]), "probe": json.dumps([figures])}
        )
    if rows:
        ids = [row.id for row in rows]
        shown = ", ".join(map(str, ids[:20])) + (" ..." if len(ids) > 20 else "")
        notices.notify_admins(
            session,
            f"Reconciliation: {len(ids)} call(s) whose ledger debit differs from the rated cost "
            f"(ids {shown}). Each is marked in its trail; re-rating the period corrects the ledger.",
            f"reconcile:{now.date().isoformat()}",
        )
    return [row.id for row in rows]
