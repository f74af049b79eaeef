"""Phone numbers are stored in E.164 ('+' and digits); `phonenumbers` does the parsing."""

from functools import lru_cache

import phonenumbers


# Every call parses its DID and caller: parsing is the costly part of routing a call whose
# catalogue is cached, and the same numbers come back again and again.
@lru_cache(maxsize=65536)
def to_e164(raw: str, region: str | None = None, require_valid: bool = True) -> str:
    """Normalise `raw` to E.164; raises ValueError with a reason a person can act on.

    `require_valid=False` accepts any number of a possible length for its country: caller ids
    (to block, say) may be spoofed or unallocated and still need a canonical form.
    """
    text = (raw or "").strip()
    if not text:
        raise ValueError("a phone number is required")
    if region is None and not text.startswith("+"):
        # Carriers often send international numbers without the '+'.
        text = "+" + text.lstrip("0")
    try:
        parsed = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException as exc:
        raise ValueError(f"{raw!r} is not a phone number") from exc
    if not phonenumbers.is_possible_number(parsed):
        raise ValueError(f"{raw!r} is not a phone number of a possible length")
    if require_valid and not phonenumbers.is_valid_number(parsed):
        raise ValueError(f"{raw!r} is not a valid phone number")
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def region_of(e164: str) -> str | None:
    """ISO 3166 alpha-2 region of an E.164 number, or None when it belongs to none."""
    return phonenumbers.region_code_for_number(phonenumbers.parse(e164)) or None


def digits(number: str) -> str:
    """The number's digits only, as rate-card prefixes are matched."""
    return "".join(ch for ch in number if ch.isdigit())


def digit_prefixes(number: str) -> list[str]:
    """Every leading run of the number's digits, shortest first, up to E.164's 15: what an
    index on a prefix column is probed with (rate cards, caller blocks)."""
    all_digits = digits(number)
    return [all_digits[:n] for n in range(1, min(len(all_digits), 15) + 1)]
