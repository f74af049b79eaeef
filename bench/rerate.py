"""Benchmark: rating and re-rating synthetic calls through the real code path (rate + ledger).

BENCH_HOOKED (default 0) puts that share of the calls on a campaign whose webhook listens to every
event, so that rating also records their converted, completed and rated events.

Runs on a throw-away database created on BENCH_DATABASE_URL's server (migrated, then dropped):

    .venv/bin/python -m bench.rerate        (or: .venv/bin/python bench/rerate.py)

Prints calls per second for the first rating of BENCH_CALLS pending calls (core.billing.rating,
one debit each) and for re-rating them after every price changed (core.billing.rerate, one
adjustment each), beside the floor: the time to COPY as many rows into the ledger table; then the
seconds each part of the rating and re-rating transactions took, summed over the batches ("other":
the rest of the run, pricing in Python mostly; summed over the workers when several batches run
at once, so the parts may add up to more than the run). A part the code under test does not have
is left out: the same script also times an older checkout, for a before and after.

Beside the wall-clock rates it prints the CPU each phase cost per 1,000 calls: this process's
(Python: pricing, building statements) and the database server's (the bench database's client
backends, read from /proc), which a shared machine's load distorts far less than seconds elapsed;
and how many of the call rows' updates were HOT (no index entry written).

Each suspect of a regression alone: BENCH_WORKERS (batches at once; rating.WORKERS unless set),
BENCH_DROP_INDEXES (call indexes dropped first, comma-separated names), BENCH_PREPARE (SQL run on
the bench database before the calls are written, e.g. a partition's fillfactor).
"""

import functools
import importlib
import os
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402

CALLS = int(os.environ.get("BENCH_CALLS", "100000"))
PREFIXES = int(os.environ.get("BENCH_PREFIXES", "10000"))
CUSTOMERS = 100
HOOKED = float(os.environ.get("BENCH_HOOKED", "0"))
WORKERS = os.environ.get("BENCH_WORKERS")
DROPPED = [name for name in os.environ.get("BENCH_DROP_INDEXES", "").split(",") if name]
PREPARE = os.environ.get("BENCH_PREPARE", "")
CODES = ["1", "33", "34", "39", "44", "49", "52", "55", "61", "81", "86", "91"]
RATED_FROM = datetime(2026, 1, 1, tzinfo=UTC)
CALLS_FROM = datetime(2026, 3, 1, tzinfo=UTC)
RATE_COPY = (
    "COPY rate (tariff_id, prefix, rate_per_minute, initial_increment, billing_increment, effective_from,"
    " min_duration) FROM STDIN"
)
CALL_COPY = (
    "COPY call (linkedid, user_id, did, caller, destination, started_at, ended_at, duration, billsec,"
    " talk_seconds, disposition, converted) FROM STDIN"
)
LEDGER_COPY = (
    "COPY wallet_transaction (user_id, transaction_type, amount, balance_after, description, reference,"
    " created_at) FROM STDIN"
)


# (part, module, function) timed in each run: the steps of one batch's transaction, and its commit.
RATE_PARTS = [
    ("claim", "core.billing.rating", "_claim"),
    ("ledger", "core.billing.wallet", "post_many"),
    ("call rows", "core.billing.rating", "_save"),
    ("credit holds", "core.billing.credit", "release_many"),
    ("no-rate notices", "core.billing.rating", "flag_unrated"),
    ("rollups", "core.reporting.rollups", "refresh_hours"),
    ("rollups", "core.reporting.rollup_deltas", "add_calls"),
    ("webhook events", "core.webhooks.intake", "rated"),
    ("commit", "sqlmodel", "Session.commit"),
]
RERATE_PARTS = [
    ("claim", "core.billing.rerate", "_claim"),
    ("ledger read", "core.billing.rerate", "_charged"),
    ("ledger", "core.billing.wallet", "post_many"),
    ("call rows", "core.billing.rerate", "_save"),
    ("rollups", "core.reporting.rollups", "refresh_hours"),
    ("rollups", "core.reporting.rollup_deltas", "move_money"),
    ("commit", "sqlmodel", "Session.commit"),
]


class Cpu:
    """CPU seconds of this process and of the bench database's backends (same host) while timing."""

    def __init__(self) -> None:
        self.python = self.database = 0.0
        self._start: tuple[float, dict[int, float]] = (0.0, {})

    def __enter__(self) -> "Cpu":
        self._start = (time.process_time(), _backend_seconds())
        return self

    def __exit__(self, *_: object) -> None:
        python, backends = self._start
        self.python = time.process_time() - python
        self.database = sum(t - backends.get(pid, 0.0) for pid, t in _backend_seconds().items())

    def per_thousand(self, calls: int) -> str:
        ms = 1e6 / max(calls, 1)
        return f"CPU per 1,000 calls: python {self.python * ms:.0f} ms, postgres {self.database * ms:.0f} ms"


def _backend_seconds() -> dict[int, float]:
    """user + system CPU seconds of each client backend of this database, by pid."""
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        pids = [
            r[0]
            for r in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
        ]
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


