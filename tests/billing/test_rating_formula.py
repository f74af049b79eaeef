"""The rating formula against a small independent reference, and the in-memory rate card of the
batch path against core.billing.pricing.find_rate on a real rate card."""

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.billing.prefixes import PrefixMap
from core.billing.pricing import Price, call_cost, find_rate
from core.infra.db import session_scope
from testkit.rows import JAN, rate, tariff


def reference_cost(
    billsec: int, per_minute: Fraction, fee: Fraction, first: int, step: int, minimum: int
) -> Fraction:
    """domain.md step 5, written the slow way: add increments until the talk time is covered,
    then round half up to 4 places in exact fractions."""
    if billsec == 0 or billsec < minimum:
        return Fraction(0)
    billable = first
    while billable < billsec:
        billable += step
    exact = fee + per_minute * billable / 60
    return Fraction((exact * 10_000 + Fraction(1, 2)).__floor__(), 10_000)


money = st.integers(min_value=0, max_value=99_999).map(lambda n: Decimal(n).scaleb(-4))


@settings(max_examples=500, deadline=None)
@given(
    billsec=st.integers(min_value=0, max_value=7_200),
    per_minute=money,
    fee=money,
    first=st.integers(min_value=1, max_value=120),
    step=st.integers(min_value=1, max_value=120),
    minimum=st.integers(min_value=0, max_value=60),
)
def test_cost_matches_the_reference(billsec, per_minute, fee, first, step, minimum) -> None:
    cost = call_cost(billsec, Price(per_minute, fee, first, step, minimum))
    expected = reference_cost(billsec, Fraction(per_minute), Fraction(fee), first, step, minimum)
    assert Fraction(cost) == expected
    assert cost.as_tuple().exponent == -4


def test_worked_example_and_reference_agree() -> None:
    assert call_cost(45, Price(Decimal("0.05"), Decimal(0), 30, 6, 0)) == Decimal("0.0400")
    assert reference_cost(45, Fraction(5, 100), Fraction(0), 30, 6, 0) == Fraction(4, 100)


def test_the_batch_rate_card_answers_like_find_rate() -> None:
    t = tariff()
    for prefix, per_minute in [
        ("44", "0.02"),
        ("447", "0.10"),
        ("4479", "0.30"),
        ("1", "0.01"),
        ("1415", "0.03"),
    ]:
        rate(t, prefix, per_minute)
    rate(t, "447", "0.08", effective_from=JAN + timedelta(days=60))
    rate(t, "4479", "0.50", effective_from=JAN + timedelta(days=30), status="inactive")
    rate(t, "1415", "0.04", effective_from=JAN + timedelta(days=200))

    with session_scope() as s:
        card = PrefixMap.load(s, t)

        @settings(max_examples=300, deadline=None)
        @given(
            number=st.from_regex(r"\+(44|1|7)[0-9]{0,12}", fullmatch=True),
            day=st.integers(min_value=-30, max_value=400),
        )
        def same_answer(number: str, day: int) -> None:
            at = JAN + timedelta(days=day)
            found = find_rate(s, t, number, at)
            expected = (found.id, Price.of(found)) if found else None
            assert card.lookup(number, at) == expected

        same_answer()
