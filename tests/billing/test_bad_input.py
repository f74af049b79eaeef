"""Input billing must refuse: a rate whose increments can't step (I or N <= 0) never reaches the
formula, and a top-up of nothing, less than nothing or not a number moves no money."""

from decimal import Decimal

import psycopg.errors
import pytest
from sqlalchemy.exc import IntegrityError

from core.infra.db import session_scope
from core.models import Rate
from testkit.rows import balance, count, ledger, tariff


@pytest.mark.parametrize("increments", [(0, 60), (60, 0), (-30, 6), (30, -6)])
def test_a_rate_with_increments_that_cannot_step_is_refused(increments: tuple[int, int]) -> None:
    t = tariff()
    with pytest.raises(IntegrityError) as refused, session_scope() as s:
        first, step = increments
        s.add(
            Rate(
                tariff_id=t,
                prefix="44",
                rate_per_minute=Decimal("0.1"),
                initial_increment=first,
                billing_increment=step,
            )
        )
    assert isinstance(refused.value.orig, psycopg.errors.CheckViolation)
    assert count(Rate) == 0


def test_bad_top_ups_answer_422_and_move_no_money(client, admin, customer_a) -> None:
    for amount in ("0", "-5", "-0.0001", "ten", "", None, "NaN", [5]):
        r = client.post(
            "/api/topup/add", json={"user_id": customer_a.id, "amount": amount}, headers=admin.headers
        )
        assert r.status_code == 422 and "amount" in r.json()["errors"], (amount, r.text)
    assert balance(customer_a.id) == Decimal("0.0000") and ledger(customer_a.id) == []
    ok = client.post(
        "/api/topup/add", json={"user_id": customer_a.id, "amount": "1e2"}, headers=admin.headers
    )
    assert ok.json()["message"] == "Credited 100.00 to Alice Customer."
