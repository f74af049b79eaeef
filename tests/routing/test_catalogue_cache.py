"""The bridge's routing catalogue cache: reused between calls, never stale after a change."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlmodel import Session

from core.infra.db import get_engine
from core.models import Campaign, Number, Target
from core.routing import Selection, admit, select_targets
from core.routing.catalogue import CatalogueCache, cached
from core.values.enums import Disposition, RoutingStrategy
from testkit.rows import CALLER, DID, NOW, Live, change, desk, line, order


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every SQL statement run meanwhile."""
    seen: list[str] = []

    def note(
        conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
    ) -> None:
        seen.append(statement)

    event.listen(get_engine(), "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(get_engine(), "before_cursor_execute", note)


def cached_route(cache: CatalogueCache) -> tuple[Disposition | None, Selection | None]:
    """Admit and select as the bridge does (pbx_bridge.routing), with the cache."""
    with Session(get_engine(), expire_on_commit=False) as s:
        admission = cache.decide(s, lambda: admit(s, DID, CALLER, NOW))
        selection = select_targets(s, admission, CALLER, NOW, Live()) if admission.admitted else None
        s.commit()
        return admission.disposition, selection


def routed(cache: CatalogueCache) -> list[str]:
    """The order of the targets a call is offered to, routed with the cache."""
    selection = cached_route(cache)[1]
    assert selection is not None
    return order(selection)


def reads(seen: list[str], table: str) -> bool:
    return any(f"FROM {table} " in s or f"JOIN {table} " in s for s in seen)


def test_the_cache_saves_the_catalogue_reads_and_sees_every_change() -> None:
    cache = CatalogueCache()
    ln = line()
    first = desk(ln, "First")
    assert routed(cache) == ["First"]
    with statements() as seen:
        assert routed(cache) == ["First"]
    assert not reads(seen, "number") and not reads(seen, "campaign_target"), seen
    # One statement for the whole decision: the customer's read brings the catalogue's version.
    assert len(seen) == 1 and reads(seen, "users"), seen

    change(Campaign, ln.campaign.id or 0, status="inactive")
    assert cached_route(cache)[0] == Disposition.NO_ROUTE
    change(Campaign, ln.campaign.id or 0, status="active")
    second = desk(ln, "Second", priority=2)
    assert routed(cache) == ["First", "Second"]
    change(Target, first.id or 0, status="inactive")
    assert routed(cache) == ["Second"]
    change(Target, second.id or 0, destination="+14155550199")
    selection = cached_route(cache)[1]
    assert selection is not None
    (candidate,) = selection.candidates
    assert candidate.destination == "+14155550199"

    other = line(ln.user, did="+442071830001")
    desk(other, "Elsewhere")
    change(Number, ln.number.id or 0, campaign_id=other.campaign.id)
    assert routed(cache) == ["Elsewhere"]


def test_round_robin_turns_without_emptying_the_cache() -> None:
    cache = CatalogueCache()
    ln = line(strategy=RoutingStrategy.ROUND_ROBIN.value)
    desk(ln, "One")
    desk(ln, "Two")
    firsts = [routed(cache)[0]]
    with statements() as seen:
        firsts += [routed(cache)[0] for _ in range(3)]
    assert firsts in (["One", "Two", "One", "Two"], ["Two", "One", "Two", "One"])
    # The cursor moved in the database on every call, and the catalogue was read only once.
    assert not reads(seen, "number") and not reads(seen, "campaign_target"), seen


def test_calls_to_unknown_numbers_cannot_grow_the_cache_without_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("core.routing.catalogue.MAX_ENTRIES", 3)
    cache = CatalogueCache()
    ln = line()
    desk(ln, "First")
    for n in range(10):
        with Session(get_engine()) as s:
            cache.attach(s)
            assert admit(s, f"+44207183{n:04d}", CALLER, NOW).disposition == Disposition.NO_ROUTE
    assert len(cache._entries) <= 3
    assert routed(cache) == ["First"]


def test_a_decision_on_entries_older_than_a_change_is_made_again_when_a_parallel_call_saw_it_first() -> None:
    """Two calls routed at once just after a catalogue change: the one that read its entries before
    the other started the cache over must not keep them (a call sent to the old campaign's customer)."""
    cache = CatalogueCache()
    with Session(get_engine()) as s:
        assert cache.decide(s, lambda: cached(s, "route", lambda: "before")) == "before"
    with get_engine().begin() as conn:  # what every catalogue write does (migration 0006's triggers)
        conn.execute(text("UPDATE catalogue_version SET version = version + 1"))

    def first_call(s: Session) -> str:
        route = cached(s, "route", lambda: "after")
        with Session(get_engine()) as other:  # the parallel call, deciding meanwhile
            assert cache.decide(other, lambda: cached(other, "route", lambda: "after")) == "after"
        return route

    with Session(get_engine()) as s:
        assert cache.decide(s, lambda: first_call(s)) == "after"
