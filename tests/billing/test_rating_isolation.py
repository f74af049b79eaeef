"""One call rating can't price never stops the others (issue 19): it is set aside with the reason
and the admins are told; and the dearest call the money bounds allow still fits the ledger."""

from decimal import Decimal

from sqlalchemy import update

from core.billing.rating import rate_pending
from core.billing.reconcile import reconcile
from core.infra.db import session_scope
from core.models import Call, Rate
from core.values.enums import TransactionType
from core.values.money import LONGEST_CALL_SECONDS, MAX_CALL_COST, MAX_CONNECTION_FEE, MAX_RATE_PER_MINUTE
from testkit.rows import MAR, admin, balance, call, customer_id, get, ledger, notices, rate, tariff


def test_a_poisoned_call_is_set_aside_and_the_calls_around_it_are_rated_in_one_sweep() -> None:
    boss = admin()
    alice = customer_id("10", tariff(("44", "0.05")))
    # Written straight to the database, past the API's bounds, as the report did.
    poisoned_tariff = tariff()
    poisoned_rate = rate(poisoned_tariff, "44", "99999999999999.9999")
    mallory = customer_id("10", poisoned_tariff)
    before = call(alice, 60)
    poisoned = call(mallory, 120)  # 2e14: more than NUMERIC(18, 4) holds
    after = call(alice, 120)

    assert rate_pending() == 3

    assert [(get(Call, c).rating_status, get(Call, c).cost) for c in (before, after)] == [
        ("rated", Decimal("0.0500")),
        ("rated", Decimal("0.1000")),
    ]
    assert balance(alice) == Decimal("9.8500")
    bad = get(Call, poisoned)
    assert (bad.rating_status, bad.cost, bad.rated_at) == ("error", None, None)
    assert bad.rating_error is not None and bad.rating_error.startswith("numeric field overflow.")
    assert balance(mallory) == Decimal("10.0000") and ledger(mallory, TransactionType.CALL) == []
    [notice] = notices(boss)
    assert notice.startswith(f"Call {poisoned} could not be rated: numeric field overflow.")

    # Later sweeps leave it alone and tell nobody again.
    assert rate_pending() == 0
    assert len(notices(boss)) == 1

    # Once the rate is corrected, the nightly reconciliation rates it.
    with session_scope() as s:
        s.execute(update(Rate).where(Rate.id == poisoned_rate).values(rate_per_minute=Decimal("0.05")))
    reconcile(MAR)
    fixed = get(Call, poisoned)
    assert (fixed.rating_status, fixed.cost, fixed.rating_error) == ("rated", Decimal("0.1000"), None)
    assert balance(mallory) == Decimal("9.9000")


def test_the_dearest_call_the_bounds_allow_is_rated_and_debited() -> None:
    t = tariff()
    rate(t, "44", str(MAX_RATE_PER_MINUTE), connection_fee=MAX_CONNECTION_FEE, increments=(3600, 3600))
    alice = customer_id("0", t)
    longest = call(alice, LONGEST_CALL_SECONDS - 5)  # `duration`, 5 s more, is the same 32-bit column

    assert rate_pending() == 1

    # 596,524 hours billed at 6,000,000 an hour, plus the connection fee: within MAX_CALL_COST.
    cost = Decimal("3579144100000.0000")
    assert cost <= MAX_CALL_COST
    assert (get(Call, longest).rating_status, get(Call, longest).cost) == ("rated", cost)
    assert balance(alice) == -cost
