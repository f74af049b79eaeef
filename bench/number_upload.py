"""Benchmark: upload a numbers CSV through POST /api/number/vcr (one bad line in a hundred).

Runs on a throw-away database created on BENCH_DATABASE_URL's server (migrated, then dropped):

    .venv/bin/python -m bench.number_upload              (BENCH_ROWS lines; default: the row cap)
    BENCH_ROWS=200000 .venv/bin/python -m bench.number_upload   (over the cap: how fast the refusal is)

Prints the rows, the file's and the answer's size, the seconds, and the numbers stored.

Measured 2026-11-25 on the shared 2-core development machine (load average 14-18, so slow in
absolute terms; the ratios are the point), one bad line in a hundred:

| file | before (per-row INSERT, every line answered) | after (COPY, skipped lines only) |
|---|---|---|
| 10,000 lines | 12.6 s, answer 735 KB | 2.3 s, answer 13 KB |
| 100,000 lines (the cap) | 318 s, answer 7.4 MB | 60 s, answer 133 KB |
| 200,000 lines | (issue 19: 244 s, 14.9 MB) | refused whole in 5.3 s: 422, 175 bytes |

What is left of the time is phone-number validation (`phonenumbers`, one parse a line).
"""

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench import DATABASE_SERVER  # noqa: E402
from core.infra.settings import get_settings  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402

ROWS = int(os.environ.get("BENCH_ROWS") or get_settings().max_upload_rows)
HEADER = "number,country,vendor,setup_fee,monthly_fee"


def numbers_file(rows: int) -> bytes:
    """Distinct London numbers; every other line names the country; each 100th line is bad."""
    lines = [HEADER]
    for i in range(rows):
        if i % 100 == 99:
            lines.append(f"not-a-number-{i},GB,,0,0")
        else:
            lines.append(f"+44207{i:07d},{'GB' if i % 2 else ''},,0.50,1.25")
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    with throwaway_database(DATABASE_SERVER, "callroute_bench"):
        run()


def run() -> None:
    from fastapi.testclient import TestClient
    from sqlalchemy import func, select

    from core.infra.db import session_scope
    from core.models import Number
    from core.operations.seed import seed_countries
    from core.values.enums import Role
    from portal_api.app import create_app
    from testkit.actors import make_actor

    with session_scope() as session:
        seed_countries(session)
    admin = make_actor(Role.ADMIN, "Bench")

    content = numbers_file(ROWS)
    with TestClient(create_app()) as client:
        started = time.perf_counter()
        response = client.post(
            "/api/number/vcr",
            files={"file": ("numbers.csv", content, "text/csv")},
            headers=admin.headers,
        )
        seconds = time.perf_counter() - started
    with session_scope() as session:
        stored = session.scalar(select(func.count()).select_from(Number))
    print(
        f"rows={ROWS} file_bytes={len(content)} status={response.status_code} "
        f"answer_bytes={len(response.content)} seconds={seconds:.2f} stored={stored}"
    )
    if response.status_code != 201:
        print(f"answer: {response.json()['message']}")


if __name__ == "__main__":
    main()
