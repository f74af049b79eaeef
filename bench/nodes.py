"""Benchmark: calls per second into one node directly, one node behind Kamailio, and two nodes behind
Kamailio (docs/scale.md), on this machine.

    .venv/bin/python -m bench.nodes                          # 20, 40, 60, 80 calls/s, 10 s each
    .venv/bin/python -m bench.nodes --rates 10,20 --seconds 5
    .venv/bin/python -m bench.nodes --rates 40 --held 100,200,400   # and calls held up at once

Needs root (the Asterisk chroot) and Kamailio (installed on demand). Starts a throw-away database
(on BENCH_DATABASE_URL's server), a Redis of its own unless REDIS_URL names one, two nodes and
Kamailio in front of them (testkit.nodes), a second Kamailio in front of the first node only, and
one sipp target answering every call. A sipp carrier places signalling-only calls of --talk-ms
(testkit/scenarios/uac_call.xml) at each rate, for each setup in turn. Counted from the call rows:
a step passes when every call placed has exactly one row and all of them were answered; printed
per step (stderr) and as a table (stdout): answered, rows, the rate sipp kept, and the CPU of each
Asterisk, bridge and Kamailio. With --held, a concurrency ladder follows: each count of calls is
placed at --held-rate and each talks until all of them are up at once.
"""

import argparse
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from asterisk_config.kamailio.config import KamailioSettings  # noqa: E402
from bench.calls import real_call_ground, sipp_target  # noqa: E402
from testkit.processes import free_port  # noqa: E402
from testkit.sipp import SCENARIOS, free_media_ports  # noqa: E402
from testkit.tools import host_tool  # noqa: E402

SETUPS = ("one node", "Kamailio + one node", "Kamailio + two nodes")
ROWS_WAIT = 60  # seconds the rows of a step may take to be complete after its last call


@dataclass
class Step:
    setup: str
    rate: int
    placed: int
    held: bool = False  # a concurrency step: every call placed is up at once
    elapsed: float = 0.0
    rows: int = 0
    answered: int = 0
    cpu: dict[str, float] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.rows == self.answered == self.placed

    def line(self) -> str:
        cpu = ", ".join(f"{name} {value:.0f} %" for name, value in self.cpu.items())
        kept = self.placed / self.elapsed if self.elapsed else 0
        what = f"{self.placed:4} at once" if self.held else f"{self.rate:4}/s"
        return (
            f"{self.setup:22} {what}  {self.answered:5}/{self.placed} answered, {self.rows} rows,"
            f" {kept:5.1f} calls/s placed  [{cpu}]  {'ok' if self.passed else 'FAILED'}"
        )


def cpu_ticks(pid: int) -> int:
    """User + system ticks of a process and its children that ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(v) for v in fields[11:15])


def tree_ticks(pid: int) -> int:
    """Ticks of a process and every live process under it (Kamailio's command, Kamailio and the
    workers it forks)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, grown = {pid}, True
    while grown:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree, grown = tree | more, bool(more)
    return sum(cpu_ticks(p) for p in tree)


def row_counts(since_id: int) -> tuple[int, int]:
    """(complete rows, answered rows) written after row `since_id`."""
    from sqlalchemy import func, select

    from core.infra.db import session_scope
    from core.models import Call

    with session_scope() as s:
        complete, answered = s.execute(
            select(
                func.count().filter(Call.ended_at.is_not(None)),
                func.count().filter(Call.disposition == "ANSWERED"),
            ).where(Call.id > since_id)
        ).one()
    return int(complete), int(answered)


def last_row_id() -> int:
    from sqlalchemy import func, select

    from core.infra.db import session_scope
    from core.models import Call

    with session_scope() as s:
        return int(s.execute(select(func.coalesce(func.max(Call.id), 0))).scalar_one())


