"""A call to a website pool number is matched to the visitor session that held it at the call's
start (pbx_bridge.attribution): the call's traffic source, and its `call_attribution` row."""

from datetime import UTC, datetime

from sqlmodel import select

from core.calls import visits
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import CallAttribution, Number, TrafficSource
from testkit.rows import change, save
from testkit.waiting import eventually
from tests.bridge.call.trail import dialled_line
from tests.bridge.fakes import bridge

LANDING = "https://shop.example/?utm_source=Google&utm_campaign=spring&utm_term=plumber&gclid=TEST123"


def _visit(user_id: int, campaign_id: int, visitor: str, page: str, numbers: list[str]) -> str:
    at = datetime.now(UTC)
    session = visits.new_session(visitor, user_id, campaign_id, 20 * 60_000, at, page, None)
    assigned = visits.assign(get_redis(), session, numbers, at)
    assert assigned is not None
    return assigned.session_id


def _attribution(call_id: int) -> CallAttribution:
    def written() -> CallAttribution:
        with session_scope() as s:
            return s.exec(select(CallAttribution).where(CallAttribution.call_id == call_id)).one()

    return eventually(written)


async def test_a_call_to_a_pool_number_gets_the_visit_that_held_it_and_its_source() -> None:
    ln, _ = dialled_line("Acme desk")
    change(Number, ln.number.id or 0, website_pool=True)
    google = save(TrafficSource(user_id=ln.user.id or 0, name="Google Ads", utm_source="google"))
    sid = _visit(ln.user.id or 0, ln.campaign.id or 0, "visitor-1", LANDING, [ln.number.number])
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert done.source_id == google.id
    found = _attribution(done.id or 0)
    assert (found.status, found.session_id, found.source, found.campaign) == (
        "matched",
        sid,
        "Google",
        "spring",
    )
    assert (found.keyword, found.click_id, found.click_id_kind) == ("plumber", "TEST123", "gclid")
    assert [p["url"] for p in found.pages] == [LANDING] and found.candidates == []


async def test_a_reused_pool_number_gives_an_ambiguous_attribution_with_both_candidates() -> None:
    ln, _ = dialled_line("Acme desk")
    user, campaign, number = ln.user.id or 0, ln.campaign.id or 0, ln.number.number
    first = _visit(user, campaign, "visitor-1", "https://shop.example/a?utm_source=bing", [number])
    second = _visit(user, campaign, "visitor-2", "https://shop.example/b", [number])
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    found = _attribution(done.id or 0)
    assert (found.status, found.session_id, found.source) == ("ambiguous", second, "direct")
    assert {c["session_id"] for c in found.candidates} == {first, second}
    assert done.source_id is None  # no source of the customer's says "direct"


async def test_a_number_no_visitor_held_gets_no_attribution() -> None:
    async with bridge() as b:
        dialled_line("Acme desk")
        linkedid = b.call()
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    with session_scope() as s:
        assert s.exec(select(CallAttribution)).all() == []
    assert done.source_id is None
