"""Benchmark: website number swapping (docs/attribution.md, "Figures").

    .venv/bin/python -m bench.attribution                    # 200 assignments/s for 10 s
    .venv/bin/python -m bench.attribution --rate 300 --seconds 20

On a throw-away database (BENCH_DATABASE_URL's server) and BENCH_REDIS_URL's Redis database
(emptied first): a customer with a campaign whose pool has --numbers numbers. Printed:
- number assignment through the real portal (uvicorn, testkit.processes; --workers processes, by
  default as `make run` starts it: PORTAL_WORKERS, one per core when 0): --rate requests a second
  of new visitors, open loop (each sent at its time whatever the others do), each timed from its
  send to its answer: p50/p95/max and errors;
- the match in the bridge's routing (pbx_bridge.attribution: one Redis round trip for the holders
  at the call's start, then the attribution they give), for a number three sessions held and for a
  number nobody held (a static number's calls pay this);
- the script's size, gzipped.
"""

import argparse
import asyncio
import gzip
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402

REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
ORIGIN = "https://shop.example"
AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"


def summary(label: str, millis: list[float]) -> str:
    ordered = sorted(millis)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    return (
        f"{label}: n={len(ordered)} p50={statistics.median(ordered):.2f} ms p95={p95:.2f} ms"
        f" max={ordered[-1]:.2f} ms"
    )


def seed(numbers: int) -> tuple[str, int, list[str]]:
    """A customer, its campaign with a pool of `numbers`, its site: (script key, campaign, numbers)."""
    from core.infra.db import session_scope
    from core.models import Campaign, DniPool, DniSite, Number, User
    from core.values.passwords import hash_password

    with session_scope() as s:
        user = User(email="bench@example.com", password_hash=hash_password("x1234567"), name="Bench", role=2)
        s.add(user)
        s.flush()
        campaign = Campaign(user_id=user.id or 0, name="Website")
        s.add(campaign)
        s.flush()
        dids = [f"+1415555{n:04d}" for n in range(numbers)]
        for did in dids:
            s.add(Number(number=did, user_id=user.id, campaign_id=campaign.id, website_pool=True))
        s.add(DniPool(campaign_id=campaign.id or 0, user_id=user.id or 0, enabled=True))
        s.add(DniSite(user_id=user.id or 0, script_key="bench-key-0123456789abcdef", origins=[ORIGIN]))
        s.commit()
        return "bench-key-0123456789abcdef", campaign.id or 0, dids


async def assignments(
    base: str, key: str, campaign: int, rate: float, seconds: float
) -> tuple[list[float], int]:
    url = f"{base}/api/dni/{key}/assign"
    headers = {"Origin": ORIGIN, "User-Agent": AGENT, "Content-Type": "text/plain"}
    took: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def one(n: int) -> None:
            nonlocal errors
            body = orjson.dumps(
                {
                    "visitor_id": f"visitor-{n:08d}",
                    "pools": [campaign],
                    "page": f"{ORIGIN}/?utm_source=google&gclid=G{n}",
                }
            )
            started = time.perf_counter()
            try:
                answer = await client.post(url, content=body, headers=headers)
                ok = answer.status_code == 200 and answer.json()["data"]["swaps"]
            except httpx.HTTPError:
                ok = False
            took.append((time.perf_counter() - started) * 1000)
            errors += not ok

        for n in range(50):  # warm-up: connections open, the portal's pools warm
            await one(-n - 1)
        took.clear()
        tasks = []
        start = time.perf_counter()
        for n in range(int(rate * seconds)):
            delay = start + n / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(n)))
        await asyncio.gather(*tasks)
    return took, errors


