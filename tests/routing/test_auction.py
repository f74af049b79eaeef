"""The auction (core.routing.auction) against real HTTP endpoints on loopback (testkit.bidders):
parallel pings bounded by the deadline, what is sent, the trail, the post and its failure."""

import time
from decimal import Decimal
from ipaddress import ip_network

import pytest

from core.routing.auction import Auction
from core.routing.bids import Bidder, CallFacts
from core.routing.selection import Candidate, Selection
from testkit.bidders import Behaviour, Bidders, bidding_endpoints
from testkit.rows import CALLER

FACTS = CallFacts("1763000000.7", 3, "Roofing leads", CALLER)


def desk(target_id: int, payout: str = "0", url: str | None = None, **bidder: object) -> Candidate:
    return Candidate(
        target_id,
        1,
        f"T{target_id}",
        f"+1415555010{target_id}",
        1,
        1,
        None,
        payout=Decimal(payout),
        bidder=Bidder(url, **bidder) if url else None,  # type: ignore[arg-type]
    )


def selection(*candidates: Candidate) -> Selection:
    return Selection(None, list(candidates), [], campaign_name="Roofing leads")


def steps(sel: Selection, step: str) -> list[tuple[str, str]]:
    return [(e["result"], e["reason"]) for e in sel.trail if e["step"] == step]


@pytest.fixture
def endpoints():
    paths = {
        "late": Behaviour(body={"bid": 99}, late=True),
        "error": Behaviour(status=500, body={"error": "down"}),
        "win": Behaviour(body={"bid": "12.5", "number": "+14155550199"}),
        "low": Behaviour(body={"bid": 2}),
        "declines": Behaviour(body={"bid": None}),
        "refuses-post": Behaviour(body={"bid": 50}, post_status=409),
    }
    with bidding_endpoints(paths) as running:
        yield running


async def test_pings_run_in_parallel_within_the_deadline_and_the_winner_is_posted(endpoints: Bidders) -> None:
    # The late one has the default 300 ms; the others more than a loaded test machine needs.
    sel = selection(
        desk(1, url=endpoints.url("late")),
        desk(2, url=endpoints.url("error"), deadline_ms=3000),
        desk(3, url=endpoints.url("win"), deadline_ms=3000),
        desk(4, "5"),
        desk(5, url=endpoints.url("low"), deadline_ms=3000),
    )
    started = time.monotonic()
    out = (await Auction().run(sel, FACTS)).selection
    took = time.monotonic() - started
    assert took < 1.5, took  # the late endpoint is cut at its deadline, not waited for (it never answers)
    assert [(c.target_id, c.destination, c.bid) for c in out.candidates] == [
        (3, "+14155550199", Decimal("12.5000")),
        (4, "+14155550104", None),
    ]
    bids = {e["target_id"]: e for e in out.trail if e["step"] == "bid"}
    assert bids[1]["result"] == "skipped"
    assert bids[1]["reason"].startswith("no bid within the 300 ms deadline")
    assert 300 <= bids[1]["latency_ms"] < 1000
    assert bids[2]["result"] == "skipped" and bids[2]["reason"].startswith("ping failed: HTTP 500")
    assert (bids[3]["result"], bids[3]["bid"]) == ("candidate", "12.5000")
    assert steps(out, "rank")[0][1] == (
        "by payout, then priority: T3 (bid 12.50), T4 (payout 5.00); outbid: T5 (bid 2.00)"
    )
    assert steps(out, "post")[0][0] == "passed"
    (ping,) = endpoints.got("win", "ping")
    assert CALLER not in str(ping) and CALLER.lstrip("+") not in str(ping)  # never before it wins
    assert ping == {
        "phase": "ping",
        "test": False,
        "call_id": "1763000000.7",
        "target_id": 3,
        "campaign": {"id": 3, "name": "Roofing leads"},
        "caller": {"country": "GG", "region": None, "line_type": "mobile"},  # the island is the whole country
        "deadline_ms": 3000,
    }
    (post,) = endpoints.got("win", "post")
    assert post["caller"]["number"] == CALLER and post["bid"] == "12.5000"
    assert endpoints.got("low", "post") == []  # outbid: never told


