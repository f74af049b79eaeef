"""The auction of a call among its bidding targets (docs/bidding.md): every bidder pinged at once,
bids collected within each one's deadline, ranked with the static targets, the winner posted to.

Async: the bridge runs it on its event loop between selection and dialling, so a call
waiting for bids holds up no other call, and it never takes longer than the longest bidder's
deadline for the pings plus the winner's deadline for the posts. A bid that fails, errs or comes
late is left out and said so in the trail.
"""

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import Decimal

import orjson

from core.calls.record import Entry, Result, Step, entry
from core.infra.json_posts import Answer, JsonPoster, RequestFailed
from core.infra.outbound import Blocked, allowed_networks
from core.infra.settings import Network
from core.routing.bids import (
    CallFacts,
    NotABid,
    PingBody,
    PostBody,
    dial_number,
    ping_body,
    post_body,
    read_bid,
)
from core.routing.ranking import BidResult, dial_list, rank
from core.routing.selection import Candidate, Selection
from core.values.enums import Disposition
from core.values.money import format_money, money_text


@dataclass(frozen=True)
class Exchange:
    """One request of the auction, as a dry run shows it: where, what, and what came of it."""

    target_id: int
    name: str
    phase: str  # "ping" or "post"
    url: str
    request: PingBody | PostBody
    result: str  # the trail entry's result
    reason: str
    latency_ms: int | None  # None: not sent (a dry run's post)


@dataclass
class Outcome:
    """The selection with the bids in: candidates re-ranked (or a stop when none is left), its trail
    grown by the auction's entries; and each request the auction made or, in a dry run, would make."""

    selection: Selection
    exchanges: list[Exchange] = field(default_factory=list)


def _now() -> datetime:
    return datetime.now(UTC)


def _ms(since: float) -> int:
    return round((time.monotonic() - since) * 1000)


