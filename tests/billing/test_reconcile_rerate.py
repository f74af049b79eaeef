"""Re-rating after a rate change adds adjustment rows and never edits old ones; the nightly
reconciliation rates what was left and flags calls whose ledger and row disagree."""

from datetime import timedelta
from decimal import Decimal

from sqlalchemy import update

from core.billing.rating import rate_pending
from core.billing.reconcile import reconcile
from core.billing.rerate import rerate_period
from core.infra.db import session_scope
from core.models import Call
from core.values.enums import TransactionType
from testkit.rows import JAN, MAR, admin, balance, call, customer_id, get, ledger, notices, rate, tariff

DAY = timedelta(days=1)


def snapshot(user_id: int) -> list[tuple]:
    return [(r.id, r.reference, r.amount, r.balance_after, r.created_at) for r in ledger(user_id)]


def test_rerating_a_period_appends_adjustments_and_is_safe_to_repeat() -> None:
    t = tariff(("44", "0.10"))
    alice, bob = customer_id("10", t), customer_id("10", tariff(("44", "0.10")))
    calls = [call(alice, 60), call(alice, 150), call(bob, 60)]
    outside = call(alice, 60, started_at=MAR + 3 * DAY)
    rate_pending()
    before = snapshot(alice)
    assert balance(alice) == Decimal("9.5000")  # 0.10 + 0.30 + 0.10

    rate(t, "44", "0.07", effective_from=JAN + DAY)  # the corrected price, in force before the calls
    result = rerate_period(MAR - DAY, MAR + DAY, tariff_id=t)
    assert (result.calls, result.adjusted, result.delta) == (2, 2, Decimal("0.1200"))
    assert snapshot(alice)[: len(before)] == before  # the original debits are untouched
    adjustments = ledger(alice, TransactionType.ADJUSTMENT)
    assert [(r.reference, r.amount) for r in adjustments] == [
        (f"call:{calls[0]}:rerate:1", Decimal("0.0300")),
        (f"call:{calls[1]}:rerate:1", Decimal("0.0900")),
    ]
    assert [get(Call, c).cost for c in calls] == [Decimal("0.0700"), Decimal("0.2100"), Decimal("0.1000")]
    assert get(Call, outside).cost == Decimal("0.1000")
    assert balance(alice) == Decimal("9.6200") and balance(bob) == Decimal("9.9000")

    assert rerate_period(MAR - DAY, MAR + DAY, tariff_id=t).adjusted == 0  # nothing left to correct
    rate(t, "44", "0.12", effective_from=JAN + 2 * DAY)
    rerate_period(MAR - DAY, MAR + DAY, user_id=alice)
    assert [r.reference for r in ledger(alice, TransactionType.ADJUSTMENT)][-2:] == [
        f"call:{calls[0]}:rerate:2",
        f"call:{calls[1]}:rerate:2",
    ]
    assert balance(alice) == Decimal("9.4200")  # 10 - 0.12 - 0.36 - 0.10 (the March 13 call)


def test_reconciliation_rates_what_was_left_and_flags_disagreements_once() -> None:
    ada = admin()
    alice = customer_id("10", tariff(("44", "0.10")))
    tampered, fine = call(alice, 60), call(alice, 60)
    rate_pending()
    left = call(alice, 60)  # its task was lost: nobody rated it
    with session_scope() as s:  # a hand edit of a rated call
        s.execute(update(Call).where(Call.id == tampered).values(cost=Decimal("0.0500")))
    no_debit = call(alice, 60, rating_status="rated", cost=Decimal("0.2000"))  # rated with no debit behind it

    for _ in range(2):
        result = reconcile(MAR)
    assert get(Call, left).rating_status == "rated" and get(Call, left).cost == Decimal("0.1000")
    assert result.mismatched == [tampered, no_debit]
    (flag,) = [e for e in get(Call, tampered).trail if e["step"] == "reconcile"]
    assert (flag["result"], flag["cost"], flag["charged"]) == ("flagged", "0.0500", "0.1000")
    assert len([e for e in get(Call, no_debit).trail if e["step"] == "reconcile"]) == 1
    assert get(Call, fine).trail == []
    (notice,) = notices(ada)
    assert "2 call(s)" in notice and str(tampered) in notice
