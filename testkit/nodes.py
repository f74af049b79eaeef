"""Several nodes (one Asterisk + one bridge each, with its node id) behind Kamailio, on loopback with
free ports: the platform as docs/scale.md draws it, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from sqlmodel import select

from asterisk_config import chroot, node_login, runtime
from asterisk_config.kamailio import carriers
from asterisk_config.kamailio.config import KamailioSettings
from asterisk_config.kamailio.runtime import answers
from core.infra.db import session_scope
from core.models import Trunk
from core.pbx.pbx_commands import announce_trunk_change
from testkit.asterisk import (
    AsteriskUnderTest,
    Plan,
    make_test_settings,
    ports_free,
    running_bridge,
    seed_plan,
    trunk_pushed,
)
from testkit.processes import REPO, free_port, stop
from testkit.waiting import eventually

CARRIER = "127.0.0.1"  # where sipp, the carrier, sends from


@dataclass
class Node:
    node_id: str
    asterisk: AsteriskUnderTest
    bridge: subprocess.Popen[bytes]
    metrics_port: int  # its bridge's metrics and health, the same for a bridge started again


@dataclass
class Cluster:
    nodes: list[Node]
    kamailio: KamailioSettings
    proxy: subprocess.Popen[bytes]  # `python -m asterisk_config.kamailio run`
    workdir: Path
    stack: contextlib.ExitStack  # what stops the processes started again (`start_bridge`, ...)
    bridge_env: dict[str, str]  # the bridges' own settings (running_cluster)

    @property
    def sip_port(self) -> int:
        """Where carriers send their calls."""
        return self.kamailio.sip_port

    def node_of(self, linkedid: str) -> str:
        return linkedid.partition("-")[0]

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.node_id == node_id)

    # A part failing and coming back, as the chaos tests do it (testkit.chaos).

    def kill_asterisk(self, node: Node) -> None:
        """The node's Asterisk killed (SIGKILL), as a crash would."""
        pid = runtime.running_pid(node.asterisk.settings)
        assert pid is not None, f"{node.node_id}'s Asterisk was not up"
        os.kill(pid, signal.SIGKILL)

    def start_asterisk(self, node: Node) -> None:
        """The node's Asterisk started again once its ports are free; its bridge reconnects by itself."""
        eventually(
            partial(ports_free, node.asterisk),
            timeout=20,
            interval=0.1,
            what=f"{node.node_id}'s Asterisk gone",
        )
        runtime.start(node.asterisk.settings)

    def kill_bridge(self, node: Node) -> None:
        node.bridge.send_signal(signal.SIGKILL)
        node.bridge.wait()

    def start_bridge(self, node: Node) -> None:
        """The node's bridge started again; returns once it registered (stopped with the cluster)."""
        log = self.workdir / f"bridge-{node.node_id}.log"
        node.bridge = self.stack.enter_context(
            running_bridge(node.asterisk, log, metrics_port=node.metrics_port, **self.bridge_env)
        )

    def restart_proxy(self) -> None:
        """Kamailio stopped and started again (its command, on the same port); returns once it
        answers and has probed every node up."""
        stop(self.proxy, timeout=15, group=True)
        self.proxy = self.stack.enter_context(running_proxy(self.kamailio, self.workdir / "kamailio.log"))
        for node in self.nodes:
            eventually(partial(node_probed, self.kamailio, node.asterisk, True), 20, what="node probed up")


def carriers_loaded(settings: KamailioSettings, address: str) -> bool:
    """Whether the running Kamailio lets `address` call in (its address list, as loaded)."""
    dump = subprocess.run(
        [carriers.KAMCMD, "-s", f"unix:{settings.ctl_socket}", "permissions.addressDump"],
        capture_output=True,
        text=True,
        timeout=5,
    )
    return f"ip: {address}\n" in dump.stdout


def node_probed(settings: KamailioSettings, node: AsteriskUnderTest, active: bool) -> bool:
    """Whether Kamailio's probes find `node` up (`active`) or down."""
    listing = subprocess.run(
        [carriers.KAMCMD, "-s", f"unix:{settings.ctl_socket}", "dispatcher.list"],
        capture_output=True,
        text=True,
        timeout=5,
    ).stdout
    uri = f"URI: sip:127.0.0.1:{node.settings.sip_port}\n"
    _, found, rest = listing.partition(uri)
    flags = rest.split("FLAGS: ", 1)[1][:1] if found and "FLAGS: " in rest else ""
    return flags == ("A" if active else "I")


def let_carrier_in(settings: KamailioSettings, active: bool = True, address: str = CARRIER) -> None:
    """The carrier's inbound trunk saved in the portal (created, or its status changed) and
    announced as the API does: once Kamailio has reloaded, `address` may call in (or not)."""
    with session_scope() as s:
        trunk = s.exec(select(Trunk).where(Trunk.direction == "inbound", Trunk.host == address)).first()
        trunk = trunk or Trunk(name=f"carrier {address}", direction="inbound", host=address, port=5060)
        trunk.status = "active" if active else "inactive"
        s.add(trunk)
        s.flush()
        trunk_id = trunk.id or 0
    announce_trunk_change(trunk_id)
    eventually(lambda: carriers_loaded(settings, address) is active, what="the carriers reloaded")


