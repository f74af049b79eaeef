"""Benchmark: what real-time bidding adds to a call's routing decision (docs/bidding.md, "Cost").

    .venv/bin/python -m bench.bidding                 # 10 bidders, 300 auctions, then 10 calls at once
    .venv/bin/python -m bench.bidding --bidders 20 --runs 500

Ten buyers' endpoints on loopback (testkit.bidders, one HTTP server each, answering at once, well
within the 300 ms deadline, in a process of their own) bid on a campaign with one static target
too. Each auction is what the bridge runs between target selection and dialling
(core.routing.auction: pings in parallel, the ranking, the post to the winner), timed from its
start to the dial list. Printed: the CPU time one auction takes (the bridge's cost, whatever else
runs on the machine), p50/p95/max of one call at a time (after a warm-up, so on kept-alive
connections), then of `--parallel` calls auctioned at once on one event loop, as a bridge with
several calls arriving together runs them;
and the CPU the bidders' process spent per auction (a buyer's side, elsewhere in production).
No database: the auction is the part bidding adds; selection is measured by bench/calls.py.
"""

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from core.infra.settings import parse_networks  # noqa: E402
from core.routing.auction import Auction, Outcome  # noqa: E402
from core.routing.bids import Bidder, CallFacts  # noqa: E402
from core.routing.selection import Candidate, Selection  # noqa: E402
from testkit.processes import LOOPBACK  # noqa: E402


def selection(urls: list[str]) -> Selection:
    static = Candidate(1, 1, "Static", "+14155550100", 1, 1, None, payout=Decimal("5"))
    bidders = [
        Candidate(i + 2, 1, f"Bidder {i}", "+14155550101", 1, 1, None, bidder=Bidder(url))
        for i, url in enumerate(urls)
    ]
    return Selection(None, [static, *bidders], [], campaign_name="Bench leads")


def facts(n: int) -> CallFacts:
    return CallFacts(f"bench.{n}", 1, "Bench leads", "+447911123456")


def summary(label: str, millis: list[float]) -> str:
    ordered = sorted(millis)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (
        f"{label}: n={len(ordered)} p50={statistics.median(ordered):.1f} ms p95={p95:.1f} ms"
        f" max={ordered[-1]:.1f} ms"
    )


def late(outcome: Outcome) -> int:
    """Bids the auction cut at the deadline (none is slow here: a loaded machine makes them so)."""
    return sum(1 for e in outcome.selection.trail if e["step"] == "bid" and "deadline" in e["reason"])


async def measure(
    sel: Selection, runs: int, parallel: int
) -> tuple[float, list[float], list[float], tuple[int, int]]:
    auction = Auction(allow=parse_networks(LOOPBACK))  # its bidders listen on loopback
    try:
        started = time.perf_counter()
        await auction.run(sel, facts(0))
        cold = (time.perf_counter() - started) * 1000
        for n in range(20):  # warm-up: connections to every bidder kept alive
            await auction.run(sel, facts(n))
        one: list[float] = []
        missed = 0
        cpu = time.process_time()
        for n in range(runs):
            started = time.perf_counter()
            missed += late(await auction.run(sel, facts(n)))
            one.append((time.perf_counter() - started) * 1000)
        print(f"CPU time of this process per auction: {(time.process_time() - cpu) * 1000 / runs:.1f} ms")
        missed_alone, missed = missed, 0

        async def timed(n: int) -> float:
            nonlocal missed
            started = time.perf_counter()
            missed += late(await auction.run(sel, facts(n)))
            return (time.perf_counter() - started) * 1000

        together: list[float] = []
        for n in range(max(1, runs // parallel)):
            together += await asyncio.gather(*(timed(n * parallel + k) for k in range(parallel)))
        return cold, one, together, (missed_alone, missed)
    finally:
        await auction.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bidders", type=int, default=10)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--parallel", type=int, default=10, help="calls auctioned at once")
    args = parser.parse_args()
    argv = [sys.executable, "-m", "testkit.bidders", str(args.bidders)]
    with subprocess.Popen(argv, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as buyers:
        assert buyers.stdout is not None and buyers.stdin is not None
        urls = json.loads(buyers.stdout.readline())
        endpoints = psutil.Process(buyers.pid)
        spent = sum(endpoints.cpu_times()[:2])
        try:
            cold, one, together, missed = asyncio.run(measure(selection(urls), args.runs, args.parallel))
            # The buyers' side of the same auctions: on this machine it takes from the same cores.
            auctions = 21 + args.runs + len(together)
            buyers_ms = (sum(endpoints.cpu_times()[:2]) - spent) * 1000 / auctions
            print(f"CPU time of the bidders' process per auction: {buyers_ms:.1f} ms")
        finally:
            buyers.stdin.close()
    print(f"{args.bidders} bidders on loopback, deadline 300 ms; the auction (pings, ranking, post):")
    print(f"first auction (new connections): {cold:.1f} ms")
    print(summary("one call at a time", one) + f"; bids cut at the deadline: {missed[0]}")
    print(summary(f"{args.parallel} calls at once", together) + f"; bids cut at the deadline: {missed[1]}")


if __name__ == "__main__":
    main()
