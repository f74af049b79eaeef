"""A real, private Asterisk for tests and benchmarks, the bridge against it, a plan to call, and
what the bridge makes of the calls (their rows, the live view).

A test instance gets random free loopback ports, random credentials and its
own instance directories in the shared chroot, so it never collides with a
developer's Asterisk or another test run.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from sqlmodel import select

from asterisk_config import chroot, runtime
from asterisk_config.chroot import Log
from asterisk_config.errors import ProvisionError
from asterisk_config.settings import AsteriskSettings
from core.billing.wallet import post
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import Buyer, Call, Campaign, CampaignTarget, Number, Target, Trunk, User
from core.pbx.pbx_commands import announce_trunk_change
from core.values.enums import TransactionType
from core.values.passwords import hash_password
from testkit.processes import RECEIVERS_ENV, REPO, free_port, stop
from testkit.waiting import eventually, eventually_async


def make_test_settings(base_env: Mapping[str, str] | None = None, node_id: str = "") -> AsteriskSettings:
    """Settings for a throw-away instance; only chroot, mirror and database come from ``base_env``
    (and the node id, for one of several nodes)."""
    base = os.environ if base_env is None else base_env
    tcp: set[int] = set()
    while len(tcp) < 2:
        tcp.add(free_port())
    http_port, ami_port = sorted(tcp)
    sip_port = free_port(socket.SOCK_DGRAM)
    while sip_port in tcp:
        sip_port = free_port(socket.SOCK_DGRAM)
    # RTP clashes are harmless (Asterisk skips busy ports); a random small
    # range keeps parallel runs apart anyway.
    rtp_start = random.randrange(20000, 29000, 2)
    env = {
        "ASTERISK_CHROOT": base.get("ASTERISK_CHROOT", ""),
        "ASTERISK_DEBIAN_MIRROR": base.get("ASTERISK_DEBIAN_MIRROR", ""),
        "ASTERISK_INSTANCE": f"test-{os.getpid()}-{secrets.token_hex(3)}",
        "ASTERISK_HTTP_PORT": str(http_port),
        "ASTERISK_AMI_PORT": str(ami_port),
        "ASTERISK_SIP_PORT": str(sip_port),
        "ASTERISK_RTP_START": str(rtp_start),
        "ASTERISK_RTP_END": str(rtp_start + 200),
        "ARI_USER": f"ari_{secrets.token_hex(4)}",
        "ARI_PASSWORD": secrets.token_urlsafe(24),
        "AMI_USER": f"ami_{secrets.token_hex(4)}",
        "AMI_SECRET": secrets.token_urlsafe(24),
        "STASIS_APP": base.get("STASIS_APP", "callroute"),
        # Asterisk writes its channel event log into the database of the product under test.
        "DATABASE_URL": base.get("DATABASE_URL", ""),
        "ASTERISK_PG_DSN": base.get("ASTERISK_PG_DSN", ""),
        "NODE_ID": node_id,
    }
    return AsteriskSettings.from_env(env)


@dataclass(frozen=True)
class AsteriskUnderTest:
    settings: AsteriskSettings
    process: runtime.AsteriskProcess

    @property
    def ari_auth(self) -> tuple[str, str]:
        return self.settings.ari_user, self.settings.ari_password

    def events_url(self, app: str | None = None) -> str:
        """ARI event websocket URL registering Stasis app ``app``."""
        s = self.settings
        api_key = quote(f"{s.ari_user}:{s.ari_password}", safe=":")
        return (
            f"ws://127.0.0.1:{s.http_port}/ari/events?app={quote(app or s.stasis_app)}"
            f"&api_key={api_key}&subscribeAll=false"
        )


def journal_dir(settings: AsteriskSettings) -> Path:
    """Where the bridges of this test Asterisk keep their outage journal (pbx_bridge.journal)."""
    return Path(tempfile.gettempdir()) / "callroute-journal" / settings.instance


@contextlib.contextmanager
def running_test_instance(
    settings: AsteriskSettings | None = None,
    log: Log = print,
    keep_logs_in: Path | None = None,
) -> Iterator[AsteriskUnderTest]:
    """Build the chroot if needed, start a private instance, stop and remove it after.

    Raises errors.Unavailable where Asterisk cannot run (not root, ...).
    """
    settings = settings or make_test_settings()
    chroot.build_chroot(settings, log)
    process = runtime.start(settings, log)
    try:
        yield AsteriskUnderTest(settings=settings, process=process)
    finally:
        runtime.stop(settings, log)
        shutil.rmtree(journal_dir(settings), ignore_errors=True)
        log_dir = settings.host_path(settings.log_dir)
        if keep_logs_in is not None and log_dir.is_dir():
            shutil.copytree(log_dir, keep_logs_in, dirs_exist_ok=True)
            log(f"Asterisk logs kept in {keep_logs_in}")
        runtime.remove_instance(settings)


def bridge_env(ast: AsteriskUnderTest, metrics_port: int | None = None, **extra_env: str) -> dict[str, str]:
    """What the bridge needs to reach the test Asterisk (ARI and AMI), on top of the environment; its
    metrics and health on `metrics_port` (a free port if not given: never another run's)."""
    s = ast.settings
    return {
        "ASTERISK_HTTP_PORT": str(s.http_port),
        "ARI_USER": s.ari_user,
        "ARI_PASSWORD": s.ari_password,
        "STASIS_APP": s.stasis_app,
        "ASTERISK_AMI_PORT": str(s.ami_port),
        "AMI_USER": s.ami_user,
        "AMI_SECRET": s.ami_secret,
        "BRIDGE_METRICS_HOST": "127.0.0.1",
        "BRIDGE_METRICS_PORT": str(metrics_port or free_port()),
        "NODE_ID": s.node_id,
        # The outage journal (pbx_bridge.journal) of this Asterisk's bridges: never another test's,
        # whose rows belong to another database; the same for a bridge the test starts again.
        "OUTAGE_JOURNAL_DIR": os.environ.get("OUTAGE_JOURNAL_DIR") or str(journal_dir(s)),
        **RECEIVERS_ENV,
        **extra_env,
    }


def ports_free(ast: AsteriskUnderTest) -> bool:
    """Whether `ast`'s Asterisk is gone (killed) and its ports free for it to start again."""
    try:
        runtime.check_ports(ast.settings)
    except ProvisionError:
        return False
    return runtime.running_pid(ast.settings) is None


@contextlib.contextmanager
def running_bridge(
    ast: AsteriskUnderTest, log: Path, metrics_port: int | None = None, **extra_env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """`python -m pbx_bridge` against the test Asterisk, database and Redis, until it registered."""
    env = {**os.environ, **bridge_env(ast, metrics_port, **extra_env)}
    logged_before = log.stat().st_size if log.exists() else 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbx_bridge"],
        cwd=REPO,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        # This process's own word: Asterisk may still list the app of a bridge that just stopped.
        def registered() -> bool:
            assert proc.poll() is None, "the bridge exited"
            return "Stasis app" in log.read_bytes()[logged_before:].decode(errors="replace")

        # 60 s: on a machine loaded 10x its cores, several bridges importing at once took over 20 s.
        eventually(registered, timeout=60, what="the bridge registered")
        wait_registered(ast)
        yield proc
    finally:
        stop(proc, timeout=15)


def ari_finds(ast: AsteriskUnderTest, path: str) -> bool:
    """Whether Asterisk's REST interface answers 200 for `path` (e.g. `applications/callroute`)."""
    try:
        url = f"http://127.0.0.1:{ast.settings.http_port}/ari/{path}"
        return httpx.get(url, auth=ast.ari_auth, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def stored_recording(ast: AsteriskUnderTest, name: str) -> bytes:
    """The WAV file of recording `name`, as Asterisk serves it over ARI."""
    url = f"http://127.0.0.1:{ast.settings.http_port}/ari/recordings/stored/{quote(name, safe='')}/file"
    response = httpx.get(url, auth=ast.ari_auth, timeout=10)
    response.raise_for_status()
    return response.content


def wait_registered(ast: AsteriskUnderTest, timeout: float = 20) -> None:
    path = f"applications/{ast.settings.stasis_app}"
    eventually(lambda: ari_finds(ast, path), timeout, interval=0.2, what="the bridge registered its app")


def trunk_pushed(ast: AsteriskUnderTest, trunk_id: int, port: int) -> bool:
    """Whether the bridge has pushed trunk `trunk_id` to `port` (its AOR, then its endpoint, last):
    ids restart with every test, so an AOR left by an earlier test's trunk has another port."""
    base = f"http://127.0.0.1:{ast.settings.http_port}/ari/asterisk/config/dynamic/res_pjsip"
    try:
        aor = httpx.get(f"{base}/aor/trunk-{trunk_id}", auth=ast.ari_auth, timeout=2)
        fields = {f["attribute"]: f["value"] for f in aor.json()} if aor.is_success else {}
        endpoint = httpx.get(f"{base}/endpoint/trunk-{trunk_id}", auth=ast.ari_auth, timeout=2)
    except httpx.HTTPError:
        return False
    return str(fields.get("contact", "")).endswith(f":{port}") and endpoint.is_success


@dataclass
class Plan:
    """A customer with a DID, a campaign, and targets on sipp ports, ready to take calls."""

    user_id: int
    did: str
    campaign_id: int
    buyer_id: int
    targets: list[int]
    trunks: list[int]


def seed_plan(
    target_ports: list[int],
    balance: str = "100",
    pushed_to: AsteriskUnderTest | None = None,
    **campaign: object,
) -> Plan:
    """The plan's rows. With `pushed_to`, once the running bridge has pushed its trunks to that
    Asterisk (a bridge started later pushes every trunk as it starts)."""
    did = "+442071838750"
    with session_scope() as s:
        user = User(email="co@example.com", password_hash=hash_password("x1234567"), name="Call Co", role=2)
        s.add(user)
        s.flush()
        if Decimal(balance):
            post(s, user_id=user.id, kind=TransactionType.TOPUP, amount=Decimal(balance), reference="seed")
        camp = Campaign(user_id=user.id, name="Leads", ring_timeout=5, **campaign)
        s.add(camp)
        s.flush()
        s.add(Number(number=did, user_id=user.id, campaign_id=camp.id))
        login = User(email="buyer@example.com", password_hash=hash_password("x1234567"), name="Buyer", role=3)
        s.add(login)
        s.flush()
        buyer = Buyer(user_id=user.id, login_user_id=login.id, name="Buyer")
        s.add(buyer)
        s.flush()
        targets, trunks = [], []
        for i, port in enumerate(target_ports):
            trunk = Trunk(name=f"to-target-{i}-{port}", direction="outbound", host="127.0.0.1", port=port)
            s.add(trunk)
            s.flush()
            target = Target(
                user_id=user.id,
                buyer_id=buyer.id,
                name=f"Target {i}",
                destination=f"+1415555010{i}",
                trunk_id=trunk.id,
            )
            s.add(target)
            s.flush()
            s.add(CampaignTarget(user_id=user.id, campaign_id=camp.id, target_id=target.id, priority=i + 1))
            targets.append(target.id)
            trunks.append(trunk.id)
        plan = Plan(user.id, did, camp.id, buyer.id, targets, trunks)
    for trunk_id in plan.trunks:
        announce_trunk_change(trunk_id)  # what the API does when a trunk is saved
    for trunk_id, port in zip(plan.trunks, target_ports, strict=True) if pushed_to else ():
        eventually(partial(trunk_pushed, pushed_to, trunk_id, port), what=f"trunk {trunk_id} in Asterisk")
    return plan


def calls(count: int = 1, timeout: float = 15) -> list[Call]:
    """The call rows once `count` of them are complete (the bridge writes the end after hangup)."""

    def complete() -> tuple[list[Call]]:
        with session_scope() as s:
            rows = list(s.exec(select(Call).order_by(Call.id)).all())
        ended = [r for r in rows if r.ended_at is not None]
        assert len(ended) >= count, f"{len(ended)} of {count} calls complete: {[r.disposition for r in rows]}"
        return (rows,)  # truthy even when no row is wanted

    return eventually(complete, timeout, interval=0.2)[0]


def live_calls() -> list[dict[str, Any]]:
    """The live calls in Redis, as Live Calls shows them."""
    client = get_redis()
    found = (client.get(names.live_call_key(linkedid)) for linkedid in client.smembers(names.LIVE_CALLS))
    return [json.loads(raw) for raw in found if raw]


async def wait_live(match: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
    """The first live call in Redis that `match` accepts."""

    def matching() -> dict[str, Any]:
        shown = live_calls()
        found = next((c for c in shown if match(c)), None)
        assert found is not None, f"no live call matches; live: {shown}"
        return found

    return await eventually_async(matching, timeout, interval=0.1)
