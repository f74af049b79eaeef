"""Benchmark: every screen's time to content in Chromium, per role, cold and in-app (bench/pages.mjs).

    make web && .venv/bin/python -m bench.pages                 # 100,000 calls, a throw-away database
    .venv/bin/python -m bench.pages --keep bench_pages          # seed once, reuse it next time
    .venv/bin/python -m bench.pages --calls 1000000 -- RUNS=10  # more calls; env for pages.mjs after --

Seeds calls as bench/reports.py does (50 customers, the biggest with a quarter of the calls, 12
months), serves the API with the built UI (web/dist) and runs `node bench/pages.mjs` as the admin,
the biggest customer and one of its buyers; pages.mjs prints the table.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench.reports import seeded_database  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--keep", metavar="NAME", help="seed database NAME once and keep it (reused when seeded)")
    ap.add_argument("env", nargs="*", help="NAME=value for pages.mjs (RUNS, COLD_RUNS, ONLY)")
    args = ap.parse_args()
    if not (REPO / "web" / "dist" / "index.html").is_file():
        sys.exit("web/dist is missing: run `make web` first")

    from testkit.actors import PASSWORD
    from testkit.processes import api_server

    with seeded_database(args.keep or f"callroute_bench_pages_{os.getpid()}", bool(args.keep), args.calls):
        env = {
            **os.environ,
            "PASSWORD": PASSWORD,
            # bench.reports' sign-ins: the admin, the biggest customer, one of its buyers.
            "ADMIN_EMAIL": "bench.admin@example.com",
            "CUSTOMER_EMAIL": "customer.00@example.com",
            "BUYER_EMAIL": "buyer.00-0@example.com",
            **dict(pair.split("=", 1) for pair in args.env),
        }
        with api_server(WEB_DIST=str(REPO / "web" / "dist")) as base:
            pages = [os.environ.get("NODE", "node"), str(REPO / "bench" / "pages.mjs")]
            subprocess.run(pages, env={**env, "BASE_URL": base}, check=True)


if __name__ == "__main__":
    main()
