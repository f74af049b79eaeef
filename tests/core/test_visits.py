"""Visitors' sessions and pool numbers in a real Redis (core.calls.visits)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from core.calls import visits
from core.calls.visits import VisitorSession
from core.infra.redis_client import get_redis

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
POOL = ["+15550000001", "+15550000002"]
TIMEOUT = timedelta(minutes=20)


def _session(visitor: str, page: str = "https://shop.example/", now: datetime = T0) -> VisitorSession:
    timeout = int(TIMEOUT.total_seconds() * 1000)
    return visits.new_session(visitor, 3, 7, timeout, now, page, "https://www.google.com/search")


def _assign(visitor: str, now: datetime = T0, page: str = "https://shop.example/") -> visits.Assigned:
    assigned = visits.assign(get_redis(), _session(visitor, page, now), POOL, now)
    assert assigned is not None
    return assigned


def test_a_visitor_keeps_its_number_and_two_visitors_get_two_numbers() -> None:
    first = _assign("visitor-a")
    again = _assign("visitor-a", T0 + timedelta(minutes=5))
    other = _assign("visitor-b")
    assert again.number == first.number and again.session_id == first.session_id
    assert other.number != first.number
    assert not (first.reused or other.reused)


def test_an_exhausted_pool_reuses_the_least_recently_active_number() -> None:
    a = _assign("visitor-a", T0)
    b = _assign("visitor-b", T0 + timedelta(minutes=1))
    visits.touch(get_redis(), a.session_id, "https://shop.example/pricing", T0 + timedelta(minutes=2))
    c = _assign("visitor-c", T0 + timedelta(minutes=3))
    assert c.number == b.number and c.reused  # b was idle longer than a
    pressure = visits.pressure(get_redis(), 7, int(TIMEOUT.total_seconds() * 1000), T0 + timedelta(minutes=3))
    assert (pressure.sessions, pressure.reused, pressure.peak_active) == (3, 1, 3)
    assert pressure.needed == 4


def test_a_number_is_free_again_once_its_holder_timed_out() -> None:
    a = _assign("visitor-a", T0)
    _assign("visitor-b", T0)
    late = _assign("visitor-c", T0 + TIMEOUT + timedelta(seconds=1))
    assert late.number in POOL and not late.reused
    assert a.number in POOL


def test_visitors_arriving_together_never_share_a_free_number() -> None:
    numbers = [f"+1555000{n:04d}" for n in range(40)]

    def arrive(n: int) -> str:
        assigned = visits.assign(get_redis(), _session(f"visitor-{n}"), numbers, T0)
        assert assigned is not None
        return assigned.number

    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(arrive, range(40)))
    assert sorted(got) == sorted(numbers)


def test_the_holder_at_a_calls_start_is_matched_with_its_visit_and_pages() -> None:
    page = "https://shop.example/?utm_source=google&utm_campaign=spring&utm_medium=cpc&gclid=TEST123"
    a = _assign("visitor-a", page=page)
    visits.touch(get_redis(), a.session_id, "https://shop.example/contact", T0 + timedelta(minutes=1))
    holders = visits.holders_at_sync(get_redis(), a.number, T0 + timedelta(minutes=2))
    found = visits.attribution_of(holders)
    assert found is not None and found.status == "matched"
    assert (found.source, found.campaign, found.medium) == ("google", "spring", "cpc")
    assert (found.click_id, found.click_id_kind) == ("TEST123", "gclid")
    assert [p.url for p in found.pages] == [page, "https://shop.example/contact"]
    # Past the timeout nobody held it; the other number was never held.
    assert visits.holders_at_sync(get_redis(), a.number, T0 + timedelta(minutes=22)) == []
    other = next(n for n in POOL if n != a.number)
    assert visits.holders_at_sync(get_redis(), other, T0 + timedelta(minutes=2)) == []


def test_a_reused_number_makes_the_call_ambiguous_with_its_candidates() -> None:
    a = _assign("visitor-a", T0, "https://shop.example/a?utm_source=bing")
    _assign("visitor-b", T0 + timedelta(minutes=1))
    c = _assign("visitor-c", T0 + timedelta(minutes=2), "https://shop.example/c?utm_source=google")
    assert c.number == a.number and c.reused
    found = visits.attribution_of(visits.holders_at_sync(get_redis(), c.number, T0 + timedelta(minutes=3)))
    assert found is not None and found.status == "ambiguous"
    assert found.source == "google"  # the latest assigned holder
    assert {x.session_id for x in found.candidates} == {a.session_id, c.session_id}


def test_the_source_is_the_referrers_host_or_direct_without_utm_source() -> None:
    s = _session("v")
    assert s.source == "www.google.com"
    assert s.model_copy(update={"referrer": None}).source == "direct"