def seed_cluster(cluster: Cluster, ports: list[int], balance: str = "100", **campaign: object) -> Plan:
    """The plan (testkit.asterisk.seed_plan), its trunks pushed to every node, the carrier let in."""
    plan = seed_plan(ports, balance, **campaign)
    for node in cluster.nodes:
        for trunk_id, port in zip(plan.trunks, ports, strict=True):
            eventually(partial(trunk_pushed, node.asterisk, trunk_id, port), what=f"trunk in {node.node_id}")
    let_carrier_in(cluster.kamailio)
    return plan


@contextlib.contextmanager
def running_proxy(settings: KamailioSettings, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Kamailio through the project's command, with the test's database and Redis."""
    env = {
        **os.environ,
        "DATA_DIR": str(settings.work_dir.parent),
        "KAMAILIO_SIP_PORT": str(settings.sip_port),
        "KAMAILIO_NODES": ",".join(settings.nodes),
        "KAMAILIO_PROBE_SECONDS": str(settings.probe_seconds),
        "KAMAILIO_FLOOD_REQUESTS": str(settings.flood_requests),
        "KAMAILIO_FLOOD_SECONDS": str(settings.flood_seconds),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "asterisk_config.kamailio", "run"],
        cwd=REPO,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:

        def ready() -> bool:
            assert proc.poll() is None, f"Kamailio's command exited: {log.read_text()[-2000:]}"
            return answers(settings)

        # 60 s: its command imports the product first, which took over 20 s at load average 24.
        eventually(ready, timeout=60, what="Kamailio answers")
        yield proc
    finally:
        stop(proc, timeout=15, group=True)


# The bridges beat often and call a node gone soon, so a test sees a lost node's calls completed.
BRIDGE_ENV = {"NODE_BEAT_SECONDS": "0.5", "NODE_GONE_SECONDS": "3"}


@contextlib.contextmanager
def running_cluster(
    count: int,
    workdir: Path,
    probe_seconds: int = 1,
    rtp_ports: int = 0,
    bridge_env: dict[str, str] | None = None,
    rtp_timeout: int = 0,
) -> Iterator[Cluster]:
    """`count` nodes (ids n1, n2, ...) and Kamailio in front of them; everything stopped after.
    Each node has its own ARI login, as a deployment's do (asterisk_config.node_login). With
    `rtp_ports`, each Asterisk has that many RTP ports (a benchmark's many calls at once). The
    bridges' settings beyond the nodes' own: `bridge_env` (by default BRIDGE_ENV). With `rtp_timeout`, a
    carrier's call without RTP that long is hung up (sipp's signalling-only calls: their whole length).

    The Asterisks start one after another (the first mounts the shared chroot's /proc and /dev);
    the bridges and Kamailio, which spend their start importing Python, all at once."""
    bridges = BRIDGE_ENV if bridge_env is None else bridge_env
    with contextlib.ExitStack() as stack:
        asterisks: list[AsteriskUnderTest] = []
        for index in range(1, count + 1):
            # Provisioned as `provision start` does: a login of its own, stored for its bridge and the portal.
            settings = node_login.rotated(make_test_settings(node_id=f"n{index}"))
            if rtp_ports:
                settings = settings.with_(rtp_end=settings.rtp_start + rtp_ports)
            if rtp_timeout:
                settings = settings.with_(rtp_timeout=rtp_timeout)
            chroot.build_chroot(settings, print)
            stack.callback(runtime.remove_instance, settings)
            stack.callback(runtime.stop, settings, print)
            asterisks.append(AsteriskUnderTest(settings=settings, process=runtime.start(settings, print)))
        kamailio = KamailioSettings(
            work_dir=workdir / "kamailio",
            sip_port=free_port(socket.SOCK_DGRAM),
            nodes=tuple(f"127.0.0.1:{ast.settings.sip_port}" for ast in asterisks),
            probe_seconds=probe_seconds,
            flood_requests=1000,
            flood_seconds=1,
        )
        metrics_ports = [free_port() for _ in asterisks]
        starting: list[contextlib.AbstractContextManager[subprocess.Popen[bytes]]] = [
            running_bridge(ast, workdir / f"bridge-{ast.settings.node_id}.log", metrics_port=port, **bridges)
            for ast, port in zip(asterisks, metrics_ports, strict=True)
        ]
        starting.append(running_proxy(kamailio, workdir / "kamailio.log"))
        with ThreadPoolExecutor(len(starting)) as pool:
            entered = [pool.submit(_enter, cm) for cm in starting]
        processes, failed = [], None
        for future in entered:  # every process that started is stopped after, even if another failed
            try:
                own, proc = future.result()
            except Exception as exc:
                failed = failed or exc
                continue
            stack.enter_context(own)
            processes.append(proc)
        if failed is not None:
            raise failed
        nodes = [
            Node(a.settings.node_id, a, p, port)
            for a, p, port in zip(asterisks, processes, metrics_ports, strict=False)
        ]
        for node in nodes:
            eventually(partial(node_probed, kamailio, node.asterisk, True), 20, what="node probed up")
        yield Cluster(nodes, kamailio, processes[-1], workdir, stack, bridges)


def _enter(
    cm: contextlib.AbstractContextManager[subprocess.Popen[bytes]],
) -> tuple[contextlib.ExitStack, subprocess.Popen[bytes]]:
    """Enter `cm` on a stack of its own (in a thread), for the caller's stack to take over."""
    stack = contextlib.ExitStack()
    return stack, stack.enter_context(cm)
