"""The README's run command, as a newcomer types it: `make run` with nothing configured.

It must start embedded PostgreSQL and Redis, serve the API and /docs on one port, stop cleanly
on Ctrl-C, and keep its data across a restart.
"""

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import uuid
from pathlib import Path

import httpx
import psutil
import psycopg
import pytest

from asterisk_config import runtime
from asterisk_config.kamailio.config import KamailioSettings
from asterisk_config.kamailio.runtime import answers
from asterisk_config.settings import AsteriskSettings
from core.infra.settings import settings_from
from core.pbx.nodes import node_of
from launcher.nodes import PORT_STEP, node_env
from testkit.asterisk import AsteriskUnderTest
from testkit.nodes import carriers_loaded
from testkit.processes import REPO, free_port, serves
from testkit.sipp import call
from testkit.waiting import eventually

# A request's wait for its answer: on a loaded machine the portal's first ones (one process per
# core still starting beside it, a password hashed with argon2) take longer than httpx's 5 s.
TIMEOUT = 30

pytestmark = pytest.mark.slow


def _start(data_dir: Path, port: int, log: Path, asterisk: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "ENVIRONMENT")}
    env.update(
        DATA_DIR=str(data_dir),
        PORT=str(port),
        ADMIN_EMAIL="boss@example.com",
        ADMIN_PASSWORD="first-admin-1",
        **asterisk,
    )
    return subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=REPO,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _wait_up(base: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 240) -> None:
    def up() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"make run exited early:\n{log.read_text()[-3000:]}")
        return serves(f"{base}/docs")

    eventually(up, timeout, interval=0.5, what=lambda: f"make run serving\n{log.read_text()[-3000:]}")


def _ctrl_c(proc: subprocess.Popen[bytes]) -> int:
    os.killpg(proc.pid, signal.SIGINT)
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("make run did not stop within 60 s of Ctrl-C")


def _assert_nothing_left(data_dir: Path) -> None:
    """No process of the run (each names its `data_dir`) outlives its Ctrl-C."""
    leftovers = [
        p.info["cmdline"]
        for p in psutil.process_iter(["cmdline"])
        if str(data_dir) in " ".join(p.info["cmdline"] or [])
    ]
    assert leftovers == [], f"processes left running after Ctrl-C: {leftovers}"


def _asterisk_env(data_dir: Path) -> dict[str, str]:
    """Free ports and a private instance, so the product's Asterisk can't collide with anything."""
    sip = free_port(socket.SOCK_DGRAM)
    rtp = 30000 + (os.getpid() % 1000) * 2
    return {
        "ASTERISK_HTTP_PORT": str(free_port()),
        "ASTERISK_AMI_PORT": str(free_port()),
        "ASTERISK_SIP_PORT": str(sip),
        "ASTERISK_RTP_START": str(rtp),
        "ASTERISK_RTP_END": str(rtp + 100),
        "ASTERISK_INSTANCE": data_dir.name,
        "ARI_USER": "runtest",
        "ARI_PASSWORD": uuid.uuid4().hex,
    }


def _place_call(sipp: str, asterisk: dict[str, str], did: str, workdir: Path) -> str:
    """One carrier call to `did` (sipp) into the product's Asterisk; sipp's log."""
    settings = AsteriskSettings.from_env({**os.environ, **asterisk})
    pid = runtime.running_pid(settings)
    assert pid is not None
    ast = AsteriskUnderTest(settings, runtime.AsteriskProcess(pid, settings, {}))
    return asyncio.run(call(sipp, ast, did, "+15559876543", workdir, talk_ms=1000))


def _rows_about(data_dir: Path, did: str, timeout: float = 10) -> tuple[str, str]:
    """The call row's disposition and linkedid for `did` once final (ended) and Asterisk's event log
    has that call. Asterisk logs the hang-up as the bridge writes the final row: either may come first."""
    with psycopg.connect(_database(data_dir), autocommit=True) as conn:

        def both() -> tuple[str, str]:
            row = conn.execute(
                "SELECT disposition, linkedid FROM call WHERE did = %s AND ended_at IS NOT NULL", (did,)
            ).fetchone()
            logged = (
                row is not None
                and conn.execute(
                    "SELECT 1 FROM cel WHERE linkedid = %s AND eventtype = 'HANGUP'", (row[1],)
                ).fetchone()
            )
            assert row is not None and logged, f"final row {row}, hang-up logged by Asterisk: {bool(logged)}"
            return (row[0], row[1])

        return eventually(both, timeout, interval=0.3)


