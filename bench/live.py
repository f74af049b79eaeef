"""Benchmark: a live call's change (answered, hung up) to its arrival at every open Live Calls socket.

    .venv/bin/python -m bench.live                       # 200 sockets, 150 calls at 5/s, 4 s talk
    .venv/bin/python -m bench.live --sockets 200 --calls 300 --cps 10 --talk 4
    .venv/bin/python -m bench.live --quick               # 40 sockets, 20 calls (about 1 min)

Needs root (the Asterisk chroot). Starts what bench.calls starts (a private Asterisk, a throw-away
database, a Redis of its own unless REDIS_URL names one, the bridge, one sipp target answering and
echoing RTP) and the portal as `make run` starts it (launcher.portal). Then opens --sockets
WebSockets to `/api/ws`, each sending what the web's live store sends when it opens (spec §7:
an admin asks for the calls and their count; a customer for the calls, the count, the unread
notifications and its balance; a buyer the same without the balance):

- admin: a fifth of the sockets;
- owner: a fifth, the customer every call belongs to;
- buyer: a tenth, the buyer every call rings;
- other: the rest, ten other customers, who must never be pushed a call (counted: a leak).

A sipp carrier then places --calls calls at --cps through Asterisk and the bridge, each talking
--talk seconds. For every socket the delay of each change is its arrival (this process's clock)
less Asterisk's time of the event, both wall clock on this machine:

- answered: the first message showing the call connected, less its `connected_at` (the ARI
  event's timestamp, which the bridge copies);
- hung up: the first message without a call the socket had shown, less the call row's `ended_at`
  (Asterisk's time of the hang-up, which the bridge writes).

Prints p50/p95/p99/max per role and event, and the CPU seconds of the portal, the bridge, Asterisk
and this process over the calls (per call too), with the load average.
"""

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from bench.calls import ANSWER_MS, SCENARIOS, cpu_ticks, real_call_ground, sipp_target  # noqa: E402
from testkit.asterisk import AsteriskUnderTest, make_test_settings  # noqa: E402
from testkit.processes import free_port, stop  # noqa: E402
from testkit.sipp import audio_capture, free_media_ports  # noqa: E402

ROLES = ("admin", "owner", "buyer", "other")
OTHER_CUSTOMERS = 10
ADMIN_ACTIONS = ("GET_LIVE_CALLS_BY_ADMIN", "GET_CALLS_COUNT_FOR_ADMIN")
BUYER_ACTIONS = ("GET_LIVE_CALLS_BY_CUSTOMER", "GET_CALLS_COUNT_FOR_COMPANY", "GET_NOTIFICATION_COUNT")
CUSTOMER_ACTIONS = (*BUYER_ACTIONS, "GET_BALANCE")


@dataclass
class Watcher:
    """One open socket: what it was shown, and when each change arrived."""

    role: str
    token: str
    actions: tuple[str, ...]
    shown: set[str] = field(default_factory=set)
    connected: set[str] = field(default_factory=set)
    answered: list[float] = field(default_factory=list)  # delays, seconds
    ended: dict[str, float] = field(default_factory=dict)  # linkedid: arrival (wall clock)
    leaked: int = 0  # calls shown to a customer they do not belong to
    messages: int = 0

    def read(self, raw: str | bytes, arrived: float) -> None:
        message = orjson.loads(raw)
        self.messages += 1
        if "livecalls" not in message:
            return
        now = {call["linkedid"]: call for call in message["livecalls"]}
        if self.role == "other":
            self.leaked += len(now)
            return
        for linkedid, call in now.items():
            if call["state"] == "connected" and linkedid not in self.connected and call["connected_at"]:
                self.connected.add(linkedid)
                self.answered.append(arrived - datetime.fromisoformat(call["connected_at"]).timestamp())
        for gone in self.shown - now.keys():
            self.ended.setdefault(gone, arrived)
        self.shown = set(now)


async def watch(base: str, watcher: Watcher, opened: asyncio.Event, count: list[int], total: int) -> None:
    protocols = [Subprotocol("callroute"), Subprotocol(f"bearer.{watcher.token}")]
    async with connect(f"{base}/api/ws", subprotocols=protocols, max_size=None, open_timeout=60) as ws:
        for action in watcher.actions:
            await ws.send(orjson.dumps({"action": action}).decode())
        await _answered(ws, watcher, len(watcher.actions))
        count[0] += 1
        if count[0] == total:
            opened.set()
        async for raw in ws:
            watcher.read(raw, time.time())


async def _answered(ws: ClientConnection, watcher: Watcher, replies: int) -> None:
    """The socket's answers to its opening actions (not measured: they are not pushes)."""
    for _ in range(replies):
        watcher.read(await ws.recv(), time.time())
    watcher.messages = 0


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


# --- the rig ----------------------------------------------------------------------------------------


