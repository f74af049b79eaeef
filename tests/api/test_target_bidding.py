"""A target's real-time bidding settings (docs/bidding.md) through the API: kept and shown, and bad
input refused with a 422 naming the field, changing nothing."""

import pytest

from core.infra.db import session_scope
from core.models import Target
from testkit.rows import count
from tests.api.test_buyers_targets import make_buyer, make_target

PING = "https://bids.acme.example/ping"


def stored(target_id: int) -> Target:
    with session_scope() as s:
        target = s.get(Target, target_id)
        assert target is not None
        return target


def test_a_bidder_is_saved_and_shown(client, customer_a) -> None:
    buyer = make_buyer(client, customer_a)
    t = make_target(client, customer_a, buyer["id"], ping_url=PING, bid_deadline_ms=250, min_bid="2.5")
    assert (t["ping_url"], t["post_url"], t["bid_deadline_ms"], t["min_bid"]) == (PING, None, 250, "2.5000")
    plain = make_target(client, customer_a, buyer["id"], name="Plain desk")
    assert (plain["ping_url"], plain["bid_deadline_ms"], plain["min_bid"]) == (None, 300, None)
    r = client.put(
        f"/api/target/{t['id']}",
        json={"post_url": "http://bids.acme.example/post", "min_bid": None},
        headers=customer_a.headers,
    )
    assert r.status_code == 200, r.text
    assert (r.json()["data"]["post_url"], r.json()["data"]["min_bid"]) == (
        "http://bids.acme.example/post",
        None,
    )
    # No longer a bidder: its ping URL and post URL go together.
    r = client.put(
        f"/api/target/{t['id']}", json={"ping_url": None, "post_url": None}, headers=customer_a.headers
    )
    assert r.status_code == 200 and r.json()["data"]["ping_url"] is None


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"ping_url": "ftp://bids.acme.example/ping"}, "ping_url"),
        ({"ping_url": "bids.acme.example/ping"}, "ping_url"),
        ({"ping_url": "https://bids acme.example/ping"}, "ping_url"),
        ({"ping_url": "https://user:secret@bids.acme.example/ping"}, "ping_url"),
        ({"ping_url": "http://{caller}/x"}, "ping_url"),  # bid URLs take no tokens, least of all a host
        ({"ping_url": "http://169.254.169.254./latest"}, "ping_url"),  # the metadata service, root dot
        ({"ping_url": PING, "post_url": "https://{did}.acme.example/post"}, "post_url"),
        ({"ping_url": "https://bids.acme.example/" + "p" * 500}, "ping_url"),
        ({"ping_url": PING, "bid_deadline_ms": 10}, "bid_deadline_ms"),
        ({"ping_url": PING, "bid_deadline_ms": 6000}, "bid_deadline_ms"),
        ({"ping_url": PING, "bid_deadline_ms": "soon"}, "bid_deadline_ms"),
        ({"ping_url": PING, "min_bid": "-1"}, "min_bid"),
        ({"ping_url": PING, "min_bid": "1.23456"}, "min_bid"),
        ({"post_url": "https://bids.acme.example/post"}, "post_url"),
        ({"min_bid": "3"}, "min_bid"),
    ],
)
def test_bad_bidding_settings_are_refused_by_field(client, customer_a, extra, field) -> None:
    buyer = make_buyer(client, customer_a)
    body = {"buyer_id": buyer["id"], "name": "Bidder", "destination": "+14155550100", **extra}
    r = client.post("/api/target/add", json=body, headers=customer_a.headers)
    assert r.status_code == 422, r.text
    assert list(r.json()["errors"]) == [field], r.text
    assert count(Target) == 0


def test_an_edit_that_would_leave_a_post_url_without_a_ping_url_changes_nothing(client, customer_a) -> None:
    buyer = make_buyer(client, customer_a)
    t = make_target(client, customer_a, buyer["id"], ping_url=PING, post_url="https://bids.acme.example/post")
    r = client.put(
        f"/api/target/{t['id']}", json={"ping_url": None, "name": "Renamed"}, headers=customer_a.headers
    )
    assert r.status_code == 422 and list(r.json()["errors"]) == ["post_url"], r.text
    assert (stored(t["id"]).ping_url, stored(t["id"]).name) == (PING, "Acme desk")
    r = client.put(f"/api/target/{t['id']}", json={"bid_deadline_ms": None}, headers=customer_a.headers)
    assert r.status_code == 422 and stored(t["id"]).bid_deadline_ms == 300
