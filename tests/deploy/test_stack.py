"""The container deployment (deploy/), as an operator runs it: the images built (with the build
cache), the compose stack up and healthy, a customer's whole set-up made through the portal's API on
the stack's own port, a real call from a carrier (sipp on the host) through the containerised
Asterisk to a buyer's target (sipp too), its row, its debit and the bridge's metric; then the bridge
container restarted in the middle of a call without losing that call's row; then everything removed.

Where no image registry answers (this CI), the Debian bases are made locally and PostgreSQL and
Redis come from compose.local.yml. Timings and image sizes are printed (`-s` shows them)."""

import asyncio
import os
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import yaml

from asterisk_config.settings import AsteriskSettings
from testkit.asterisk import AsteriskUnderTest, trunk_pushed
from testkit.containers import DEPLOY, Stack, ensure_base_images, image_size_mb, running_stack
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually, eventually_async

# A cold build (no cache: apt, npm, pip) takes minutes; the warm run stays within a few.
pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.timeout(1800)]

SERVICES = [
    "postgres",
    "redis",
    "portal",
    "worker",
    "transcriber",
    "beat",
    "asterisk",
    "bridge",
    "prometheus",
]
# What Prometheus (profile `monitoring`) scrapes: every service that serves metrics, and itself.
SCRAPED = {"portal", "bridge", "worker", "asterisk", "prometheus"}
DID, CALLER, DESTINATION = "+442071838751", "+15559876543", "+14155550199"
STARTING_BALANCE = Decimal("10")


@pytest.fixture(scope="module")
def stack(docker_engine: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    workdir = tmp_path_factory.mktemp("stack")
    ensure_base_images()
    with running_stack(workdir, SERVICES, profiles=("monitoring",)) as running:
        sizes = {i: image_size_mb(f"{i}:test") for i in ("callroute", "callroute-asterisk")}
        print(f"\nstack timings (s): {running.timings}; image sizes (MB): {sizes}")
        yield running


def _url(stack: Stack, port_setting: str, path: str) -> str:
    return f"http://127.0.0.1:{stack.env[port_setting]}{path}"


def _the_stacks_asterisk(stack: Stack) -> AsteriskUnderTest:
    """The containerised Asterisk, as the test kit's sipp and ARI helpers address one (its ports and
    credentials); its process is the container's, not one of ours."""
    settings = AsteriskSettings.from_env({**os.environ, **stack.env, "ASTERISK_CHROOT": "/"})
    return AsteriskUnderTest(settings, process=None)  # type: ignore[arg-type]


class Api:
    """The portal's API on the stack's published port, signed in."""

    def __init__(self, stack: Stack, email: str, password: str) -> None:
        self.http = httpx.Client(base_url=_url(stack, "PORTAL_PORT", "/api"), timeout=15)
        login = self.http.post("/login", json={"email": email, "password": password})
        assert login.status_code == 200, login.text
        self.http.headers["Authorization"] = f"Bearer {login.json()['data']['token']}"

    def send(self, method: str, path: str, body: dict[str, Any]) -> Any:
        r = self.http.request(method, path, json=body)
        assert r.is_success, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()["data"]

    def get(self, path: str) -> Any:
        r = self.http.get(path)
        assert r.is_success, f"GET {path}: {r.status_code} {r.text}"
        return r.json()["data"]


def _set_up_a_customer(api: Api, target_port: int) -> dict[str, int]:
    """Everything a call is routed and billed by, made the way an operator makes it."""
    tariff = api.send("POST", "/tariff/add", {"name": "Stack retail", "currency": "USD"})
    api.send("POST", "/rate/add", {"tariff_id": tariff["id"], "prefix": "1", "rate_per_minute": "0.60"})
    customer = api.send(
        "POST",
        "/user/add",
        {
            "name": "Stack Co",
            "email": "co@example.com",
            "password": "stack-pass-1",
            "tariff_id": tariff["id"],
        },
    )
    api.send(
        "POST",
        "/topup/add",
        {"user_id": customer["id"], "amount": str(STARTING_BALANCE), "reference": "stack-1"},
    )
    trunk = api.send(
        "POST",
        "/trunk/add",
        {"name": "buyer-desk", "direction": "outbound", "host": "127.0.0.1", "port": target_port},
    )
    number = api.send("POST", "/number/add", {"number": DID})
    api.send("POST", "/number/give", {"user_id": customer["id"], "number_ids": [number["id"]]})
    campaign = api.send(
        "POST", "/campaign/add", {"name": "Stack calls", "user_id": customer["id"], "record": True}
    )
    buyer = api.send(
        "POST",
        "/buyer/add",
        {
            "name": "Stack buyer",
            "email": "buyer@example.com",
            "password": "buyer-pass-1",
            "user_id": customer["id"],
        },
    )
    target = api.send(
        "POST",
        "/target/add",
        {"buyer_id": buyer["id"], "name": "Desk", "destination": DESTINATION, "trunk_id": trunk["id"]},
    )
    api.send("POST", "/camp/add", {"campaign_id": campaign["id"], "targets": [{"target_id": target["id"]}]})
    api.send("PUT", f"/number/{number['id']}", {"campaign_id": campaign["id"]})
    return {
        "customer": customer["id"],
        "trunk": trunk["id"],
        "campaign": campaign["id"],
        "target": target["id"],
    }


def _rows(stack: Stack) -> list[tuple[Any, ...]]:
    e = stack.env
    url = f"postgresql://callroute:{e['POSTGRES_PASSWORD']}@127.0.0.1:{e['POSTGRES_HOST_PORT']}/callroute"
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT linkedid, disposition, talk_seconds, ended_at, hangup_by, target_id, rating_status, cost"
            " FROM call WHERE did = %s ORDER BY id",
            (DID,),
        ).fetchall()


