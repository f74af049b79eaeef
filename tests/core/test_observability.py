"""What Prometheus and an orchestrator ask the portal and the worker: /metrics, /health/live and
/health/ready, answered by the real processes; the bridge's without Asterisk here, after real calls
in tests/asterisk/test_observability.py."""

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import yaml
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest

import pbx_bridge.metrics  # noqa: F401  (registers the bridge's metrics, as the bridge does)
from core.models import User
from testkit import rows
from testkit.databases import drop_database, fresh_database
from testkit.processes import REPO, api_server, free_port, start_worker
from testkit.prometheus import sample
from testkit.waiting import eventually
from workers.metrics import StoreMetrics


def listening_on(port: int) -> set[str]:
    """The local addresses a TCP socket listens on `port` at (the kernel's table: state 0A)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


LOOPBACK = {"0100007F"}  # 127.0.0.1 as /proc/net/tcp writes it


def test_portal_answers_health_and_counts_requests_by_route(client: Any) -> None:
    live = client.get("/health/live")
    assert (live.status_code, live.json()) == (200, {"status": "ok", "checks": {}})
    ready = client.get("/health/ready")
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "redis": "ok", "migrations": "ok"}

    labels = {"route": "/api/user/id/{id}", "method": "GET", "status": "401"}

    def counted() -> float:
        page = client.get("/metrics")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
        return sample(page.text, "callroute_http_request_seconds_count", **labels) or 0.0

    # The registry is the process's: other tests' requests count too, so the test reads the change.
    before = counted()
    for user_id in (1, 2, 3):  # three paths, one route
        assert client.get(f"/api/user/id/{user_id}").status_code == 401
    assert counted() - before == 3


def test_portal_is_not_ready_while_redis_is_away_or_the_schema_behind(server_url: str) -> None:
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    unmigrated = fresh_database(server_url, f"callroute_unmigrated_{os.getpid()}")
    try:
        with api_server(REDIS_URL=nobody, DATABASE_URL=unmigrated) as base:
            ready = httpx.get(f"{base}/health/ready", timeout=10)
            live = httpx.get(f"{base}/health/live", timeout=10)
    finally:
        drop_database(server_url, f"callroute_unmigrated_{os.getpid()}")
    assert ready.status_code == 503, ready.text
    checks = ready.json()["checks"]
    assert ready.json()["status"] == "unavailable" and checks["database"] == "ok", checks
    assert "onnect" in checks["redis"] and "no revision" in checks["migrations"], checks
    assert live.status_code == 200  # up, only not ready: no reason to restart it


def test_worker_serves_what_the_alerts_read(tmp_path: Path) -> None:
    owner = rows.customer_id("10")
    rows.change(User, owner, balance=Decimal("-2.50"))
    ended_long_ago = datetime.now(UTC) - timedelta(minutes=10)
    rows.call(owner, 30, started_at=ended_long_ago - timedelta(seconds=35))  # ended, not rated yet
    port = free_port()
    worker = start_worker(str(tmp_path / "worker.log"), metrics_port=port)
    base = f"http://127.0.0.1:{port}"
    try:

        def scraped() -> str:
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            try:
                page = httpx.get(f"{base}/metrics", timeout=5).text
            except httpx.TransportError:
                return ""  # not listening yet
            return page if "callroute_calls_unrated" in page else ""

        page = eventually(scraped, timeout=40, what="the worker's metrics")
        assert httpx.get(f"{base}/health/live", timeout=5).status_code == 200
        ready = httpx.get(f"{base}/health/ready", timeout=5)
        assert (ready.status_code, ready.json()["checks"]) == (200, {"broker": "ok"})
        assert listening_on(port) == LOOPBACK, "unset WORKER_METRICS_HOST: loopback only"
    finally:
        worker.terminate()
        worker.wait(timeout=20)
    assert sample(page, "callroute_calls_unrated") == 1
    assert 600 <= (sample(page, "callroute_rating_lag_seconds") or 0) < 700
    assert sample(page, "callroute_wallets_below_zero") == 1
    assert sample(page, "callroute_ledger_postings_total", type="topup") == 1
    assert sample(page, "callroute_celery_queue_length") == 0
    assert sample(page, "callroute_numbers_active") == 0
    assert (sample(page, "callroute_last_call_age_seconds") or 0) >= 600


def test_bridge_is_live_but_not_ready_without_asterisk(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "bridge.log"
    nobody = {"ASTERISK_HTTP_PORT": str(free_port()), "ASTERISK_AMI_PORT": str(free_port())}
    env = {**os.environ, **nobody, "BRIDGE_METRICS_PORT": str(port)}
    env.pop("BRIDGE_METRICS_HOST", None)
    with log.open("wb") as out:
        bridge = subprocess.Popen(
            [sys.executable, "-m", "pbx_bridge"], cwd=REPO, env=env, stdout=out, stderr=out
        )
    base = f"http://127.0.0.1:{port}"
    try:

        def retried() -> str:
            assert bridge.poll() is None, log.read_text()
            try:
                page = httpx.get(f"{base}/metrics", timeout=5).text
            except httpx.TransportError:
                return ""  # not listening yet
            return page if (sample(page, "callroute_ari_reconnects_total") or 0) >= 1 else ""

        page = eventually(retried, timeout=30, what="the bridge retrying ARI")
        live = httpx.get(f"{base}/health/live", timeout=5)
        ready = httpx.get(f"{base}/health/ready", timeout=5)
        assert listening_on(port) == LOOPBACK, "unset BRIDGE_METRICS_HOST: loopback only"
    finally:
        bridge.terminate()
        bridge.wait(timeout=20)
    assert sample(page, "callroute_ari_connected") == 0
    assert live.status_code == 200
    assert ready.status_code == 503 and ready.json()["checks"]["ari"] != "ok", ready.text


def test_every_metric_the_alerts_read_is_exported() -> None:
    rules = yaml.safe_load((REPO / "deploy" / "prometheus" / "alerts.yml").read_text())
    read = {
        name
        for group in rules["groups"]
        for rule in group["rules"]
        for name in re.findall(r"callroute_\w+", json.dumps(rule))
    }
    rows.call(rows.customer_id(), 10)  # the age of the last call is exported once there is one
    worker = CollectorRegistry()
    worker.register(StoreMetrics())
    exported = generate_latest(REGISTRY).decode() + generate_latest(worker).decode()
    assert read and read <= set(re.findall(r"^(callroute_\w+)[ {]", exported, re.MULTILINE))
