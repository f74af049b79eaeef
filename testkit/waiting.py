"""Waiting for something another process or thread does: one helper, never a fixed sleep.

`check` either returns a value (falsy means "not yet"; the first truthy value is returned) or
raises AssertionError (retried; the last one is raised when time runs out, so a failure says what
was last seen). `what` names the condition in that failure; a callable is read only then (a log's
tail, say).
"""

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
Message = str | Callable[[], str]


class NotYet(AssertionError):
    """The condition was still false when time ran out."""


@dataclass
class _Miss:
    value: object
    failed: AssertionError | None


def eventually(check: Callable[[], T], timeout: float = 10, interval: float = 0.05, what: Message = "") -> T:
    """Call `check` until it holds; its value."""
    deadline = time.monotonic() + timeout
    while True:
        outcome = _attempt(check)
        if not isinstance(outcome, _Miss):
            return outcome
        if time.monotonic() > deadline:
            raise _timed_out(check, timeout, what, outcome)
        time.sleep(interval)


async def eventually_async(
    check: Callable[[], T], timeout: float = 10, interval: float = 0.05, what: Message = ""
) -> T:
    """`eventually` for a coroutine: the event loop keeps running while it waits."""
    deadline = time.monotonic() + timeout
    while True:
        outcome = _attempt(check)
        if not isinstance(outcome, _Miss):
            return outcome
        if time.monotonic() > deadline:
            raise _timed_out(check, timeout, what, outcome)
        await asyncio.sleep(interval)


def _attempt(check: Callable[[], T]) -> T | _Miss:
    try:
        value = check()
    except AssertionError as failed:
        return _Miss(None, failed)
    return value if value else _Miss(value, None)


def _timed_out(check: Callable[[], object], timeout: float, what: Message, miss: _Miss) -> AssertionError:
    name = what() if callable(what) else what
    if miss.failed is not None:
        return NotYet(f"{name}\n{miss.failed}" if name else str(miss.failed))
    label = name or getattr(check, "__name__", repr(check))
    return NotYet(f"not true within {timeout} s: {label} (last: {miss.value!r})")
