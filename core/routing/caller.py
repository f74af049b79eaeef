"""Caller ids as the engine compares them with block entries and earlier calls."""

from core.values.phone import to_e164


def canonical_caller(raw: str) -> str:
    """E.164 when the caller id parses as a number (unallocated ones too), else the text as sent.

    Block entries are stored the same way (exact numbers in E.164), and withheld ids such as
    'anonymous' stay comparable with themselves instead of failing the call.
    """
    try:
        return to_e164(raw, require_valid=False)
    except ValueError:
        return (raw or "").strip()