def _stasis_app_registered(asterisk: dict[str, str], auth: tuple[str, str] | None = None) -> bool:
    url = f"http://127.0.0.1:{asterisk['ASTERISK_HTTP_PORT']}/ari/applications/callroute"
    return serves(url, auth=auth or (asterisk["ARI_USER"], asterisk["ARI_PASSWORD"]))


def _database(data_dir: Path) -> str:
    """The embedded PostgreSQL's URL (its socket directory and port, from its pid file)."""
    lines = (data_dir / "postgres" / "postmaster.pid").read_text().splitlines()
    return f"postgresql://postgres@/callroute?host={lines[4]}&port={lines[3]}"


def _node_login(data_dir: Path, node_id: str) -> tuple[str, str]:
    """The ARI login the node's Asterisk was provisioned with (docs/scale.md)."""
    with psycopg.connect(_database(data_dir), autocommit=True) as conn:
        row = conn.execute("SELECT ari_user, ari_password FROM pbx_node_login WHERE node_id = %s", (node_id,))
        found = row.fetchone()
    assert found is not None, f"no ARI login stored for {node_id}"
    return (str(found[0]), str(found[1]))


def test_make_run_serves_signs_in_stops_and_keeps_data(data_dir: Path, sipp_binary: str) -> None:
    port, log = free_port(), data_dir / "run.log"
    base = f"http://127.0.0.1:{port}"
    asterisk = _asterisk_env(data_dir)

    proc = _start(data_dir, port, log, asterisk)
    try:
        _wait_up(base, proc, log)
        login = httpx.post(
            f"{base}/api/login",
            json={"email": "boss@example.com", "password": "first-admin-1"},
            timeout=TIMEOUT,
        )
        assert login.status_code == 200, login.text
        assert login.json()["data"]["user"]["role_name"] == "Admin"
        headers = {"Authorization": f"Bearer {login.json()['data']['token']}"}
        created = httpx.post(
            f"{base}/api/user/add",
            headers=headers,
            json={"name": "Kept", "email": "kept@example.com", "password": "keptpass1"},
            timeout=TIMEOUT,
        )
        assert created.status_code == 201
        # Asterisk and the bridge start too on a machine that can run them (CI can: root, debootstrap).
        eventually(
            lambda: _stasis_app_registered(asterisk),
            timeout=120,
            interval=0.5,
            what=lambda: f"the bridge registered\n{log.read_text()[-3000:]}",
        )
        # A call comes in: the bridge writes its row, and Asterisk its own record of it, into the
        # embedded database (reached from the chroot through the bind-mounted socket).
        did = "+442079460000"
        said = _place_call(sipp_binary, asterisk, did, data_dir)  # "not in service" as early media, then 404
        assert "early_media=183" in said and "final=SIP/2.0 404" in said, said
        assert _rows_about(data_dir, did)[0] == "NO_ROUTE", log.read_text()[-3000:]
        paths = httpx.get(f"{base}/openapi.json", timeout=TIMEOUT).json()["paths"]
        assert {"/api/login", "/api/logout", "/api/user/details", "/api/user/impersonate/{id}"} <= set(paths)
    finally:
        code = _ctrl_c(proc)
    _assert_nothing_left(data_dir)
    assert not _stasis_app_registered(asterisk), "Asterisk still answers after Ctrl-C"
    # make itself may die of the SIGINT (-2) or report it (2, 130); what matters is the clean stop.
    assert code in (0, 2, 130, -signal.SIGINT), log.read_text()[-2000:]
    assert "stopped" in log.read_text()

    proc = _start(data_dir, port, log, asterisk)
    try:
        _wait_up(base, proc, log)
        again = httpx.post(
            f"{base}/api/login", json={"email": "kept@example.com", "password": "keptpass1"}, timeout=TIMEOUT
        )
        assert again.status_code == 200, "data did not survive the restart"
    finally:
        _ctrl_c(proc)
    # The first admin is created once, not again on the second start.
    assert log.read_text().count("First admin:") == 1


