"""Benchmark: import a 100,000-line rate card through POST /api/rate/import/{tariff_id}.

Runs on a throw-away database created on BENCH_DATABASE_URL's server (migrated, then dropped):

    .venv/bin/python -m bench.rate_import        (or: .venv/bin/python bench/rate_import.py)
"""

import os
import random
import sys
import time
from pathlib import Path

import phonenumbers
import pycountry

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402

ROWS = int(os.environ.get("BENCH_ROWS", "100000"))
HEADER = "prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from"


def rate_card(rows: int) -> bytes:
    """Distinct prefixes under real calling codes; every other line leaves the country to be inferred."""
    rng = random.Random(7)
    regions = sorted(r for r in phonenumbers.SUPPORTED_REGIONS if pycountry.countries.get(alpha_2=r))
    seen: set[str] = set()
    lines = [HEADER]
    while len(lines) <= rows:
        region = rng.choice(regions)
        prefix = f"{phonenumbers.country_code_for_region(region)}{rng.randrange(10**6)}"
        if prefix in seen:
            continue
        seen.add(prefix)
        country = region if len(lines) % 2 else ""
        lines.append(
            f"{prefix},{country},{rng.randrange(10**5) / 10**4:.4f},0.0000,60,6,0,2026-01-01T00:00:00Z"
        )
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    with throwaway_database(DATABASE_SERVER, "callroute_bench"):
        run()


def run() -> None:
    from fastapi.testclient import TestClient
    from sqlalchemy import func, select

    from core.infra.db import session_scope
    from core.models import Rate, Tariff
    from core.operations.seed import seed_countries
    from core.values.enums import Role
    from portal_api.app import create_app
    from testkit.actors import make_actor

    with session_scope() as session:
        seed_countries(session)
    admin = make_actor(Role.ADMIN, "Bench")
    with session_scope() as session:
        tariff = Tariff(name="Bench", currency="USD")
        session.add(tariff)
        session.flush()
        tariff_id = tariff.id

    card = rate_card(ROWS)
    with TestClient(create_app()) as client:
        started = time.perf_counter()
        response = client.post(
            f"/api/rate/import/{tariff_id}",
            files={"file": ("rates.csv", card, "text/csv")},
            headers=admin.headers,
        )
        seconds = time.perf_counter() - started
    if response.status_code != 200:
        raise SystemExit(f"import failed: {response.status_code} {response.text[:500]}")
    with session_scope() as session:
        stored = session.scalar(select(func.count()).select_from(Rate).where(Rate.tariff_id == tariff_id))
    assert stored == ROWS, stored
    print(f"rows={ROWS} bytes={len(card)} seconds={seconds:.2f} rows_per_s={ROWS / seconds:,.0f}")


if __name__ == "__main__":
    main()
