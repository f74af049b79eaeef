"""When a failed delivery is tried again: 2 s, 4 s, 8 s ... doubling up to an hour between tries,
for a day from the event; then it is given up (docs/webhooks.md)."""

from datetime import timedelta

FIRST = 2.0  # seconds before the first retry
LONGEST = 3600.0  # the longest wait between two tries
RETRY_FOR = timedelta(days=1)  # how long an event is tried for


def delay(failed_attempts: int) -> float:
    """Seconds to wait after the `failed_attempts`-th failed try (1 for the first)."""
    return float(min(LONGEST, FIRST * 2 ** max(0, failed_attempts - 1)))
