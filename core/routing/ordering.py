"""The order candidates of one priority are tried in: weighted random or round robin."""

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def weighted_order(items: Sequence[T], weight: Callable[[T], int], rng: random.Random) -> list[T]:
    """A random order where each next item is drawn with probability weight / remaining weight,
    so the first tried is proportional to weight and the rest still fail over in weighted order."""
    pool = list(items)
    order: list[T] = []
    while pool:
        pick = rng.choices(range(len(pool)), weights=[weight(item) for item in pool])[0]
        order.append(pool.pop(pick))
    return order


def rotated(items: Sequence[T], cursor: int) -> list[T]:
    """The list started at position `cursor` (modulo its length), wrapping around."""
    if not items:
        return []
    start = cursor % len(items)
    return [*items[start:], *items[:start]]
