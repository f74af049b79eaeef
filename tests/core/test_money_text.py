"""Money in sentences a person reads (core.values.money.money_text): the currency's minor unit, and
the further places only a sub-cent amount has, never the stored 4-place form."""

from decimal import Decimal

import pytest

from core.values.money import format_money, minor_unit, money_text


@pytest.mark.parametrize(
    ("amount", "currency", "said"),
    [
        ("1.0000", None, "1.00"),
        ("111.3450", None, "111.345"),
        ("0.0125", None, "0.0125"),
        ("0.0000", None, "0.00"),
        ("-3.5000", None, "-3.50"),
        ("100", None, "100.00"),
        ("1234567.8900", None, "1,234,567.89"),
        ("12.3500", "usd", "12.35 USD"),
        ("1500.0000", "JPY", "1,500 JPY"),
        ("1500.2500", "JPY", "1,500.25 JPY"),
        ("2.5000", "KWD", "2.500 KWD"),
        ("0.00004", None, "0.00"),  # rounded half up to the 4 stored places first
        ("0.00005", None, "0.0001"),
    ],
)
def test_an_amount_reads_in_the_minor_unit_and_keeps_its_sub_cent_places(
    amount: str, currency: str | None, said: str
) -> None:
    assert money_text(Decimal(amount), currency) == said


def test_minor_units_and_the_stored_form_for_data() -> None:
    assert [minor_unit(c) for c in ("USD", "EUR", "GBP", "JPY", "BHD", None)] == [2, 2, 2, 0, 3, 2]
    assert format_money(Decimal("1")) == "1.0000"  # JSON, CSV and webhooks keep the stored form
