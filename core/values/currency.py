"""A currency's minor unit (ISO 4217): how many decimals an amount in it is written with where a
person or another platform reads it (an ad platform's conversion value). Stored money keeps its 4
places (core.values.money); this is only how it is shown."""

from decimal import ROUND_HALF_UP, Decimal

# ISO 4217's currencies whose minor unit is not 2 (the list maintained by SIX, the standard's agency).
_NO_DECIMALS = ("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI")
_NO_DECIMALS_TOO = ("VND", "VUV", "XAF", "XOF", "XPF")
_THREE = ("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND")
_FOUR = ("CLF", "UYW")
_DECIMALS = {
    **{code: 0 for code in _NO_DECIMALS + _NO_DECIMALS_TOO},
    **{code: 3 for code in _THREE},
    **{code: 4 for code in _FOUR},
}


def minor_unit(code: str) -> int:
    """Decimals of `code` (an ISO 4217 code): 2 unless ISO 4217 says otherwise."""
    return _DECIMALS.get(code.upper(), 2)


def in_minor_unit(amount: Decimal, code: str) -> Decimal:
    """`amount` rounded half up to `code`'s minor unit: 5.0000 USD is 5.00, 1234.5 JPY is 1235."""
    return amount.quantize(Decimal(1).scaleb(-minor_unit(code)), rounding=ROUND_HALF_UP)