def _answered_count(stack: Stack) -> float:
    text = httpx.get(_url(stack, "BRIDGE_METRICS_PORT", "/metrics"), timeout=5).text
    found = re.search(r'^callroute_calls_total\{[^}]*disposition="ANSWERED"[^}]*\} ([0-9.e+]+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def test_health_endpoints_answer_on_the_stacks_ports(stack: Stack) -> None:
    for setting, path in (
        ("PORTAL_PORT", "/health/live"),
        ("PORTAL_PORT", "/health/ready"),
        ("BRIDGE_METRICS_PORT", "/health/live"),
        ("BRIDGE_METRICS_PORT", "/health/ready"),
        ("WORKER_METRICS_HOST_PORT", "/health/live"),
    ):
        r = httpx.get(_url(stack, setting, path), timeout=5)
        assert r.status_code == 200, (setting, path, r.status_code, r.text)
    for setting in ("PORTAL_PORT", "BRIDGE_METRICS_PORT", "WORKER_METRICS_HOST_PORT"):
        assert "# TYPE" in httpx.get(_url(stack, setting, "/metrics"), timeout=5).text, setting
    # Asterisk's own figures (res_prometheus), on its loopback HTTP server.
    ast = httpx.get(_url(stack, "ASTERISK_HTTP_PORT", "/metrics"), timeout=5)
    assert ast.status_code == 200 and "asterisk_core_uptime_seconds" in ast.text, ast.text[:500]


def test_prometheus_scrapes_every_service_on_the_stacks_ports(stack: Stack) -> None:
    """deploy/prometheus/prometheus.yml as compose renders it from the stack's own .env ports: every
    job's target up (scraped, answering metrics), and the alert rules loaded."""
    prometheus = _url(stack, "PROMETHEUS_PORT", "/api/v1")

    def all_up() -> dict[str, str]:
        targets = httpx.get(f"{prometheus}/targets", timeout=5).json()["data"]["activeTargets"]
        health = {t["labels"]["job"]: t["health"] for t in targets}
        assert set(health) == SCRAPED and set(health.values()) == {"up"}, targets
        return health

    eventually(all_up, 60, interval=1, what=lambda: stack.logs("prometheus"))
    # The same through a query, as a dashboard or an alert reads it.
    found = httpx.get(f"{prometheus}/query", params={"query": "up"}, timeout=5).json()["data"]["result"]
    assert {r["metric"]["job"]: r["value"][1] for r in found} == dict.fromkeys(SCRAPED, "1")
    groups = httpx.get(f"{prometheus}/rules", timeout=5).json()["data"]["groups"]
    loaded = {r["name"] for g in groups for r in g["rules"]}
    written = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())["groups"]
    assert loaded == {r["alert"] for g in written for r in g["rules"]}, loaded