def run_step(
    sipp: str, port: int, did: str, step: Step, talk_ms: int, workdir: Path, pids: dict[str, int]
) -> Step:
    size = f"held-{step.placed}" if step.held else str(step.rate)
    stepdir = workdir / f"{step.setup.replace(' ', '-').replace('+', '')}-{size}"
    stepdir.mkdir()
    scenario = stepdir / "uac.xml"
    scenario.write_text((SCENARIOS / "uac_call.xml").read_text().replace("TALK_MS", str(talk_ms)))
    since = last_row_id()
    before = {name: tree_ticks(pid) for name, pid in pids.items()}
    started = time.monotonic()
    subprocess.run(
        [
            sipp,
            f"127.0.0.1:{port}",
            "-sf",
            str(scenario),
            "-s",
            did.lstrip("+"),
            "-key",
            "caller",
            "+447911000001",
            "-i",
            "127.0.0.1",
            "-p",
            str(free_port(socket.SOCK_DGRAM)),
            "-mi",
            "127.0.0.1",
            "-mp",
            str(free_media_ports()),
            "-r",
            str(step.rate),
            "-m",
            str(step.placed),
            "-l",
            str(step.placed),
            "-nostdin",
            "-timeout",
            f"{step.placed // step.rate + talk_ms // 1000 + 60}s",
        ],
        cwd=stepdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    step.elapsed = time.monotonic() - started - talk_ms / 1000
    tick = os.sysconf("SC_CLK_TCK")
    for name, pid in pids.items():
        now = tree_ticks(pid)
        step.cpu[name] = 100 * (now - before[name]) / tick / (time.monotonic() - started)
    deadline = time.monotonic() + ROWS_WAIT
    while time.monotonic() < deadline:  # the bridges write the last rows a moment after the calls
        step.rows, step.answered = row_counts(since)
        if step.rows >= step.placed:
            break
        time.sleep(0.5)
    print(step.line(), file=sys.stderr, flush=True)
    return step


@contextmanager
def rig(sipp: str, workdir: Path) -> Iterator[tuple[dict[str, int], str, dict[str, int]]]:
    """Two nodes behind Kamailio, a second Kamailio before the first node, the plan: the SIP port of
    each setup, the DID, and the processes to measure."""
    from core.infra.db import session_scope
    from core.models import Trunk
    from core.pbx.pbx_commands import announce_trunk_change
    from testkit.asterisk import seed_plan, trunk_pushed
    from testkit.nodes import let_carrier_in, running_cluster, running_proxy
    from testkit.waiting import eventually

    with ExitStack() as stack:
        # bench.calls' target: answers every call, for as long as the run takes.
        _, target_port = stack.enter_context(sipp_target(sipp, workdir))
        # RTP ports for every call held up at once (two channels a call, two ports a channel).
        cluster = stack.enter_context(running_cluster(2, workdir, probe_seconds=2, rtp_ports=4000))
        first = cluster.nodes[0].asterisk
        single = KamailioSettings(
            work_dir=workdir / "single" / "kamailio",
            sip_port=free_port(socket.SOCK_DGRAM),
            nodes=(f"127.0.0.1:{first.settings.sip_port}",),
            probe_seconds=2,
            flood_requests=100_000,
            flood_seconds=1,
        )
        # The cluster's Kamailio floods at 1,000 requests a second per source: enough for this ladder.
        single_proxy = stack.enter_context(running_proxy(single, workdir / "kamailio-single.log"))
        plan = seed_plan([target_port])
        with session_scope() as s:  # not qualified: an OPTIONS lost on a busy machine fails no call
            trunk = s.get(Trunk, plan.trunks[0])
            assert trunk is not None
            trunk.qualify = False
        announce_trunk_change(plan.trunks[0])
        for node in cluster.nodes:
            eventually(lambda n=node: trunk_pushed(n.asterisk, plan.trunks[0], target_port), what="trunk")
        let_carrier_in(cluster.kamailio)
        let_carrier_in(single)
        ports = {
            SETUPS[0]: first.settings.sip_port,
            SETUPS[1]: single.sip_port,
            SETUPS[2]: cluster.sip_port,
        }
        pids = {f"Asterisk {n.node_id}": n.asterisk.process.pid for n in cluster.nodes} | {
            f"bridge {n.node_id}": n.bridge.pid for n in cluster.nodes
        }
        pids |= {"Kamailio (two nodes)": cluster.proxy.pid, "Kamailio (one node)": single_proxy.pid}
        yield ports, plan.did, pids


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--rates", default="20,40,60,80", help="calls per second, in order")
    parser.add_argument("--seconds", type=int, default=10, help="how long each rate is kept")
    parser.add_argument("--talk-ms", type=int, default=1000, help="how long each answered call lasts")
    parser.add_argument("--held", default="", help="calls up at once, in order (a concurrency ladder)")
    parser.add_argument("--held-rate", type=int, default=40, help="calls per second placing --held")
    parser.add_argument("--logs", type=Path, help="keep the logs in this directory")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    steps: list[Step] = []
    with ExitStack() as stack:
        sipp, workdir = real_call_ground(stack, "nodes", args.logs)
        host_tool("kamailio")
        ports, did, pids = stack.enter_context(rig(sipp, workdir))
        print(f"two nodes and Kamailio up; logs in {workdir}", file=sys.stderr)
        failed: set[str] = set()
        for rate in rates:  # setups alternate at each rate: load from elsewhere hits all alike
            for setup in SETUPS:
                if setup in failed:
                    continue
                step = Step(setup, rate, rate * args.seconds)
                steps.append(run_step(sipp, ports[setup], did, step, args.talk_ms, workdir, pids))
                if not step.passed:
                    failed.add(setup)
        failed = set()
        for held in [int(h) for h in args.held.split(",") if h]:
            talk_ms = (held // args.held_rate + 5) * 1000  # the first call still up as the last arrives
            for setup in SETUPS:
                if setup in failed:
                    continue
                step = Step(setup, args.held_rate, held, held=True)
                steps.append(run_step(sipp, ports[setup], did, step, talk_ms, workdir, pids))
                if not step.passed:
                    failed.add(setup)
    print(
        "\nsetup                   highest rate / calls up at once with every call answered and one row each"
    )
    for setup in SETUPS:
        best = max((s.rate for s in steps if s.setup == setup and s.passed and not s.held), default=0)
        most = max((s.placed for s in steps if s.setup == setup and s.passed and s.held), default=0)
        print(f"{setup:22}  {best} calls/s, {most} at once")
    print()
    for step in steps:
        print(step.line())


if __name__ == "__main__":
    main()
