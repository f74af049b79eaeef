"""A webhook URL may carry tokens, `{caller}`, filled from the event (URL-encoded) when sent:
`https://example.com/pixel?c={caller}&p={payout}` for receivers that only read query strings."""

import re
from collections.abc import Mapping
from urllib.parse import quote

# Token -> where its value is in the body ("call" fields, or the body's own).
TOKENS = {
    "event": ("event",),
    "linkedid": ("call", "linkedid"),
    "caller": ("call", "caller"),
    "did": ("call", "did"),
    "campaign_id": ("call", "campaign_id"),
    "buyer_id": ("call", "buyer_id"),
    "target_id": ("call", "target_id"),
    "disposition": ("call", "disposition"),
    "duration": ("call", "duration"),
    "billsec": ("call", "billsec"),
    "talk_seconds": ("call", "talk_seconds"),
    "payout": ("call", "payout"),
    "cost": ("call", "cost"),
    "converted": ("call", "converted"),
}
_TOKEN = re.compile(r"\{([^{}]*)\}")


def unknown_tokens(url: str) -> list[str]:
    """The `{...}` in `url` that are no token (a typo would otherwise be sent as is)."""
    return [name for name in _TOKEN.findall(url) if name not in TOKENS]


def _value(body: Mapping[str, object], path: tuple[str, ...]) -> str:
    found: object = body
    for key in path:
        found = found.get(key) if isinstance(found, dict) else None
    if found is None:
        return ""  # not known at this event (a duration before the call ended)
    if isinstance(found, bool):
        return "true" if found else "false"
    return str(found)


def render(url: str, body: Mapping[str, object]) -> str:
    """`url` with each token replaced by the event's value, URL-encoded."""
    return _TOKEN.sub(lambda m: quote(_value(body, TOKENS[m.group(1)]), safe=""), url)