class Auction:
    """Runs auctions with connections to the buyers kept alive between calls.

    Its HTTP is core.infra.json_posts, not httpx: an auction's CPU (eleven requests with ten
    bidders) is what concurrent auctions queue for on the bridge's event loop, and httpx's layers
    cost about 1.3 ms a request on the build machine (docs/bidding.md, "Cost").
    """

    def __init__(self, clock: Callable[[], datetime] = _now, allow: Iterable[Network] | None = None) -> None:
        # Where buyers' URLs may connect besides public addresses (OUTBOUND_ALLOW_NETWORKS unless given).
        allowed = allowed_networks() if allow is None else tuple(allow)
        self._http = JsonPoster(allowed, "callroute-bidding")
        self.clock = clock

    async def close(self) -> None:
        self._http.close()

    async def run(self, selection: Selection, call: CallFacts) -> Outcome:
        """Ping the selection's bidders, rank, post to the winner (a dry run: show the post only).
        A selection without bidders comes back as it is."""
        bidders = [c for c in selection.candidates if c.bidder is not None]
        if selection.disposition is not None or not bidders:
            return Outcome(selection)
        trail = list(selection.trail)
        exchanges: list[Exchange] = []
        results = await asyncio.gather(*(self._ping(c, call, exchanges) for c in bidders))
        bids = {r.target_id: r for r in results}
        for candidate, bid in zip(bidders, results, strict=True):
            fields = {"bid": format_money(bid.amount) if bid.amount is not None else None}
            result = Result.CANDIDATE if bid.amount is not None else Result.SKIPPED
            trail.append(self._entry(Step.BID, result, bid.reason, candidate, bid.latency_ms, **fields))
        ranked = rank(selection.candidates, bids)
        if ranked:
            trail.append(self._ranked(ranked))
        # The posts share one deadline, the first winner's: a refused post hands the call to the
        # next in rank while time is left, then to the static targets only.
        post_until = time.monotonic() + (
            ranked[0].bidder.deadline_ms / 1000 if ranked and ranked[0].bidder else 0
        )
        while ranked and ranked[0].bidder is not None:
            left = post_until - time.monotonic()
            if left <= 0:
                reason = "no time left to post to the next bidder: static targets only"
                trail.append(entry(Step.POST, Result.FAILED, reason, self.clock()))
                ranked = [c for c in ranked if c.bidder is None]
                break
            accepted = await self._post(ranked[0], call, trail, exchanges, left)
            if accepted is not None:
                ranked[0] = accepted
                break
            del ranked[0]
        dialled = dial_list(ranked)
        if not dialled:
            reason = "no target available: no bidder's bid could be taken"
            disposition = Disposition.NO_ROUTE.value
            trail.append(entry(Step.SELECT, Result.STOPPED, reason, self.clock(), disposition=disposition))
            stopped = replace(selection, disposition=Disposition.NO_ROUTE, candidates=[], trail=trail)
            return Outcome(stopped, exchanges)
        return Outcome(replace(selection, candidates=dialled, trail=trail), exchanges)

    def _entry(
        self, step: Step, result: Result, reason: str, c: Candidate, latency_ms: int | None, **fields: object
    ) -> Entry:
        ids = {"target_id": c.target_id, "name": c.name, "latency_ms": latency_ms}
        return entry(step, result, reason, self.clock(), **ids, **fields)

    def _ranked(self, ranked: list[Candidate]) -> Entry:
        def priced(c: Candidate) -> str:
            return f"{c.name} ({'bid' if c.bid is not None else 'payout'} {money_text(c.payout)})"

        dialled = dial_list(ranked)
        lost = [c for c in ranked if c not in dialled]
        reason = f"by payout, then priority: {', '.join(priced(c) for c in dialled)}"
        if lost:
            reason += f"; outbid: {', '.join(priced(c) for c in lost)}"
        return entry(
            Step.RANK,
            Result.PASSED,
            reason,
            self.clock(),
            order=[c.target_id for c in ranked],
            payouts=[format_money(c.payout) for c in ranked],
        )

    async def _ping(self, c: Candidate, call: CallFacts, exchanges: list[Exchange]) -> BidResult:
        """The bidder's bid, or why there is none; never raises, never outlasts its deadline."""
        assert c.bidder is not None
        bidder, body = c.bidder, ping_body(call, c.target_id, c.bidder)
        deadline = bidder.deadline_ms / 1000
        started = time.monotonic()
        amount: Decimal | None = None
        number: str | None = None
        try:
            answer = await self._send("ping", bidder.ping_url, body, deadline)
            if answer.status == 204:
                raise NotABid("no bid (declined)")
            amount, number = read_bid(_json(answer), bidder)
            reason = f"bid {money_text(amount)}" + (f" to be dialled at {number}" if number else "")
        except TimeoutError:
            reason = f"no bid within the {bidder.deadline_ms} ms deadline"
        except NotABid as exc:
            reason = str(exc)
        latency = _ms(started)
        result = Result.CANDIDATE if amount is not None else Result.SKIPPED
        url = bidder.ping_url
        exchanges.append(Exchange(c.target_id, c.name, "ping", url, body, result, reason, latency))
        return BidResult(c.target_id, f"{reason} ({latency} ms)", latency, amount, number)

    async def _post(
        self, c: Candidate, call: CallFacts, trail: list[Entry], exchanges: list[Exchange], left: float
    ) -> Candidate | None:
        """Tell the winner it has the call (with the caller's number); the winner as it will be
        dialled, or None when the post failed (the next in rank wins). A dry run sends none."""
        assert c.bidder is not None and c.bid is not None
        url, body = c.bidder.post_to, post_body(call, c.target_id, c.bid)
        if call.test:
            reason = f"{c.name} would be posted to (not sent in a dry run)"
            exchanges.append(Exchange(c.target_id, c.name, "post", url, body, Result.PASSED, reason, None))
            trail.append(self._entry(Step.POST, Result.PASSED, reason, c, None))
            return c
        deadline = min(c.bidder.deadline_ms / 1000, left)
        started = time.monotonic()
        accepted: Candidate | None = None
        try:
            answered = await self._send("post", url, body, deadline)
            answer = _json(answered) if answered.body else {}
            if isinstance(answer, dict) and answer.get("accepted") is False:
                raise NotABid("the buyer turned the call down")
            number = dial_number(answer.get("number")) if isinstance(answer, dict) else None
            accepted = replace(c, destination=number or c.destination)
            reason = f"{c.name} took the call at {money_text(c.bid)}"
        except TimeoutError:
            reason = f"post not answered within {round(deadline * 1000)} ms (the deadline)"
        except NotABid as exc:
            reason = str(exc)
        latency = _ms(started)
        result = Result.PASSED if accepted else Result.FAILED
        exchanges.append(Exchange(c.target_id, c.name, "post", url, body, result, reason, latency))
        trail.append(self._entry(Step.POST, result, f"{reason} ({latency} ms)", c, latency))
        return accepted

    async def _send(self, phase: str, url: str, body: PingBody | PostBody, deadline: float) -> Answer:
        """`body` posted to `url` within `deadline` seconds: its answer when a success; NotABid
        for an error status or a failed connection; TimeoutError past the deadline."""
        try:
            async with asyncio.timeout(deadline):
                answer = await self._http.post(url, orjson.dumps(body))
        except Blocked as exc:  # an internal address (core.infra.outbound): never connected
            raise NotABid(f"{phase} not sent: {exc}") from None
        except RequestFailed as exc:
            raise NotABid(f"{phase} failed: {exc}"[:160]) from None
        if not answer.is_success:
            raise NotABid(f"{phase} failed: HTTP {answer.status}")
        return answer


def _json(answer: Answer) -> object:
    try:
        return orjson.loads(answer.body)
    except orjson.JSONDecodeError:
        raise NotABid("the answer is not JSON") from None
