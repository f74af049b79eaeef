"""Benchmark: hangup-to-debited latency through a real Celery worker, at 20 calls/s.

Runs on a throw-away database created on BENCH_DATABASE_URL's server (migrated, then dropped),
with the broker on BENCH_REDIS_URL, and a worker started as `make run` starts it:

    .venv/bin/python -m bench.hangup_to_debit        (or: .venv/bin/python bench/hangup_to_debit.py)

Each call is written as the bridge writes it at hangup (the call row, committed) and its rating
task enqueued through core.infra.jobs; the latency is from that hangup to the commit that debits the
wallet and marks the call rated (its rated_at). Prints p50, p95 and max.
"""

import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402

RATE = float(os.environ.get("BENCH_RATE", "20"))  # calls per second
SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
BROKER = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")


def main() -> None:
    with throwaway_database(DATABASE_SERVER, "callroute_bench", REDIS_URL=BROKER):
        run()


def hang_up(user_id: int, campaign_id: int, target_id: int, n: int, talk: int) -> tuple[int, datetime]:
    """Write one ended call as the bridge does and enqueue its rating; (call id, hangup time)."""
    from core.infra import jobs, names
    from core.infra.db import session_scope
    from core.models import Call

    ended = datetime.now(UTC)
    started = ended - timedelta(seconds=talk + 5)
    with session_scope() as session:
        row = Call(
            linkedid=f"bench.{n}",
            user_id=user_id,
            campaign_id=campaign_id,
            target_id=target_id,
            did="+442071838750",
            caller="+447700900123",
            destination="+447911123456",
            started_at=started,
            answered_at=started + timedelta(seconds=5),
            connected_at=started + timedelta(seconds=5),
            ended_at=ended,
            duration=talk + 5,
            billsec=talk,
            talk_seconds=talk,
            disposition="ANSWERED",
        )
        session.add(row)
        session.flush()
        call_id = row.id or 0
    jobs.enqueue(names.RATE_CALL, row.linkedid)
    return call_id, ended


def run() -> None:
    from sqlalchemy import select

    from core.infra.db import session_scope
    from core.models import Buyer, Call, Campaign, Rate, Target, Tariff, User

    with session_scope() as session:
        tariff = Tariff(name="Bench")
        session.add(tariff)
        session.flush()
        session.add(
            Rate(
                tariff_id=tariff.id,
                prefix="44",
                rate_per_minute=Decimal("0.02"),
                initial_increment=30,
                billing_increment=6,
                effective_from=datetime(2026, 1, 1, tzinfo=UTC),
            )
        )
        users = [
            User(
                email=f"c{n}@bench.example",
                password_hash="unused",
                name=f"C{n}",
                role=2,
                balance=Decimal(1000),
                tariff_id=tariff.id,
            )
            for n in range(20)
        ]
        session.add_all(users)
        session.flush()
        routes = []
        for user in users:
            campaign = Campaign(user_id=user.id, name="Bench")
            buyer = Buyer(user_id=user.id, name="Buyer")
            session.add_all([campaign, buyer])
            session.flush()
            target = Target(
                user_id=user.id, buyer_id=buyer.id, name="T", destination="+14155550100", payout=Decimal(3)
            )
            session.add(target)
            session.flush()
            routes.append((user.id or 0, campaign.id or 0, target.id or 0))

    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--loglevel", "WARNING"],
        cwd=REPO,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        warm_up, _ = hang_up(*routes[0], n=-1, talk=1)
        deadline = time.monotonic() + 60
        while not rated_at(warm_up):
            if time.monotonic() > deadline:
                raise SystemExit("the worker did not rate a call within 60 s")
            time.sleep(0.1)
        hangups: dict[int, datetime] = {}
        started, n = time.monotonic(), 0
        while n < RATE * SECONDS:
            time.sleep(max(0.0, started + n / RATE - time.monotonic()))  # a steady 20 calls per second
            call_id, ended = hang_up(*routes[n % len(routes)], n=n, talk=30 + n % 300)
            hangups[call_id] = ended
            n += 1
        deadline = time.monotonic() + 60
        while True:
            # One statement: read committed gives each statement its own snapshot, so a count taken
            # apart could see a rating the rows read just before did not (and stop one call short).
            with session_scope() as session:
                done = dict(session.execute(select(Call.id, Call.rated_at).where(Call.id.in_(hangups))).all())
            if all(done.get(c) for c in hangups) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    latencies = sorted((done[c] - hangups[c]).total_seconds() for c in hangups if done.get(c))
    if len(latencies) < len(hangups):
        raise SystemExit(f"only {len(latencies)} of {len(hangups)} calls were rated")
    cuts = statistics.quantiles(latencies, n=20)
    p50, p95 = cuts[9], cuts[18]
    print(
        f"calls={len(latencies)} at {RATE:g}/s: hangup-to-debited p50={p50 * 1000:.0f} ms "
        f"p95={p95 * 1000:.0f} ms max={latencies[-1] * 1000:.0f} ms"
    )


def rated_at(call_id: int) -> datetime | None:
    from core.infra.db import session_scope
    from core.models import Call

    with session_scope() as session:
        row = session.get(Call, call_id)
        return row.rated_at if row else None


if __name__ == "__main__":
    main()
