"""Money is Decimal with 4 places in storage; never float.

Every amount a person can enter has an upper bound, here, chosen so that nothing the product
computes from them can overflow a stored column, `NUMERIC(18, 4)` (docs/billing.md, "Bounds").
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

PLACES = Decimal("0.0001")

# The largest amount NUMERIC(18, 4) holds: 14 digits before the point.
STORED_MAX = Decimal("99999999999999.9999")
# The longest call the database can hold: `call.billsec` is a 32-bit integer.
LONGEST_CALL_SECONDS = 2**31 - 1
# Initial and billing increments and minimum durations (seconds of one call).
MAX_INCREMENT_SECONDS = 3600

MAX_RATE_PER_MINUTE = Decimal(100_000)
MAX_CONNECTION_FEE = Decimal(100_000)
MAX_NUMBER_FEE = Decimal(1_000_000)  # a number's setup or monthly fee
MAX_PAYOUT = Decimal(1_000_000)  # what a target pays per converted call
MAX_TOPUP = Decimal(1_000_000)  # one top-up

# Rounding up to the next increment adds less than one increment to the longest call.
LONGEST_BILLABLE_SECONDS = LONGEST_CALL_SECONDS + MAX_INCREMENT_SECONDS - 1
# The dearest call the bounds allow (about 3.6e12): below STORED_MAX, so no call's cost or debit overflows.
MAX_CALL_COST = MAX_CONNECTION_FEE + MAX_RATE_PER_MINUTE * LONGEST_BILLABLE_SECONDS / 60
assert MAX_CALL_COST < STORED_MAX / 10


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


def bounded(value: object, limit: Decimal) -> Decimal:
    """An amount a person entered: a number from 0 to `limit` with at most 4 places, normalised to 4.

    The ValueError's text reads after the field's name ("rate_per_minute must be at most 100,000").
    """
    if isinstance(value, bool):
        raise ValueError("must be a number")
    try:
        amount = to_money(value)
    except ValueError:
        raise ValueError("must be a number") from None
    if amount < 0:
        raise ValueError("can't be negative")
    # Checked before quantizing: a huge amount overflows the decimal context.
    if amount > limit:
        raise ValueError(f"must be at most {limit:,}")
    exact = amount.quantize(PLACES)
    if exact != amount:
        raise ValueError("has more than 4 decimal places")
    return exact


def minor_unit_problem(amount: Decimal, currency: str) -> str | None:
    """Why a typed `amount` can't be taken in `currency` (more places than its minor unit), or None:
    what a person is shown is what is moved, never a rounded neighbour."""
    places = minor_unit(currency)
    if amount == amount.quantize(Decimal(1).scaleb(-places)):
        return None
    unit = "no decimals" if places == 0 else f"at most {places} decimal{'s' if places > 1 else ''}"
    return f"{currency} amounts have {unit}; {amount.normalize():f} has more"


def round_money(amount: Decimal) -> Decimal:
    """Round once, half up, to the 4 stored places."""
    return amount.quantize(PLACES, rounding=ROUND_HALF_UP)


def format_money(amount: Decimal) -> str:
    """The stored form, 4 places ("12.3450"): for data (JSON, CSV, webhooks), never for a sentence."""
    return str(round_money(amount))


# ISO 4217 currencies whose minor unit is not the cent (2 places); what is not listed has 2 (the
# list maintained by SIX, the standard's agency).
_MINOR_UNITS = {
    **dict.fromkeys(("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI"), 0),
    **dict.fromkeys(("VND", "VUV", "XAF", "XOF", "XPF"), 0),
    **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
    **dict.fromkeys(("CLF", "UYW"), 4),
}


def minor_unit(currency: str | None) -> int:
    """How many places the currency's minor unit has (USD 2, JPY 0, KWD 3); 2 when not named."""
    return _MINOR_UNITS.get((currency or "").upper(), 2)


def in_minor_unit(amount: Decimal, currency: str) -> Decimal:
    """`amount` rounded half up to the currency's minor unit, for another platform to read (an ad
    platform's conversion value): 5.0000 USD is 5.00, 1234.5 JPY is 1235."""
    return amount.quantize(Decimal(1).scaleb(-minor_unit(currency)), rounding=ROUND_HALF_UP)


def money_text(amount: Decimal, currency: str | None = None) -> str:
    """An amount in a sentence a person reads: the currency's minor unit ("1.00", not "1.0000"), and
    the further places only a sub-cent amount has ("111.345", "0.0125"), so what is said adds up to
    what is charged; the currency's code after it when known ("12.35 USD")."""
    exact = round_money(amount).normalize()
    places = max(minor_unit(currency), -int(exact.as_tuple().exponent))
    text = f"{exact:,.{places}f}"
    return f"{text} {currency.upper()}" if currency else text
