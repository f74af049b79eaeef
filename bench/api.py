"""Benchmark: the API's list endpoints under an open-loop load, the portal started as `make run` starts it.

    .venv/bin/python -m bench.api --keep bench_api --calls 100000   # seed once, reuse it next time
    .venv/bin/python -m bench.api --keep bench_api --workers 1      # one portal process
    .venv/bin/python -m bench.api --keep bench_api --rates 100,200 --seconds 10 --report-users 0

Seeds (or reuses) bench/reports.py's database (its calls, customers, buyers, campaigns, targets,
trunks; numbers added from the calls' DIDs and a pool), then serves the portal with --workers
processes (default: PORTAL_WORKERS, one per core, as `make run`) and its load shedding as
configured, and offers each rate of --rates for --seconds: requests *start* at a fixed rate
whatever the answers do (open loop), each picked in turn from the list endpoints and the roles
that use them. A request's time runs from when it was due, so a lagging generator shows as
latency, not as a lower rate. Prints per step and per endpoint p50/p95/p99 of the answered
(200), the shed (503) and the failed (any other status, or no answer within --timeout), and the
portal processes' CPU seconds per answered request. Then --report-users clients mix the report
requests of bench/reports.py for --seconds (the issue's "20 concurrent report users").
"""

import argparse
import asyncio
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench.reports import Request, concurrent, pct, requests_for, seeded_database, session_tokens  # noqa: E402

POOL_NUMBERS = 2_000  # unassigned numbers in the admin's pool


@dataclass
class Tally:
    ok: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)  # how late the generator sent (its own lag)
    shed: int = 0
    failed: int = 0


def add_numbers(url: str) -> None:
    """The customers' numbers (each DID their calls came to, on its campaign) and an unassigned
    pool, unless there are numbers already."""
    with psycopg.connect(url) as conn:
        if (conn.execute("SELECT count(*) FROM number").fetchone() or (0,))[0]:
            return
        conn.execute(
            "INSERT INTO number (number, user_id, campaign_id, status, setup_fee, monthly_fee)"
            " SELECT DISTINCT ON (did) did, user_id, campaign_id, 'active', 0, 1"
            " FROM call WHERE did ~ '^\\+[1-9][0-9]{6,14}$' ORDER BY did, id ON CONFLICT DO NOTHING"
        )
        conn.execute(
            "INSERT INTO number (number, status, setup_fee, monthly_fee)"
            " SELECT '+1888' || lpad(n::text, 7, '0'), 'active', 0, 1 FROM generate_series(1, %s) n"
            " ON CONFLICT DO NOTHING",
            (POOL_NUMBERS,),
        )
        conn.execute("ANALYZE number")


def list_requests(url: str, tokens: dict[str, str]) -> list[Request]:
    """The list endpoints' first pages, each for the roles that open it."""
    with psycopg.connect(url) as conn:
        big, small = conn.execute(
            "SELECT (array_agg(user_id ORDER BY n DESC))[1], (array_agg(user_id ORDER BY n))[1]"
            " FROM (SELECT user_id, count(*) n FROM call GROUP BY user_id) c"
        ).fetchone() or (0, 0)
        buyer = (
            conn.execute("SELECT login_user_id FROM buyer WHERE user_id = %s LIMIT 1", (big,)).fetchone()
            or (0,)
        )[0]
    roles = {"admin": tokens["admin"], "biggest": tokens[str(big)], "small": tokens[str(small)]}
    month = {"type": "month"}
    out = [Request("trunks", "admin", "GET", "/api/trunk/details", roles["admin"])]
    for role, token in roles.items():
        out += [
            Request("numbers", role, "GET", "/api/number/details", token),
            Request("campaigns", role, "GET", "/api/campaign/details", token),
            Request("targets", role, "GET", "/api/target/details", token),
            Request("report first page", role, "GET", "/api/report", token),
            Request("dashboard", role, "GET", "/api/dashboard/call", token, month),
        ]
    out += [
        Request("report first page", "buyer", "POST", "/api/buyer/buyer-report", tokens[str(buyer)], body={}),
        Request("dashboard", "buyer", "GET", "/api/dashboard/call", tokens[str(buyer)], month),
    ]
    return out


def portal_pids(port: int) -> list[int]:
    """The uvicorn serving `port` and its worker processes."""
    wanted = f"--port\0{port}\0".encode()
    masters = [
        int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and wanted in _read(p / "cmdline")
    ]
    pids = list(masters)
    for pid in masters:
        for task in Path(f"/proc/{pid}/task").iterdir():
            pids += [int(c) for c in _read(task / "children").split()]
    return pids


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = _read(Path(f"/proc/{pid}/stat")).rsplit(b")", 1)[-1].split()
        if len(fields) > 12:
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / tick


