"""Benchmark: a rating's rollups summed again (core.reporting.rollups.refresh_hours) against added
(core.reporting.rollup_deltas.add_calls), paired on the same calls, each pair rolled back.

Rates BENCH_CALLS of bench.rerate's calls (one a second: 3,600 an hour) on a throw-away database,
then times, alternately first, each way for one call (the hand-off at hangup; every 500th call)
and for each batch of 2,000 calls, twice over, and prints the medians:

    BENCH_CALLS=20000 .venv/bin/python -m bench.rollup_ways
"""

import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a plain script too

from bench import DATABASE_SERVER
from testkit.databases import throwaway_database

Calls = Sequence[tuple[int, datetime]]


def main() -> None:
    os.environ.setdefault("BENCH_CALLS", "20000")
    with throwaway_database(DATABASE_SERVER, "callroute_bench_rollups"):
        run()


def run() -> None:
    from sqlalchemy import text

    from bench import rerate
    from core.billing.rating import rate_pending
    from core.infra.db import session_scope
    from core.operations.seed import seed_countries
    from core.reporting import rollup_deltas, rollups

    with session_scope() as session:
        seed_countries(session)
    rerate.populate(random.Random(11))
    rate_pending(workers=1)
    with session_scope() as session:
        calls: list[tuple[int, datetime]] = [
            (r[0], r[1]) for r in session.execute(text("SELECT id, started_at FROM call ORDER BY id"))
        ]

    def summed(batch: Calls) -> Callable[..., object]:
        return lambda s: rollups.refresh_hours(s, rollups.hours_started(c[1] for c in batch))

    def added(batch: Calls) -> Callable[..., object]:
        return lambda s: rollup_deltas.add_calls(s, batch)

    def paired(batches: list[Calls]) -> tuple[float, float]:
        times: dict[str, list[float]] = {"summed": [], "added": []}
        for n, batch in enumerate(batches):
            ways = [("summed", summed(batch)), ("added", added(batch))]
            for name, way in ways if n % 2 else ways[::-1]:
                with session_scope() as session:
                    started = time.perf_counter()
                    way(session)
                    times[name].append(time.perf_counter() - started)
                    session.rollback()
        return statistics.median(times["summed"]) * 1000, statistics.median(times["added"]) * 1000

    one = paired([[call] for call in calls[::500]])
    many = paired([calls[i : i + 2000] for i in range(0, len(calls), 2000)] * 2)
    print(f"calls={len(calls)} (3,600 an hour)")
    print(
        f"one call ({len(calls[::500])} pairs): summed again {one[0]:.1f} ms, added {one[1]:.1f} ms (medians)"
    )
    print(f"a batch of 2,000: summed again {many[0]:.0f} ms, added {many[1]:.0f} ms (medians)")
    print(f"load average: {' '.join(f'{n:.2f}' for n in os.getloadavg())}")


if __name__ == "__main__":
    main()
