"""Money is Decimal with 4 places in storage; never float."""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

PLACES = Decimal("0.0001")


def to_money(value: object) -> Decimal:
    """Parse a user- or database-supplied amount; raises ValueError on anything not a finite number."""
    if isinstance(value, float):
        value = repr(value)
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError) as exc:
        raise ValueError(f"{value!r} is not an amount of money") from exc
    if not amount.is_finite():
        raise ValueError(f"{value!r} is not an amount of money")
    return amount


def round_money(amount: Decimal) -> Decimal:
    """Round once, half up, to the 4 stored places."""
    return amount.quantize(PLACES, rounding=ROUND_HALF_UP)


def format_money(amount: Decimal) -> str:
    return str(round_money(amount))
