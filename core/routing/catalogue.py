"""What routing reads of the catalogue (routes, campaigns, campaign links), kept across calls.

Every write to those tables counts up `catalogue_version` in its own transaction (triggers of
migration 0006). A process routing many calls decides each with a `CatalogueCache` (`decide`):
what was loaded at the current count is used again instead of being queried (the route, campaign
and links were half of the bridge's work per call). The count is read with the customer, in the
statement every admitted call runs anyway (`saw`), or on its own when a decision read no
customer; a decision made on entries older than that is made again, from fresh ones. A session
with no cache attached (the API's dry run) reads everything, once per session.
"""

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

from sqlalchemy import text
from sqlmodel import Session

from core.routing.last_known import Unknown, offline

T = TypeVar("T")
_VERSION = text("SELECT version FROM catalogue_version WHERE id = 1")
_ATTACHED = "catalogue"  # session.info key: (cache, version the session's decision assumes)
_SEEN = "catalogue_seen"  # session.info key: the version the database reported meanwhile
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
        self._entries: dict[Hashable, object] = {}

    def decide(self, session: Session, decision: Callable[[], T]) -> T:
        """`decision()` in `session` with this cache, as of the catalogue's current version: made
        on entries the database has changed since, it is made again (the cache starts over).
        Its writes, if any, happen as many times: keep them out of a decision that may repeat.
        Offline (core.routing.last_known), the decision is made once on the entries there are."""
        if offline(session) is not None:
            with self._lock:
                session.info[_ATTACHED] = (self, self._version)
            return decision()
        while True:
            with self._lock:
                assumed = self._version
            session.info[_ATTACHED] = (self, assumed)
            session.info.pop(_SEEN, None)
            result = decision()
            seen = session.info.get(_SEEN)
            if seen is None:  # nothing reported the version: read it
                seen = int(session.connection().execute(_VERSION).scalar_one())
            # Against the version this decision's entries were of, not the cache's now: a parallel
            # call may have started the cache over at `seen` meanwhile, after this one read old entries.
            if seen == assumed:
                return result
            with self._lock:
                if seen > self._version:
                    self._version, self._entries = seen, {}

    def attach(self, session: Session) -> None:
        """Use this cache in `session` at the catalogue's current version, read now: for decisions
        that write (round robin moves its cursor), which `decide` might repeat."""
        self.decide(session, lambda: None)

    def _recall(self, key: Hashable) -> object:
        """The entry loaded last for `key`, whatever the version (the database can't say)."""
        with self._lock:
            found = self._entries.get(key, _MISSING)
        if found is _MISSING:
            raise Unknown(f"not in the catalogue cache: {key!r}")
        return found

    def _get(self, key: Hashable, version: int, load: Callable[[], T]) -> T:
        with self._lock:
            found = self._entries.get(key, _MISSING) if self._version == version else _MISSING
        if found is not _MISSING:
            return cast(T, found)  # what `load` returned for this key
        value = load()
        with self._lock:
            # Not if the catalogue changed meanwhile: this was loaded for the older one.
            if self._version == version:
                if len(self._entries) >= MAX_ENTRIES:
                    self._entries = {}
                self._entries[key] = value
        return value


def saw(session: Session, version: int) -> None:
    """The catalogue version the database reported in `session` (with the customer's read)."""
    session.info[_SEEN] = version


# The version, as a column of a statement that runs anyway (core.routing.customer).
VERSION_COLUMN = text("(SELECT version FROM catalogue_version WHERE id = 1)")


def cached(session: Session, key: Hashable, load: Callable[[], T]) -> T:
    """`load()`, run once per catalogue version (a cache attached) or once per session (none).

    Cached values outlive their session: they are read-only detached rows, never changed or added
    to another session.
    """
    attached: tuple[CatalogueCache, int] | None = session.info.get(_ATTACHED)
    if attached is not None:
        cache, version = attached
        if offline(session) is not None:
            return cast(T, cache._recall(key))  # what `load` returned for this key
        return cache._get(key, version, load)
    memo: dict[Hashable, object] = session.info.setdefault(_MEMO, {})
    if key not in memo:
        memo[key] = load()
    return cast(T, memo[key])  # what `load` returned for this key
