"""Prometheus metrics as every service exposes them, and the small HTTP server of the services that
have no HTTP port of their own (the bridge, the Celery worker): `/metrics`, `/health/live` and
`/health/ready` on a port of their own. Each service defines its metrics beside the code that
moves them; every name starts with `callroute_` (docs/operations.md lists them).
"""

import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)

from core.infra import health
from core.infra.settings import get_settings

log = logging.getLogger(__name__)

PREFIX = "callroute_"

# A `_created` series beside every counter and histogram doubles what is scraped for nothing the
# alerts or dashboards use.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated


def exposition() -> bytes:
    """This process's metrics in Prometheus' text format; in multiprocess mode (a portal running
    several worker processes, PROMETHEUS_MULTIPROC_DIR set) those of every process, added up."""
    path = get_settings().prometheus_multiproc_dir
    if not path:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    # Unannotated in prometheus_client; it registers itself with `registry`.
    multiprocess.MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


Ready = Callable[[], dict[str, str]]  # the readiness checks' outcomes (core.infra.health.run)


def serve(host: str, port: int, ready: Ready) -> ThreadingHTTPServer | None:
    """Serve metrics and health on `host:port` from a thread, until the process ends. None (and an
    error logged) when the port can't be had: the service runs on without them."""

    class Endpoints(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.partition("?")[0]
            if path == "/metrics":
                self._send(200, exposition(), CONTENT_TYPE_LATEST)
                return
            checks = {"/health/live": dict[str, str], "/health/ready": ready}.get(path)
            if checks is None:
                self._send(404, b'{"status": "not found"}', "application/json")
                return
            status, body = health.answer(checks())
            self._send(status, orjson.dumps(body), "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: Prometheus and the health checks ask every few seconds."""

    try:
        server = ThreadingHTTPServer((host, port), Endpoints)
    except OSError as exc:
        log.error("metrics and health not served on %s:%s: %s", host, port, exc)
        return None
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("metrics on http://%s:%s/metrics, health on /health/live and /health/ready", host, port)
    return server
