"""The product's processes started for a test: the API as a real server, a Celery worker."""

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx

from testkit.waiting import eventually

REPO = Path(__file__).resolve().parent.parent


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    """A port the kernel reports free on 127.0.0.1 for `kind` (TCP/UDP)."""
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serves(url: str, auth: tuple[str, str] | None = None) -> bool:
    """Whether `url` answers 200 now."""
    try:
        return httpx.get(url, auth=auth, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def api_server(**env: str) -> Iterator[str]:
    """The API as a real uvicorn process on a free port (for browsers and real WebSockets)."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "portal_api.app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--timeout-graceful-shutdown",
            "3",
        ],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        eventually(lambda: serves(f"{base}/docs"), timeout=60, interval=0.1, what="the API started")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_worker(log: str, metrics_port: int | None = None) -> subprocess.Popen[bytes]:
    """A real Celery worker (its own process group, so a test can kill all of it), serving its
    metrics and health on `metrics_port` (a free port if not given: never another run's)."""
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.app",
        "worker",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
    ]
    with open(log, "ab") as out:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            env={**os.environ, "WORKER_METRICS_PORT": str(metrics_port or free_port())},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
