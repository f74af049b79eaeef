"""Bids ranked with the static targets (core.routing.ranking), with made-up candidates and bids."""

from decimal import Decimal

from core.routing.bids import Bidder
from core.routing.ranking import BidResult, dial_list, rank
from core.routing.selection import Candidate


def desk(target_id: int, payout: str = "0", priority: int = 1, bidder: bool = False) -> Candidate:
    return Candidate(
        target_id,
        1,
        f"T{target_id}",
        f"+1415555010{target_id}",
        priority,
        1,
        None,
        payout=Decimal(payout),
        bidder=Bidder(f"http://bids.example/{target_id}") if bidder else None,
    )


def bid(target_id: int, amount: str | None, number: str | None = None) -> BidResult:
    return BidResult(target_id, "made up", 10, Decimal(amount) if amount else None, number)


def test_the_highest_payout_leads_whether_bid_or_static() -> None:
    static, low, high = desk(1, "5"), desk(2, bidder=True), desk(3, bidder=True)
    ranked = rank([static, low, high], {2: bid(2, "4"), 3: bid(3, "12.5", "+14155550199")})
    assert [(c.target_id, c.payout, c.bid) for c in ranked] == [
        (3, Decimal("12.5"), Decimal("12.5")),
        (1, Decimal("5"), None),
        (2, Decimal("4"), Decimal("4")),
    ]
    assert ranked[0].destination == "+14155550199"  # the number the bid asked for
    assert [c.target_id for c in dial_list(ranked)] == [3, 1]  # the outbid bidder is not dialled


def test_a_static_target_paying_more_wins_and_no_bidder_is_dialled() -> None:
    ranked = rank([desk(1, bidder=True), desk(2, "20")], {1: bid(1, "3")})
    assert [c.target_id for c in ranked] == [2, 1]
    assert [c.target_id for c in dial_list(ranked)] == [2]


def test_bidders_without_a_bid_are_left_out() -> None:
    ranked = rank([desk(1, bidder=True), desk(2, bidder=True), desk(3, "1")], {1: bid(1, None)})
    assert [c.target_id for c in ranked] == [3]


def test_equal_payouts_go_by_priority_then_by_the_selection_order() -> None:
    a, b, c = desk(1, "5", priority=2), desk(2, "5", priority=1), desk(3, "5", priority=2)
    assert [x.target_id for x in rank([a, b, c], {})] == [2, 1, 3]
    tied = desk(4, priority=1, bidder=True)
    assert [x.target_id for x in rank([a, tied, b], {4: bid(4, "5")})] == [4, 2, 1]
    assert [x.target_id for x in rank([a, b, tied], {4: bid(4, "5")})] == [2, 4, 1]
