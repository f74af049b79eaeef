"""The whole Python suite as two pytest runs side by side: the real-call tests (Asterisk, sipp, the
compose stack), which mostly wait on calls talking and containers starting, beside everything else,
which mostly wants the CPU. Each run has its own database (per process) and its own Redis database
or embedded engines, so they never meet; together they take the time of the longer one.

`python -m testkit.suite [pytest args]`; exits non-zero when either run fails. Each run's output
is written to `.test-data/<run>.log` and printed once it ended.
"""

import os
import re
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CALLS = ["tests/asterisk", "tests/deploy"]
# The rest runs a little behind the calls: a real call's timers (a SIP answer within the proxy's
# timeout, RTP every 20 ms) suffer when both want the only two cores; the rest only takes longer.
REST_NICENESS = 5


def _own_redis(url: str) -> str:
    """The same Redis server, the database next to `url`'s (15 → 14, none or 0 → 1): the calls
    run's own."""
    found = re.fullmatch(r"(redis://[^/]+)(?:/(\d+))?/?", url)
    assert found, f"TEST_REDIS_URL is not redis://host:port[/db]: {url}"
    db = int(found[2] or 0)
    return f"{found[1]}/{db - 1 if db else 1}"


def main(args: list[str]) -> int:
    logs = REPO / ".test-data"
    logs.mkdir(exist_ok=True)
    calls_env = {**os.environ, "TEST_DATA_DIR": str(logs / "calls")}
    if os.environ.get("TEST_REDIS_URL"):
        calls_env["TEST_REDIS_URL"] = _own_redis(os.environ["TEST_REDIS_URL"])
    pytest = [sys.executable, "-m", "pytest", "-q", *args]
    ignore = [f"--ignore={path}" for path in CALLS]
    runs = {
        name: subprocess.Popen(
            [*pytest, *paths],
            cwd=REPO,
            env=env,
            stdout=(logs / f"{name}.log").open("wb"),
            stderr=subprocess.STDOUT,
            preexec_fn=partial(os.nice, niceness) if niceness else None,
        )
        for name, paths, env, niceness in (
            ("calls", CALLS, calls_env, 0),
            ("rest", ignore, dict(os.environ), REST_NICENESS),
        )
    }
    started = time.monotonic()
    failed = False
    for name, proc in runs.items():
        code = proc.wait()
        minutes = (time.monotonic() - started) / 60
        print(f"\n===== {name}: exit {code}, {minutes:.1f} min in =====", flush=True)
        sys.stdout.write((logs / f"{name}.log").read_text(errors="replace"))
        sys.stdout.flush()
        failed |= code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
