"""A portal run as several processes (`PORTAL_WORKERS`, deploy/callroute.sh: the image's own start)
reports every process's requests in one `/metrics`, whichever process answers the scrape
(prometheus_client's multiprocess mode, docs/operations.md)."""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from testkit.processes import REPO, free_port, serves, stop
from testkit.waiting import eventually

WORKERS = 2
ROUTE = "/health/live"


@pytest.fixture
def portal(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    metrics_dir = tmp_path / "metrics"
    port = free_port()
    env = {
        **os.environ,
        # The venv's uvicorn, as the image has its own on PATH.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "PORTAL_WORKERS": str(WORKERS),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    proc = subprocess.Popen(
        [str(REPO / "deploy" / "callroute.sh"), "portal"],
        cwd=REPO,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # Probed on another route than the one counted: a probe given up on may still be answered later.
        eventually(lambda: serves(f"{base}/metrics"), timeout=120, interval=0.2, what="the portal started")
        yield base, metrics_dir
    finally:
        stop(proc, group=True)


def _counted(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=5).text
    found = re.findall(
        rf'^callroute_http_request_seconds_count\{{[^}}]*route="{re.escape(ROUTE)}"[^}}]*\}} ([0-9.e+]+)$',
        text,
        re.M,
    )
    return sum(float(n) for n in found)


def test_every_process_s_requests_are_counted_in_one_scrape(portal: tuple[str, Path]) -> None:
    base, metrics_dir = portal
    before = _counted(base)
    sent = 0

    def answered_by_every_process() -> bool:
        nonlocal sent
        # A new connection each: the kernel spreads them over the processes listening together.
        for _ in range(10):
            assert httpx.get(f"{base}{ROUTE}", timeout=5).status_code == 200
            sent += 1
        writers = {p.stem.rsplit("_", 1)[1] for p in metrics_dir.glob("histogram_*.db")}
        assert len(writers) >= WORKERS, writers
        return True

    eventually(answered_by_every_process, timeout=60, interval=0.1, what="requests reach both processes")

    # Each scrape is answered by one process, yet it counts what all of them answered (a request is
    # counted as its answer leaves, so the last one may take a moment).
    def all_counted() -> None:
        assert _counted(base) == before + sent

    eventually(lambda: all_counted() or True, timeout=10, interval=0.2, what="every request counted")
