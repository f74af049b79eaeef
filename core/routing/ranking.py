"""Bids ranked with the static targets (docs/bidding.md, "Ranking"): what the call earns first.

Pure: the bids are in (core.routing.auction collects them), the order comes out.
"""

from dataclasses import dataclass, replace
from decimal import Decimal

from core.routing.selection import Candidate


@dataclass(frozen=True)
class BidResult:
    """One bidder's answer to its ping: a bid (`amount`), or why there is none (`reason`)."""

    target_id: int
    reason: str  # for the trail: "bid 12.5000", "no bid within the 300 ms deadline", ...
    latency_ms: int
    amount: Decimal | None = None
    number: str | None = None  # where the bid asks the call to go (None: the target's destination)


def rank(candidates: list[Candidate], bids: dict[int, BidResult]) -> list[Candidate]:
    """Static targets and bidders that bid, highest payout first (a bidder's payout is its bid),
    then lowest priority number, then the order selection gave (weights, round robin). A bidder
    without a bid is left out; one that bid carries its bid and the number it asked for."""
    priced: list[tuple[Candidate, int]] = []
    for index, candidate in enumerate(candidates):
        if candidate.bidder is not None:
            bid = bids.get(candidate.target_id)
            if bid is None or bid.amount is None:
                continue
            destination = bid.number or candidate.destination
            candidate = replace(candidate, payout=bid.amount, bid=bid.amount, destination=destination)
        priced.append((candidate, index))
    priced.sort(key=lambda item: (-item[0].payout, item[0].priority, item[1]))
    return [candidate for candidate, _ in priced]


def dial_list(ranked: list[Candidate]) -> list[Candidate]:
    """What is dialled: the first (the winner), then the static targets in rank order for failover.
    Bidders after the first lost: only the winner is told (posted) it has the call."""
    return [c for i, c in enumerate(ranked) if i == 0 or c.bidder is None]
