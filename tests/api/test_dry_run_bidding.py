"""The dry run with bidders (docs/bidding.md, "Dry run"): each bidder really pinged with `test: true`,
its bid ranked, the post the winner would get shown and not sent."""

from core.infra.db import session_scope
from core.models import User
from testkit.bidders import Behaviour, bidding_endpoints
from testkit.rows import CALLER, DID, desk, line, top_up
from tests.api.test_dry_run import dry_run


def test_the_dry_run_asks_for_bids_and_shows_the_post_it_would_send(client, customer_a) -> None:
    paths = {"win": Behaviour(body={"bid": "7.25"}), "error": Behaviour(status=503)}
    top_up(customer_a.id, "20")
    with session_scope() as s:
        user = s.get(User, customer_a.id)
    ln = line(user)
    with bidding_endpoints(paths) as buyers:
        desk(ln, "Static desk", payout="5")
        # Deadlines a loaded test machine meets (the deadline itself is tests/routing/test_auction.py's).
        bidding = {"ping_url": buyers.url("win"), "post_url": buyers.url("win-post"), "bid_deadline_ms": 3000}
        desk(ln, "Bidding desk", priority=2, **bidding)
        desk(ln, "Erring desk", ping_url=buyers.url("error"), bid_deadline_ms=3000)
        r = dry_run(client, customer_a)
        assert r.status_code == 200, r.text
        data = r.json()["data"]
        assert [(c["name"], c["payout"], c["bid"]) for c in data["candidates"]] == [
            ("Bidding desk", "7.2500", "7.2500"),
            ("Static desk", "5.0000", None),
        ]
        pings = {b["name"]: b for b in data["bids"] if b["phase"] == "ping"}
        assert pings["Bidding desk"]["request"]["test"] is True
        assert pings["Bidding desk"]["url"] == buyers.url("win")
        assert pings["Erring desk"]["result"] == "skipped"
        assert pings["Erring desk"]["reason"] == "ping failed: HTTP 503"
        assert CALLER not in str(pings)
        (post,) = [b for b in data["bids"] if b["phase"] == "post"]
        assert (post["url"], post["latency_ms"], post["request"]["caller"]["number"]) == (
            buyers.url("win-post"),
            None,
            CALLER,
        )
        assert buyers.got("win-post") == [] and len(buyers.got("win", "ping")) == 1  # shown, not sent
        steps = [(e["step"], e["result"]) for e in data["trail"]][-5:]
        assert steps == [("select", "passed"), ("bid", "skipped"), ("bid", "candidate"), ("rank", "passed"),
                         ("post", "passed")]  # fmt: skip
    assert DID in r.text  # the answer names the call it was asked about
