"""The rating formula of domain.md and the longest-prefix rate lookup, on a real rate card."""

from datetime import UTC, datetime
from decimal import Decimal

from core.billing.pricing import Price, billable_seconds, call_cost, find_rate, minimum_charge
from core.infra.db import session_scope
from core.models import Rate, Tariff

P = Price(Decimal("0.05"), Decimal("0"), 30, 6, 0)


def test_worked_example_from_the_domain() -> None:
    assert billable_seconds(45, P) == 48
    assert call_cost(45, P) == Decimal("0.0400")


def test_blocks_minimum_duration_and_connection_fee() -> None:
    assert [billable_seconds(d, P) for d in (0, 1, 30, 31, 36, 37)] == [0, 30, 30, 36, 36, 42]
    per_second = Price(Decimal("0.6"), Decimal("0.01"), 1, 1, 5)
    assert call_cost(4, per_second) == Decimal("0.0000")  # below the minimum: free, fee included
    assert call_cost(5, per_second) == Decimal("0.0600")
    assert minimum_charge(Price(Decimal("0.12"), Decimal("0.02"), 60, 60, 0)) == Decimal("0.1400")


def test_rounding_is_half_up_once() -> None:
    # 0.00005 exactly: half up gives 0.0001 (banker's rounding would give 0.0000).
    assert call_cost(1, Price(Decimal("0.003"), Decimal("0"), 1, 1, 0)) == Decimal("0.0001")


def test_longest_prefix_in_force_at_call_start() -> None:
    jan, jun = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    with session_scope() as s:
        t = Tariff(name="Retail")
        s.add(t)
        s.flush()
        s.add_all(
            [
                Rate(tariff_id=t.id, prefix="44", rate_per_minute=Decimal("0.02"), effective_from=jan),
                Rate(tariff_id=t.id, prefix="447", rate_per_minute=Decimal("0.10"), effective_from=jan),
                Rate(tariff_id=t.id, prefix="447", rate_per_minute=Decimal("0.08"), effective_from=jun),
                Rate(
                    tariff_id=t.id,
                    prefix="4479",
                    rate_per_minute=Decimal("0.50"),
                    effective_from=jan,
                    status="inactive",
                ),
            ]
        )
        s.flush()
        may, july = datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC)
        assert find_rate(s, t.id, "+447911123456", may).rate_per_minute == Decimal("0.10")
        assert find_rate(s, t.id, "+447911123456", july).rate_per_minute == Decimal("0.08")
        assert find_rate(s, t.id, "+442071838750", july).rate_per_minute == Decimal("0.02")
        assert find_rate(s, t.id, "+14155550100", july) is None
        assert find_rate(s, t.id, "+447911123456", datetime(2025, 1, 1, tzinfo=UTC)) is None