async def matching(held: str, free: str, runs: int) -> tuple[list[float], list[float]]:
    from core.calls import visits
    from core.infra.redis_client import async_redis

    client = async_redis()
    now = datetime.now(UTC)
    try:
        found: list[float] = []
        nobody: list[float] = []
        for _ in range(50):
            await visits.holders_at(client, held, now)
        for _ in range(runs):
            started = time.perf_counter()
            match = visits.attribution_of(await visits.holders_at(client, held, now))
            found.append((time.perf_counter() - started) * 1000)
            assert match is not None
            started = time.perf_counter()
            visits.attribution_of(await visits.holders_at(client, free, now))
            nobody.append((time.perf_counter() - started) * 1000)
        return found, nobody
    finally:
        await client.aclose()


def in_process(key: str, campaign: int, runs: int) -> tuple[list[float], float]:
    """The assignment's own work (portal_api.services.dni_public.assign: the limits, the key's
    cached site, the Lua script), one at a time without HTTP: each one's time, and its CPU (ms)."""
    from portal_api.services import dni_public

    took = []
    cpu = time.process_time()
    for n in range(runs):
        body = orjson.dumps(
            {"visitor_id": f"inproc-{n:08d}", "pools": [campaign], "page": f"{ORIGIN}/?gclid=P{n}"}
        )
        started = time.perf_counter()
        dni_public.assign(key, ORIGIN, AGENT, "192.0.2.1", body)
        took.append((time.perf_counter() - started) * 1000)
    return took, (time.process_time() - cpu) * 1000 / runs


def hold(number: str, campaign: int, sessions: int) -> None:
    """`sessions` visitors on a pool of this one number (the last two reuse it)."""
    from core.calls import visits
    from core.infra.redis_client import get_redis

    now = datetime.now(UTC)
    for n in range(sessions):
        page = f"{ORIGIN}/landing?utm_source=google&utm_campaign=spring&gclid=M{n}"
        visit = visits.new_session(f"matcher-{n:04d}", 1, campaign + 1, 1_200_000, now, page, None)
        visits.assign(get_redis(), visit, [number], now)
        for p in range(5):
            visits.touch(get_redis(), visit.session_id, f"{ORIGIN}/page-{p}", now)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rate", type=float, default=200, help="assignments a second")
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--numbers", type=int, default=50, help="numbers in the pool")
    p.add_argument("--runs", type=int, default=2000, help="matches timed")
    p.add_argument("--workers", type=int, default=0, help="portal processes (0: as `make run` starts it)")
    args = p.parse_args()
    with throwaway_database(DATABASE_SERVER, "callroute_bench", REDIS_URL=REDIS):
        from core.infra.redis_client import get_redis
        from core.infra.settings import get_settings
        from portal_api.services.dni_public import SCRIPT
        from testkit.processes import api_server

        get_redis().flushdb()
        key, campaign, _ = seed(args.numbers)
        limits = {"DNI_MAX_PER_ADDRESS": "1000000", "DNI_MAX_PER_KEY": "1000000"}
        os.environ.update(limits)  # the in-process run below too
        get_settings.cache_clear()
        workers = args.workers or get_settings().portal_processes
        with api_server(workers=workers, **limits) as base:
            took, errors = asyncio.run(assignments(base, key, campaign, args.rate, args.seconds))
        own, cpu = in_process(key, campaign, args.runs)
        hold("+14155559990", campaign, 3)
        found, nobody = asyncio.run(matching("+14155559990", "+14155559991", args.runs))
    print(
        f"number assignment at {args.rate:.0f}/s for {args.seconds:.0f} s, pool of {args.numbers},"
        f" {workers} portal process(es):"
    )
    print("  " + summary("POST /api/dni/{key}/assign", took) + f" errors={errors}")
    print(
        "  " + summary("the assignment's own work, one at a time (no HTTP)", own) + f" cpu={cpu:.2f} ms each"
    )
    print("match in the routing decision (one Redis round trip + the attribution):")
    print("  " + summary("pool number, 3 holders, 6 pages each", found))
    print("  " + summary("number nobody held", nobody))
    print(f"script: {len(SCRIPT.read_bytes())} bytes, {len(gzip.compress(SCRIPT.read_bytes(), 9))} gzipped")


if __name__ == "__main__":
    main()