async def step(
    base: str, requests: list[Request], rate: float, seconds: float, timeout: float
) -> dict[str, Tally]:
    """Offer `rate` requests a second for `seconds`; the tallies by endpoint (and "all")."""
    tallies: dict[str, Tally] = {}
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=2000)
    async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as client:

        async def one(r: Request, due: float) -> None:
            late = time.perf_counter() - due
            try:
                answer = await client.request(
                    r.method,
                    r.path,
                    params=r.params,
                    json=r.body,
                    headers={"Authorization": f"Bearer {r.token}"},
                )
                status = answer.status_code
            except httpx.HTTPError:
                status = 0
            took = time.perf_counter() - due
            for key in (r.name, "all"):
                tally = tallies.setdefault(key, Tally())
                tally.late.append(late)
                if status == 200:
                    tally.ok.append(took)
                elif status == 503:
                    tally.shed += 1
                else:
                    tally.failed += 1

        total = int(rate * seconds)
        started = time.perf_counter()
        tasks = []
        for n in range(total):
            due = started + n / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            tasks.append(asyncio.create_task(one(requests[n % len(requests)], due)))
        await asyncio.gather(*tasks)
    return tallies


def cpu_per_request(base: str, requests: list[Request], pids: list[int], runs: int) -> None:
    """One client, each request `runs` times in a row: the portal's CPU milliseconds per request
    (what a request costs, whatever the load) and the wall-clock p50."""
    print(f"\n| endpoint | role | portal CPU ms | p50 ms |  (one client, {runs} runs)\n|---|---|---|---|")
    with httpx.Client(base_url=base, timeout=60) as client:
        for r in requests:
            headers = {"Authorization": f"Bearer {r.token}"}
            client.request(r.method, r.path, params=r.params, json=r.body, headers=headers)  # warm
            times = []
            cpu = cpu_seconds(pids)
            for _ in range(runs):
                started = time.perf_counter()
                client.request(
                    r.method, r.path, params=r.params, json=r.body, headers=headers
                ).raise_for_status()
                times.append(time.perf_counter() - started)
            used = (cpu_seconds(pids) - cpu) / runs * 1000
            print(f"| {r.name} | {r.role} | {used:.2f} | {pct(times, 0.5) * 1000:.1f} |", flush=True)


def report(rate: float, tallies: dict[str, Tally], wall: float, cpu: float, load: float) -> None:
    every = tallies["all"]
    print(
        f"\n{rate:.0f} req/s offered: {len(every.ok) / wall:.0f} answered/s, load {load:.1f},"
        f" portal CPU {cpu / max(1, len(every.ok)) * 1000:.2f} ms per answered request,"
        f" sent late by p50 {pct(every.late, 0.5) * 1000:,.0f} ms, p95 {pct(every.late, 0.95) * 1000:,.0f} ms"
        " (the generator's own lag: a figure above is the machine's, not the portal's, when this is large)"
    )
    print("| endpoint | 200 | p50 ms | p95 ms | p99 ms | 503 | failed |\n|---|---|---|---|---|---|---|")
    for name, t in sorted(tallies.items(), key=lambda kv: kv[0] == "all"):
        figures = [pct(t.ok, p) * 1000 for p in (0.5, 0.95, 0.99)] if t.ok else [float("nan")] * 3
        p50, p95, p99 = figures
        print(f"| {name} | {len(t.ok)} | {p50:,.1f} | {p95:,.1f} | {p99:,.1f} | {t.shed} | {t.failed} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=1_000_000)
    ap.add_argument("--keep", metavar="NAME", help="seed database NAME once and keep it (reused when seeded)")
    ap.add_argument(
        "--workers", type=int, default=0, help="portal processes; 0: PORTAL_WORKERS's (make run's)"
    )
    ap.add_argument("--rates", default="100,200,300,500", help="requests a second, comma-separated")
    ap.add_argument("--seconds", type=float, default=20, help="each rate's duration")
    ap.add_argument("--timeout", type=float, default=30, help="a request without an answer by then failed")
    ap.add_argument("--each", type=int, default=50, help="runs of each request, one client (0: none)")
    ap.add_argument("--report-users", type=int, default=20, help="concurrent report users (0: none)")
    args = ap.parse_args()

    from core.infra.settings import get_settings
    from testkit.processes import api_server

    workers = args.workers or get_settings().portal_processes
    with seeded_database(
        args.keep or f"callroute_bench_api_{os.getpid()}", bool(args.keep), args.calls
    ) as url:
        add_numbers(url)
        tokens = session_tokens(url)
        lists = list_requests(url, tokens)
        with api_server(workers=workers) as base:
            pids = portal_pids(int(base.rsplit(":", 1)[1]))
            print(f"portal: {workers} process(es), pids {pids}")
            if args.each:
                cpu_per_request(base, lists, pids, args.each)
            asyncio.run(step(base, lists, 20, 3, args.timeout))  # warm: connections, caches
            for rate in (float(r) for r in args.rates.split(",")):
                cpu, started = cpu_seconds(pids), time.perf_counter()
                tallies = asyncio.run(step(base, lists, rate, args.seconds, args.timeout))
                wall = time.perf_counter() - started
                report(rate, tallies, wall, cpu_seconds(pids) - cpu, os.getloadavg()[0])
            if args.report_users:
                reports, _ = requests_for(url, tokens)
                cpu, load = cpu_seconds(pids), os.getloadavg()[0]
                concurrent(base, reports, args.report_users, args.seconds * 3)
                print(f"    portal CPU {cpu_seconds(pids) - cpu:.1f} s, load {load:.1f}")


if __name__ == "__main__":
    main()