class Parts:
    """Seconds spent in each part while timing: the functions are wrapped in place (module
    attributes, as their callers look them up) and put back after."""

    def __init__(self, parts: list[tuple[str, str, str]]) -> None:
        self.seconds: dict[str, float] = {}
        self._wrapped: list[tuple[object, str, object]] = []
        for part, module, name in parts:
            try:
                owner: object = importlib.import_module(module)
            except ModuleNotFoundError:  # an older checkout's
                continue
            *path, attribute = name.split(".")
            for step in path:
                owner = getattr(owner, step)
            original = getattr(owner, attribute, None)
            if original is None:
                continue
            self.seconds[part] = 0.0
            self._wrapped.append((owner, attribute, original))
            setattr(owner, attribute, self._timed(part, original))

    def _timed(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[part] += time.perf_counter() - started

        return timed

    def __enter__(self) -> "Parts":
        return self

    def __exit__(self, *_: object) -> None:
        for owner, attribute, original in self._wrapped:
            setattr(owner, attribute, original)

    def report(self, total: float) -> str:
        shown = [*self.seconds.items(), ("other", total - sum(self.seconds.values()))]
        return ", ".join(f"{part} {seconds:.2f}" for part, seconds in shown)


def main() -> None:
    with throwaway_database(DATABASE_SERVER, "callroute_bench"):
        run()


def copy_rows(cursor: psycopg.Cursor, statement: str, rows: list[tuple]) -> None:
    with cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def populate(rng: random.Random) -> tuple[int, list[str]]:
    """A tariff of PREFIXES rates, CUSTOMERS customers on it, CALLS ended calls (a fifth
    unanswered, one in a hundred to a destination no rate covers). Returns (tariff id, prefixes)."""
    from core.infra.db import session_scope
    from core.models import Tariff

    with session_scope() as session:
        tariff = Tariff(name="Bench")
        session.add(tariff)
        session.flush()
        tariff_id = tariff.id or 0
    prefixes = sorted(
        {rng.choice(CODES) + str(rng.randrange(10 ** rng.randrange(1, 6))) for _ in range(PREFIXES)}
    )
    increments = [(60, 60), (30, 6), (1, 1), (60, 30)]
    rates = [
        (tariff_id, p, Decimal(rng.randrange(1, 5000)).scaleb(-4), *rng.choice(increments), RATED_FROM, 0)
        for p in prefixes
    ]
    users = [
        (f"c{n}@bench.example", "unused", f"Customer {n}", 2, Decimal(10**6), tariff_id)
        for n in range(CUSTOMERS)
    ]
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn, conn.cursor() as cur:
        copy_rows(
            cur,
            RATE_COPY,
            rates,
        )
        copy_rows(cur, "COPY users (email, password_hash, name, role, balance, tariff_id) FROM STDIN", users)
        user_ids = [r[0] for r in cur.execute("SELECT id FROM users ORDER BY id")]
        calls = []
        for n in range(CALLS):
            prefix = "999" if n % 100 == 1 else rng.choice(prefixes)
            number = "+" + (prefix + "".join(rng.choices("0123456789", k=12)))[:15]
            billsec = 0 if n % 5 == 0 else rng.randrange(1, 900)
            started = CALLS_FROM + timedelta(seconds=n)
            calls.append(
                (
                    f"bench.{n}",
                    rng.choice(user_ids),
                    "+442071838750",
                    "+447700900123",
                    number,
                    started,
                    started + timedelta(seconds=billsec + 5),
                    billsec + 5,
                    billsec,
                    billsec,
                    "ANSWERED" if billsec else "NO ANSWER",
                    False,
                )
            )
        copy_rows(
            cur,
            CALL_COPY,
            calls,
        )
        conn.commit()
        cur.execute("ANALYZE")
    if HOOKED:
        hook_calls(conn_url=os.environ["DATABASE_URL"], user_id=user_ids[0])
    return tariff_id, prefixes


def hook_calls(conn_url: str, user_id: int) -> None:
    """Every 1/HOOKED-th call on a campaign with an active webhook for every event, connected to
    its target (converted when it talked 30 s)."""
    from core.models import Target, Webhook
    from core.values.enums import WebhookEvent
    from testkit.rows import campaign_with_target, get, save

    campaign_id, target_id = campaign_with_target(user_id, buffer_seconds=30)
    events = [e.value for e in WebhookEvent]
    save(
        Webhook(
            user_id=user_id, campaign_id=campaign_id, url="http://127.0.0.1:9/", events=events, secret="s"
        )
    )
    with psycopg.connect(conn_url) as conn:
        conn.execute(
            "UPDATE call SET campaign_id = %s, target_id = %s, buyer_id = %s, connected_at = started_at"
            " WHERE id %% %s = 0",
            (campaign_id, target_id, get(Target, target_id).buyer_id, round(1 / HOOKED)),
        )
        conn.commit()
        conn.execute("ANALYZE call")


def copy_floor(rows: int) -> float:
    """Seconds to COPY `rows` ledger rows into wallet_transaction (its indexes included), rolled back."""
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn, conn.cursor() as cur:
        row = cur.execute("SELECT min(id) FROM users").fetchone()
        assert row is not None  # an aggregate answers one row
        user_id = row[0]
        now = datetime.now(UTC)
        data = [
            (user_id, "refund", Decimal("0.0100"), Decimal(n), "floor", f"floor:{n}", now)
            for n in range(rows)
        ]
        started = time.perf_counter()
        copy_rows(
            cur,
            LEDGER_COPY,
            data,
        )
        seconds = time.perf_counter() - started
        conn.rollback()
    return seconds


def hot_updates() -> str:
    """How many of the call partitions' row updates were HOT (no index entry written)."""
    from core.infra.db import get_engine

    get_engine().dispose()  # a backend's counts reach the statistics when it ends, at the latest
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        row = conn.execute(
            "SELECT sum(n_tup_upd), sum(n_tup_hot_upd) FROM pg_stat_user_tables"
            " WHERE relid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'call'::regclass)"
        ).fetchone()
    assert row is not None  # aggregates answer one row
    return f"{row[0]} ({row[1]} HOT)"


def run() -> None:
    from sqlalchemy import text

    from core.billing.rating import WORKERS as SWEEP_WORKERS
    from core.billing.rating import rate_pending
    from core.billing.rerate import rerate_period
    from core.infra.db import session_scope
    from core.operations.seed import seed_countries

    with session_scope() as session:
        seed_countries(session)
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        for name in DROPPED:
            conn.execute(f"DROP INDEX {name}")
        if PREPARE:
            conn.execute(PREPARE)
    rng = random.Random(11)
    tariff_id, prefixes = populate(rng)
    workers = int(WORKERS) if WORKERS else SWEEP_WORKERS

    with Parts(RATE_PARTS) as rate_parts, Cpu() as rate_cpu:
        started = time.perf_counter()
        processed = rate_pending(workers=workers)
        rating = time.perf_counter() - started
    with session_scope() as session:
        debits = session.scalar(
            text("SELECT count(*) FROM wallet_transaction WHERE transaction_type = 'call'")
        )
        status = dict(session.execute(text("SELECT rating_status, count(*) FROM call GROUP BY 1")).all())
    assert processed == CALLS and status.get("pending") is None, (processed, status)

    # Every price changes: a corrected rate for each prefix, in force before the calls started.
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn, conn.cursor() as cur:
        copy_rows(
            cur,
            RATE_COPY,
            [
                (
                    tariff_id,
                    p,
                    Decimal(rng.randrange(1, 5000)).scaleb(-4),
                    1,
                    1,
                    RATED_FROM + timedelta(days=1),
                    0,
                )
                for p in prefixes
            ],
        )
        conn.commit()
        cur.execute("ANALYZE")
    with Parts(RERATE_PARTS) as rerate_parts, Cpu() as rerate_cpu:
        started = time.perf_counter()
        result = rerate_period(
            CALLS_FROM, CALLS_FROM + timedelta(seconds=CALLS), tariff_id=tariff_id, workers=workers
        )
        rerating = time.perf_counter() - started
    with session_scope() as session:
        drift = session.scalar(
            text(
                "SELECT count(*) FROM call c JOIN (SELECT call_id, -sum(amount) AS charged"
                " FROM wallet_transaction WHERE call_id IS NOT NULL GROUP BY call_id) l ON l.call_id = c.id"
                " WHERE l.charged <> c.cost"
            )
        )
    assert drift == 0, drift

    floor_rating, floor_rerating = copy_floor(debits or 0), copy_floor(result.adjusted)
    with session_scope() as session:
        events = session.scalar(text("SELECT count(*) FROM webhook_delivery"))
    print(f"workers={WORKERS or 'default'} dropped={','.join(DROPPED) or '-'} prepare={PREPARE or '-'}")
    print(f"calls={CALLS} prefixes={len(prefixes)} customers={CUSTOMERS} statuses={status} events={events}")
    print(
        f"rate:   {CALLS / rating:,.0f} calls/s ({rating:.2f} s, {debits} debits)"
        f" | COPY of {debits} ledger rows: {floor_rating:.2f} s"
    )
    print(
        f"rerate: {result.calls / rerating:,.0f} calls/s ({rerating:.2f} s, {result.adjusted} adjustments)"
        f" | COPY of {result.adjusted} ledger rows: {floor_rerating:.2f} s"
    )
    print(f"rate:   {rate_cpu.per_thousand(CALLS)} | rerate: {rerate_cpu.per_thousand(result.calls)}")
    print(f"rate parts (s):   {rate_parts.report(rating)}")
    print(f"rerate parts (s): {rerate_parts.report(rerating)}")
    print(f"call row updates: {hot_updates()}")
    print(f"load average: {' '.join(f'{n:.2f}' for n in os.getloadavg())}")


if __name__ == "__main__":
    main()