async def test_a_refused_post_hands_the_call_to_the_next_in_rank(endpoints: Bidders) -> None:
    sel = selection(
        desk(1, url=endpoints.url("refuses-post"), deadline_ms=3000),
        desk(2, url=endpoints.url("win"), deadline_ms=3000),
    )
    out = (await Auction().run(sel, FACTS)).selection
    assert [c.target_id for c in out.candidates] == [2]
    posts = steps(out, "post")
    assert [r for r, _ in posts] == ["failed", "passed"]
    assert posts[0][1].startswith("post failed: HTTP 409")


async def test_no_usable_bid_and_no_static_target_stops_the_call(endpoints: Bidders) -> None:
    sel = selection(
        desk(1, url=endpoints.url("declines"), deadline_ms=3000),
        desk(2, url=endpoints.url("low"), min_bid=Decimal("3"), deadline_ms=3000),
        desk(3, url="http://127.0.0.1:9/closed", deadline_ms=3000),
    )
    out = (await Auction().run(sel, FACTS)).selection
    assert (out.disposition, out.candidates, out.stopped_at) == ("NO_ROUTE", [], "select")
    reasons = [r for _, r in steps(out, "bid")]
    assert reasons[0].startswith("no bid (declined)")
    assert reasons[1].startswith("bid 2.00 below the minimum 3.00")
    assert reasons[2].startswith("ping failed: ConnectError")


async def test_a_dry_run_pings_with_test_set_and_only_shows_the_post(endpoints: Bidders) -> None:
    facts = CallFacts("dry-run", 3, "Roofing leads", CALLER, test=True)
    outcome = await Auction().run(selection(desk(3, url=endpoints.url("win"), deadline_ms=3000)), facts)
    assert endpoints.got("win", "ping")[0]["test"] is True
    assert endpoints.got("win", "post") == []
    post = [x for x in outcome.exchanges if x.phase == "post"]
    assert [(x.url, x.latency_ms, x.request["caller"]["number"]) for x in post] == [
        (endpoints.url("win"), None, CALLER)
    ]


async def test_a_selection_without_bidders_is_left_alone() -> None:
    sel = selection(desk(1, "5"), desk(2, "9"))
    assert (await Auction().run(sel, FACTS)).selection is sel  # no ranking by payout without bidders


async def test_a_bidder_at_an_internal_address_is_skipped_unasked(endpoints: Bidders) -> None:
    # No network allowed, not even the tests' loopback: the bidder is never pinged, the trail says why.
    sel = selection(desk(3, url=endpoints.url("win"), deadline_ms=3000), desk(4, "5"))
    out = (await Auction(allow=()).run(sel, FACTS)).selection
    assert endpoints.got("win") == []
    ((result, reason),) = steps(out, "bid")
    assert result == "skipped"
    assert reason.startswith(
        "ping not sent: 127.0.0.1 is a loopback address: webhooks and bids go to public addresses only ("
    )
    assert [c.target_id for c in out.candidates] == [4]


async def test_a_post_url_at_an_internal_address_is_not_sent_and_the_next_in_rank_wins(
    endpoints: Bidders,
) -> None:
    # The ping's address is allowed, the post's (another loopback address) is not.
    port = endpoints.port
    hidden = f"http://127.0.0.2:{port}/win"
    sel = selection(desk(3, url=endpoints.url("win"), deadline_ms=3000, post_url=hidden), desk(4, "5"))
    out = (await Auction(allow=[ip_network("127.0.0.1/32")]).run(sel, FACTS)).selection
    assert len(endpoints.got("win", "ping")) == 1 and endpoints.got("win", "post") == []
    ((result, reason),) = steps(out, "post")
    assert result == "failed" and reason.startswith("post not sent: 127.0.0.2 is a loopback address")
    assert [c.target_id for c in out.candidates] == [4]