async def test_a_call_through_the_stack_is_recorded_billed_counted_and_survives_a_bridge_restart(
    stack: Stack, sipp_binary: str, tmp_path: Path
) -> None:
    admin = Api(stack, stack.env["ADMIN_EMAIL"], stack.env["ADMIN_PASSWORD"])
    ast = _the_stacks_asterisk(stack)
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        ids = _set_up_a_customer(admin, target.port)
        await eventually_async(
            lambda: trunk_pushed(ast, ids["trunk"], target.port), 30, what="the trunk pushed"
        )

        said = await call(sipp_binary, ast, DID, CALLER, tmp_path, talk_ms=2000)
        assert "final=SIP/2.0 200" in said, said + stack.logs("bridge", "asterisk")
        ((_, disposition, talk, ended, by, target_id, *_),) = eventually(_rows_complete(stack, 1), 20)
        assert (disposition, by, target_id) == ("ANSWERED", "caller", ids["target"])
        assert 1 <= talk <= 4 and ended is not None
        # Rated by the worker: the customer's wallet is debited, on the API as on the row.
        rated = eventually(lambda: _rated(stack, 0), 60, interval=0.5, what=lambda: stack.logs("worker"))
        (balance,) = admin.get(f"/user/balance/{ids['customer']}")
        assert Decimal(str(balance["balance"])) == STARTING_BALANCE - rated
        assert _answered_count(stack) >= 1
        # Recorded by Asterisk into the shared volume, heard through the portal.
        (row_id,) = [c["id"] for c in admin.get("/report")["data"] if c["did"] == DID]
        wav = admin.http.get(f"/report/recording/{row_id}")
        assert wav.status_code == 200 and wav.content.startswith(b"RIFF"), (wav.status_code, wav.text[:300])

        # The bridge restarted (an upgrade) while a call talks: the call goes on in the dialplan and
        # its row is still completed, by the bridge that comes back.
        talking = asyncio.create_task(call(sipp_binary, ast, DID, CALLER, tmp_path, talk_ms=12000))
        await eventually_async(lambda: _connected(admin), 20, interval=0.2, what="the second call connected")
        await asyncio.to_thread(stack.timed, "bridge restart", "restart", "bridge")
        said = await asyncio.wait_for(talking, 60)
    assert "final=SIP/2.0 200" in said and "ended_by=caller" in said, said
    rows = eventually(_rows_complete(stack, 2), 60, interval=0.5, what=lambda: stack.logs("bridge"))
    _, disposition, talk, ended, by, target_id, *_ = rows[1]
    assert (disposition, by, target_id) == ("ANSWERED", "caller", ids["target"]), rows[1]
    assert 10 <= talk <= 14 and ended is not None, rows[1]
    eventually(lambda: _rated(stack, 1), 60, interval=0.5, what=lambda: stack.logs("worker"))
    print(f"\nstack timings (s): {stack.timings}")


def _rows_complete(stack: Stack, count: int) -> Any:
    def complete() -> list[tuple[Any, ...]]:
        rows = _rows(stack)
        assert len(rows) == count and all(r[3] is not None for r in rows), rows
        return rows

    return complete


def _rated(stack: Stack, index: int) -> Decimal:
    rows = _rows(stack)
    assert rows[index][6] == "rated" and rows[index][7] > 0, rows[index]
    return Decimal(rows[index][7])


def _connected(api: Api) -> bool:
    live = api.get("/live")["livecalls"]
    return any(c.get("state") == "connected" for c in live)