def _free_with_nodes(kind: int, nodes: int) -> int:
    """A port free for the single node whose shifted copies (launcher.nodes) are free too."""
    while True:
        base = free_port(kind)
        try:
            with contextlib.ExitStack() as held:
                for index in range(1, nodes + 1):
                    sock = held.enter_context(socket.socket(socket.AF_INET, kind))
                    sock.bind(("127.0.0.1", base + PORT_STEP * index))
            return base
        except OSError:
            continue


def test_make_run_with_nodes_2_starts_two_nodes_behind_kamailio(
    data_dir: Path, sipp_binary: str, kamailio_binary: str
) -> None:
    """NODES=2: two Asterisk + bridge nodes and Kamailio in front; a carrier's calls (its inbound trunk
    saved in the portal) are spread over both nodes, each row naming its node; Ctrl-C stops it all."""
    port, log = free_port(), data_dir / "run.log"
    base = f"http://127.0.0.1:{port}"
    kamailio_port = free_port(socket.SOCK_DGRAM)
    asterisk = _asterisk_env(data_dir) | {
        "NODES": "2",
        "KAMAILIO_SIP_PORT": str(kamailio_port),
        "ASTERISK_SIP_PORT": str(_free_with_nodes(socket.SOCK_DGRAM, 2)),
        "ASTERISK_HTTP_PORT": str(_free_with_nodes(socket.SOCK_STREAM, 2)),
        "ASTERISK_AMI_PORT": str(_free_with_nodes(socket.SOCK_STREAM, 2)),
        "BRIDGE_METRICS_PORT": str(_free_with_nodes(socket.SOCK_STREAM, 2)),
    }
    nodes = [node_env(settings_from(asterisk), index) for index in (1, 2)]
    proc = _start(data_dir, port, log, asterisk)
    try:
        _wait_up(base, proc, log)
        for node in nodes:  # each with its own ARI login, which its bridge found in the database
            eventually(
                lambda node=node: _stasis_app_registered(
                    {**asterisk, **node}, _node_login(data_dir, node["NODE_ID"])
                ),
                timeout=120,
                interval=0.5,
                what=lambda: f"both bridges registered\n{log.read_text()[-3000:]}",
            )
        logins = [_node_login(data_dir, node["NODE_ID"]) for node in nodes]
        assert len({password for _, password in logins}) == 2
        assert not _stasis_app_registered({**asterisk, **nodes[0]})  # ARI_PASSWORD opens no node
        proxy = KamailioSettings.of(settings_from({**asterisk, "DATA_DIR": str(data_dir)}))
        eventually(lambda: answers(proxy), timeout=60, what=lambda: f"Kamailio up\n{log.read_text()[-3000:]}")
        with httpx.Client(base_url=base, timeout=TIMEOUT) as slow:
            login = slow.post("/api/login", json={"email": "boss@example.com", "password": "first-admin-1"})
            headers = {"Authorization": f"Bearer {login.json()['data']['token']}"}
            trunk = {"name": "Carrier", "direction": "inbound", "host": "127.0.0.1", "port": 5060}
            saved = slow.post("/api/trunk/add", headers=headers, json=trunk)
        assert saved.status_code == 201, saved.text
        eventually(lambda: carriers_loaded(proxy, "127.0.0.1"), what="the carrier let in")
        first = AsteriskSettings.from_env({**os.environ, **asterisk, **nodes[0]})
        ast = AsteriskUnderTest(first, runtime.AsteriskProcess(0, first, {}))
        dids = ["+442079460001", "+442079460002"]
        for did in dids:  # no such number: each call is refused on the node Kamailio chose
            said = asyncio.run(
                call(sipp_binary, ast, did, "+15559876543", data_dir, talk_ms=1000, port=kamailio_port)
            )
            assert "final=SIP/2.0 404" in said, said
        linkedids = [_rows_about(data_dir, did)[1] for did in dids]
        assert sorted(node_of(linkedid) for linkedid in linkedids) == ["n1", "n2"], linkedids
    finally:
        code = _ctrl_c(proc)
    _assert_nothing_left(data_dir)
    assert code in (0, 2, 130, -signal.SIGINT), log.read_text()[-2000:]
