"""Chaos across two nodes behind Kamailio, for as long as asked (docs/scale.md, "Proof"): the harness
of tests/asterisk/test_failover_chaos.py (testkit.chaos) with a longer calm between faults, a
longer run and another rate. Prints the table fault -> calls placed during it, refused, answered
elsewhere, lost with the part, time to recover; then the rows and the books.

    .venv/bin/python -m bench.chaos                                # 10 calls/s, 30 s between faults
    .venv/bin/python -m bench.chaos --rate 20 --settle 60 --minutes 10

Needs root (the Asterisk chroot) and Kamailio. Runs on a PostgreSQL and a Redis of its own (both
restarted as faults).
"""

import argparse
import asyncio
import os
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from testkit.chaos import CONCURRENCY_CAP, run_chaos  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402
from testkit.processes import postgres_server, redis_server  # noqa: E402
from testkit.tools import host_tool  # noqa: E402


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--rate", type=int, default=10, help="calls per second")
    parser.add_argument("--talk-ms", type=int, default=1500, help="how long each answered call lasts")
    parser.add_argument("--settle", type=float, default=30, help="seconds of calm before each fault")
    parser.add_argument("--minutes", type=float, default=4, help="the shortest run")
    parser.add_argument("--logs", type=Path, help="keep the logs in this directory")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("the chaos benchmark needs root (Asterisk runs in a chroot)")
    sipp = host_tool("sipp")
    host_tool("kamailio")
    with ExitStack() as stack:
        workdir = args.logs or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-chaos-")))
        workdir.mkdir(parents=True, exist_ok=True)
        redis = stack.enter_context(redis_server(workdir))
        postgres = stack.enter_context(postgres_server())
        stack.enter_context(throwaway_database(postgres.url, "callroute_chaos", REDIS_URL=redis.url))
        print(f"logs in {workdir}", file=sys.stderr)
        run = asyncio.run(
            run_chaos(
                sipp,
                workdir,
                redis,
                rate=args.rate,
                talk_ms=args.talk_ms,
                settle_seconds=args.settle,
                min_seconds=args.minutes * 60,
                postgres=postgres,
            )
        )
    answered = sum(c.answered for c in run.placed)
    twice = sum(n > 1 for n in run.row_counts.values())
    books = run.books
    print(run.table())
    print(
        f"\n{len(run.placed)} calls in {run.seconds:.0f} s at {args.rate}/s asked: {answered} answered;"
        f" callers with more than one row: {twice}; rows left open: {len(run.open_rows)}"
        f" {run.open_rows[:5]}; most connected at once {run.most_at_once}"
        f" (cap {CONCURRENCY_CAP}); routed with PostgreSQL away {run.routed_offline}"
    )
    print(
        f"debits {books.debits} = rated {books.rated}: {books.debits == books.rated};"
        f" balance {books.balance} = ledger {books.ledger}: {books.balance == books.ledger};"
        f" holds open {books.holds_open}, live entries {books.live}, unrated {books.unrated}"
    )


if __name__ == "__main__":
    main()