@dataclass
class Rig:
    sipp: str
    ast: AsteriskUnderTest
    workdir: Path
    audio: Path
    did: str
    base: str
    pids: dict[str, int]
    watchers: list[Watcher]


def tokens(sockets: int, plan_user: int, plan_buyer: int) -> list[Watcher]:
    """Sessions for the roles' sockets: one admin, the plan's customer and buyer, ten others."""
    from core.infra.db import session_scope
    from core.models import Buyer
    from core.values.enums import TokenKind
    from portal_api.auth import tokens as issued
    from testkit.actors import make_actor

    admin = make_actor(1, "Bench Admin")
    others = [make_actor(2, f"Other Customer {n}") for n in range(OTHER_CUSTOMERS)]
    with session_scope() as session:
        buyer = session.get(Buyer, plan_buyer)
        assert buyer is not None and buyer.login_user_id is not None
        owner_token, _ = issued.issue(session, plan_user, TokenKind.SESSION, 24)
        buyer_token, _ = issued.issue(session, buyer.login_user_id, TokenKind.SESSION, 24)
    counts = {"admin": sockets // 5, "owner": sockets // 5, "buyer": sockets // 10}
    counts["other"] = sockets - sum(counts.values())
    watchers = [Watcher("admin", admin.token, ADMIN_ACTIONS) for _ in range(counts["admin"])]
    watchers += [Watcher("owner", owner_token, CUSTOMER_ACTIONS) for _ in range(counts["owner"])]
    watchers += [Watcher("buyer", buyer_token, BUYER_ACTIONS) for _ in range(counts["buyer"])]
    watchers += [
        Watcher("other", others[n % OTHER_CUSTOMERS].token, CUSTOMER_ACTIONS) for n in range(counts["other"])
    ]
    return watchers


@contextmanager
def portal(workdir: Path) -> Iterator[tuple[str, int]]:
    """The portal as `make run` starts it (one uvicorn process): (its ws:// base, its pid)."""
    from launcher.portal import portal_argv
    from testkit.processes import RECEIVERS_ENV, serves
    from testkit.waiting import eventually

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (workdir / "portal.log").open("ab") as out:
        proc = subprocess.Popen(
            portal_argv("127.0.0.1", port),
            cwd=REPO,
            env={**os.environ, **RECEIVERS_ENV, "PUBLIC_URL": base},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        eventually(lambda: serves(f"{base}/docs"), timeout=60, interval=0.1, what="the portal started")
        yield base.replace("http", "ws", 1), proc.pid
    finally:
        stop(proc)


@contextmanager
def start_rig(args: argparse.Namespace, sipp: str, workdir: Path) -> Iterator[Rig]:
    from testkit.asterisk import running_bridge, running_test_instance, seed_plan

    settings = make_test_settings().with_(rtp_start=40000, rtp_end=50000)
    audio = audio_capture(args.talk + 5, workdir / "audio.pcap")
    with ExitStack() as stack:
        ast = stack.enter_context(
            running_test_instance(settings, log=lambda m: print(m, file=sys.stderr), keep_logs_in=None)
        )
        _, port = stack.enter_context(sipp_target(sipp, workdir))
        bridge = stack.enter_context(running_bridge(ast, workdir / "bridge.log"))
        plan = seed_plan([port], balance="100000", pushed_to=ast)
        base, portal_pid = stack.enter_context(portal(workdir))
        pids = {"portal": portal_pid, "bridge": bridge.pid, "asterisk": ast.process.pid}
        watchers = tokens(args.sockets, plan.user_id, plan.buyer_id)
        yield Rig(sipp, ast, workdir, audio, plan.did.lstrip("+"), base, pids, watchers)


# --- the run ----------------------------------------------------------------------------------------


async def place_calls(rig: Rig, args: argparse.Namespace) -> int:
    """sipp places the calls; its exit code."""
    scenario = rig.workdir / "uac.xml"
    scenario.write_text(
        (SCENARIOS / "uac_audio.xml")
        .read_text()
        .replace("ANSWER_MS", str(ANSWER_MS))
        .replace("AUDIO_PCAP", str(rig.audio))
        .replace("STAGGER_MS", "0")
        .replace("HOLD_MS", str(int(args.talk * 1000)))
    )
    longest = args.calls / args.cps + args.talk + ANSWER_MS / 1000
    command = [
        rig.sipp,
        f"127.0.0.1:{rig.ast.settings.sip_port}",
        *("-sf", str(scenario), "-s", rig.did, "-i", "127.0.0.1", "-mi", "127.0.0.1"),
        *("-p", str(free_port(socket.SOCK_DGRAM)), "-mp", str(free_media_ports())),
        *("-r", f"{args.cps:g}", "-m", str(args.calls), "-l", str(args.calls), "-nostdin"),
        *("-timeout", f"{int(longest) + 30}s", "-trace_err", "-error_file", str(rig.workdir / "uac.err")),
    ]
    proc = await asyncio.create_subprocess_exec(
        *command, cwd=rig.workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return await proc.wait()


def ended_at(count: int) -> dict[str, float]:
    """Each call's end by Asterisk's clock (the row's `ended_at`), once `count` rows are complete."""
    from testkit.asterisk import calls

    return {row.linkedid: row.ended_at.timestamp() for row in calls(count, timeout=60) if row.ended_at}


async def run(rig: Rig, args: argparse.Namespace) -> tuple[int, dict[str, float], float]:
    """Sockets open, calls placed, all ended and seen to end: (sipp's exit, CPU s per process, wall s)."""
    opened, count = asyncio.Event(), [0]
    tasks = [asyncio.create_task(watch(rig.base, w, opened, count, len(rig.watchers))) for w in rig.watchers]
    done, _ = await asyncio.wait(
        [asyncio.create_task(opened.wait()), *tasks], timeout=120, return_when="FIRST_COMPLETED"
    )
    if not opened.is_set():
        raise SystemExit(
            f"only {count[0]} of {len(rig.watchers)} sockets opened: {[t.exception() for t in done]}"
        )
    print(f"{len(rig.watchers)} sockets open; placing {args.calls} calls", file=sys.stderr)
    before = {name: cpu_ticks(pid) for name, pid in rig.pids.items()}
    own_before, started = time.process_time(), time.monotonic()
    code = await place_calls(rig, args)
    # The last changes reach the sockets: every call a socket showed has left it.
    deadline = time.monotonic() + 30
    while any(w.shown for w in rig.watchers) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    elapsed = time.monotonic() - started
    tick = os.sysconf("SC_CLK_TCK")
    cpu = {name: (cpu_ticks(pid) - before[name]) / tick for name, pid in rig.pids.items()}
    cpu["bench (sockets)"] = time.process_time() - own_before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return code, cpu, elapsed


def report(rig: Rig, args: argparse.Namespace, code: int, cpu: dict[str, float], elapsed: float) -> None:
    ends = ended_at(args.calls)
    print(
        f"\n{len(rig.watchers)} sockets, {args.calls} calls at {args.cps:g}/s talking {args.talk:g} s "
        f"(sipp exit {code}, {len(ends)} rows ended); CPUs {os.cpu_count()}, "
        f"load average at the end {os.getloadavg()[0]:.2f}"
    )
    heads = ("sockets", "pushes", "p50 ms", "p95 ms", "p99 ms", "max ms")
    print(f"{'role':8}{'event':10}" + "".join(f"{h:>9}" for h in heads))
    for role in ROLES[:3]:
        mine = [w for w in rig.watchers if w.role == role]
        delays = {
            "answered": [d for w in mine for d in w.answered],
            "hung up": [t - ends[i] for w in mine for i, t in w.ended.items() if i in ends],
        }
        for event, values in delays.items():
            ms = [1000 * v for v in values]
            print(
                f"{role:8}{event:10}{len(mine):9}{len(ms):9}"
                + "".join(f"{percentile(ms, q):9.0f}" for q in (50, 95, 99))
                + f"{max(ms, default=float('nan')):9.0f}"
            )
    every = [
        1000 * d
        for w in rig.watchers
        for d in [*w.answered, *(t - ends[i] for i, t in w.ended.items() if i in ends)]
    ]
    print(
        f"{'all':18}{len(rig.watchers):8}{len(every):8}"
        + "".join(f"{percentile(every, q):9.0f}" for q in (50, 95, 99))
    )
    leaked = sum(w.leaked for w in rig.watchers)
    others = sum(w.messages for w in rig.watchers if w.role == "other")
    print(f"other customers' sockets: {others} messages pushed, {leaked} calls shown (must be 0)")
    print(
        f"CPU over {elapsed:.1f} s: "
        + ", ".join(f"{n} {s:.2f} s ({1000 * s / args.calls:.1f} ms/call)" for n, s in cpu.items())
    )


# --- main -------------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__.split("\n")[0])
    p.add_argument("--sockets", type=int, default=200, help="WebSockets open (roles mixed as above)")
    p.add_argument("--calls", type=int, default=150, help="calls placed")
    p.add_argument("--cps", type=float, default=5, help="calls per second")
    p.add_argument("--talk", type=float, default=4, help="seconds each call talks")
    p.add_argument("--quick", action="store_true", help="40 sockets, 20 calls")
    p.add_argument("--logs", type=Path, help="keep sipp, bridge and portal logs in this directory")
    args = p.parse_args()
    if args.quick:
        args.sockets, args.calls = 40, 20
    return args


def main() -> None:
    args = parse_args()
    with ExitStack() as stack:
        sipp, workdir = real_call_ground(stack, "live", args.logs)
        rig = stack.enter_context(start_rig(args, sipp, workdir))
        code, cpu, elapsed = asyncio.run(run(rig, args))
        report(rig, args, code, cpu, elapsed)


if __name__ == "__main__":
    main()
