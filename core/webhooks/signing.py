"""The signature a receiver checks: HMAC-SHA256 of "<timestamp>.<body>" with the webhook's secret.

The timestamp is signed with the body so a captured request can't be replayed later with a fresh
timestamp; a receiver refuses a timestamp too far from its clock (docs/webhooks.md).
"""

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Callroute-Signature"
TIMESTAMP_HEADER = "X-Callroute-Timestamp"
EVENT_HEADER = "X-Callroute-Event"
DELIVERY_HEADER = "X-Callroute-Delivery"  # the same on a retry: a receiver may drop repeats by it
SCHEME = "v1"  # the signature's version, so the scheme can change without breaking receivers


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for `body` sent at `timestamp` (Unix seconds)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"{SCHEME}={mac.hexdigest()}"


def verify(
    secret: str, timestamp: str, body: bytes, signature: str, now: float, tolerance: int = 300
) -> bool:
    """What a receiver does (the recipe in docs/webhooks.md): the signature matches and the
    timestamp is within `tolerance` seconds of `now`."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)


def headers(secret: str, timestamp: int, body: bytes, event: str, delivery_id: int) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(secret, timestamp, body),
        EVENT_HEADER: event,
        DELIVERY_HEADER: str(delivery_id),
    }
