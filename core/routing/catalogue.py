"""What routing reads of the catalogue (routes, campaigns, campaign links), kept across calls.

Every write to those tables counts up `catalogue_version` in its own transaction (triggers of
migration 0006). A process routing many calls attaches a `CatalogueCache` to each routing session:
one read of the count, and what was loaded at that count is used again instead of being queried
(the route, campaign and links were half of the bridge's work per call). A session with no cache
attached (the API's dry run) reads everything, once per session.
"""

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import text
from sqlmodel import Session

T = TypeVar("T")
_VERSION = text("SELECT version FROM catalogue_version WHERE id = 1")
_ATTACHED = "catalogue"  # session.info key: (cache, version read by this session)
_MEMO = "catalogue_memo"  # session.info key: what this session loaded, when no cache is attached
_MISSING = object()
# Calls to numbers nobody owns are cached too (as no route): past this many entries the cache starts
# over, so a flood of made-up numbers can't grow it without end.
MAX_ENTRIES = 20_000


class CatalogueCache:
    """Loaded catalogue entries, valid for one catalogue version; shared by routing threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = -1
        self._entries: dict[Hashable, Any] = {}

    def attach(self, session: Session) -> None:
        """Use this cache in `session`; entries from an older catalogue are dropped."""
        version = int(session.connection().execute(_VERSION).scalar_one())  # Core: no ORM execution path
        with self._lock:
            if version != self._version:
                self._version, self._entries = version, {}
        session.info[_ATTACHED] = (self, version)

    def _get(self, key: Hashable, version: int, load: Callable[[], T]) -> T:
        with self._lock:
            found = self._entries.get(key, _MISSING) if self._version == version else _MISSING
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        value = load()
        with self._lock:
            # Not if the catalogue changed meanwhile: this was loaded for the older one.
            if self._version == version:
                if len(self._entries) >= MAX_ENTRIES:
                    self._entries = {}
                self._entries[key] = value
        return value


def cached(session: Session, key: Hashable, load: Callable[[], T]) -> T:
    """`load()`, run once per catalogue version (a cache attached) or once per session (none).

    Cached values outlive their session: they are read-only detached rows, never changed or added
    to another session.
    """
    attached = session.info.get(_ATTACHED)
    if attached is not None:
        cache, version = attached
        return cache._get(key, version, load)
    memo: dict[Hashable, Any] = session.info.setdefault(_MEMO, {})
    if key not in memo:
        memo[key] = load()
    return memo[key]  # type: ignore[no-any-return]
