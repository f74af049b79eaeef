"""Monthly number fees on each number's anniversary, suspension and return after a top-up, and
the low-balance notice (one per dip below 50, not one per call)."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from core.billing import fees
from core.billing.rating import rate_pending
from core.models import Number, User
from core.values.enums import NumberStatus, TransactionType
from testkit.rows import balance, call, customer_id, get, ledger, notices, save, tariff, top_up

BOUGHT = datetime(2026, 1, 31, 10, 0, tzinfo=UTC)


def number(
    owner: int, fee: str = "2", paid_until: datetime = datetime(2026, 2, 28, 10, 0, tzinfo=UTC)
) -> int:
    row = Number(
        number="+442071838750",
        user_id=owner,
        monthly_fee=Decimal(fee),
        assigned_at=BOUGHT,
        paid_until=paid_until,
    )
    return save(row).id or 0


def test_the_monthly_fee_falls_due_on_each_anniversary_and_is_charged_once() -> None:
    alice = customer_id("10")
    n = number(alice)
    fees.charge_due(datetime(2026, 2, 28, 9, 59, tzinfo=UTC))
    assert ledger(alice, TransactionType.NUMBER_MONTHLY) == []
    for _ in range(2):  # the hourly job, twice in the hour
        fees.charge_due(datetime(2026, 2, 28, 10, 5, tzinfo=UTC))
    fees.charge_due(datetime(2026, 4, 1, tzinfo=UTC))
    charged = ledger(alice, TransactionType.NUMBER_MONTHLY)
    assert [(r.reference, r.amount, r.number_id) for r in charged] == [
        (f"number:{n}:monthly:2026-02-28", Decimal("-2.0000"), n),
        (f"number:{n}:monthly:2026-03-31", Decimal("-2.0000"), n),  # back to the 31st, not the 28th
    ]
    assert get(Number, n).paid_until == datetime(2026, 4, 30, 10, 0, tzinfo=UTC)
    assert balance(alice) == Decimal("6.0000")


def test_a_number_its_owner_cannot_pay_for_is_suspended_until_a_top_up(client, admin) -> None:
    alice = customer_id("3")
    due = datetime.now(UTC) - timedelta(days=40)  # two periods due: 40 days ago and about 10 days ago
    n = number(alice, paid_until=due)
    for _ in range(2):
        fees.charge_due(datetime.now(UTC))
    assert get(Number, n).status == NumberStatus.SUSPENDED
    assert balance(alice) == Decimal("1.0000")  # the first period paid, the second not
    (suspended,) = [t for t in notices(alice) if "suspended" in t]
    assert "+442071838750" in suspended and "Top up" in suspended

    r = client.post("/api/topup/add", json={"user_id": alice, "amount": "5"}, headers=admin.headers)
    assert r.status_code == 201, r.text
    assert get(Number, n).status == NumberStatus.ACTIVE
    assert get(Number, n).paid_until > datetime.now(UTC)
    assert balance(alice) == Decimal("4.0000")
    assert len(ledger(alice, TransactionType.NUMBER_MONTHLY)) == 2
    assert any("active again" in t for t in notices(alice))


def test_low_balance_is_noticed_once_per_dip_not_once_per_call() -> None:
    alice = customer_id("60", tariff(("44", "6")))  # 6.00 per minute
    for _ in range(4):  # 54, 48 (crosses: notice), 42, 36
        call(alice, 60)
        rate_pending()
    low = [t for t in notices(alice) if "below 50.00:" in t]
    assert len(low) == 1 and "Your balance is 48.00," in low[0]
    assert get(User, alice).low_balance_notified_at is not None

    top_up(alice, "100")  # recovers: 136, the flag clears
    assert get(User, alice).low_balance_notified_at is None
    for _ in range(15):  # down to 46: one more notice for the new dip
        call(alice, 60, started_at=datetime(2026, 3, 11, tzinfo=UTC) + timedelta(minutes=1))
    rate_pending()
    assert balance(alice) == Decimal("46.0000")
    assert len([t for t in notices(alice) if "below" in t]) == 2
