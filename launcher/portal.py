"""How the portal's server is started, by `make run` and by the test kit's portal processes alike
(deploy/callroute.sh writes the same flags for the image)."""

import shutil
import sys
from pathlib import Path

WORKER_HEALTHCHECK_SECONDS = 90


def portal_argv(host: str, port: int, workers: int = 1) -> list[str]:
    """Uvicorn serving the portal on host:port with `workers` processes (uvicorn starts a dead one
    again). Its own access log is off (it prints query strings; portal_api.middleware.AccessLog
    writes the lines), and so is its X-Forwarded-For handling, which believes any loopback peer:
    the client's address is portal_api.client_address's, from TRUSTED_PROXIES. WebSocket messages
    go uncompressed: permessage-deflate compresses each live message once per socket (its state is
    the socket's own), and was half the portal's CPU with 200 Live Calls sockets open
    (docs/performance.md, "Live calls")."""
    argv = [
        sys.executable,
        "-m",
        "uvicorn",
        "portal_api.app:app",
        "--host",
        host,
        "--port",
        str(port),
        "--no-access-log",
        "--no-proxy-headers",
        "--ws-per-message-deflate",
        "false",
    ]
    if workers == 1:
        return argv
    # Uvicorn kills a worker that leaves its ping unanswered this long, and one that restarts and is
    # not serving by then: 5 s by default, which a busy machine exceeds (under bench/api.py at load
    # 26 a worker was replaced mid-run; importing the app there takes a minute).
    return [*argv, "--workers", str(workers), "--timeout-worker-healthcheck", str(WORKER_HEALTHCHECK_SECONDS)]


def empty_metrics_dir(path: Path) -> None:
    """Several processes write their metrics into `path` (PROMETHEUS_MULTIPROC_DIR), which must be
    empty as they start: a former run's files would be added to this one's (docs/operations.md)."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
