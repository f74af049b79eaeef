"""Benchmark: calls with audio through the bridge, and through a plain-dialplan Dial, on one Asterisk.

    .venv/bin/python -m bench.calls              # full run (about 35 min)
    .venv/bin/python -m bench.calls --quick      # smoke run (about 2 min)
    .venv/bin/python -m bench.calls --help       # ladders, hold, ramp, talk time, --logs DIR

Needs root (the Asterisk chroot, asterisk_config/README.md). Starts a private Asterisk instance with
a wide RTP range, a throw-away database (testkit.databases, on BENCH_DATABASE_URL's server), a Redis of
its own unless REDIS_URL names one, the bridge (`python -m pbx_bridge`), and one sipp target that
answers with PCMA and echoes RTP (`-rtp_echo`). The seeded plan (testkit.asterisk) routes the
DID to that target through trunk `trunk-{id}`. The plain run dials the same trunk endpoint and number
from an exact extension added to `from-carrier` at run time (an exact extension beats `_X.`): it
skips only Stasis and the bridge. Both end in a native_rtp bridge in Asterisk (direct_media=no).

A sipp carrier places the calls (bench/scenarios/uac_audio.xml), streaming a looped g711a capture
into Asterisk, which relays it to the target, which echoes it back the same way. For each mode:

- concurrent calls: N calls brought up at --ramp calls/s and held so that all N are up together for
  --hold seconds, then hung up; N climbs the --concurrency ladder until a step fails.
- calls per second: calls of --talk seconds placed at R/s for --cps-seconds; R climbs the --cps
  ladder until a step fails or sipp could not keep 95 % of R.
- setup time: INVITE sent to 200 OK received (sipp's -trace_rtt), p50/p95, compared at the highest
  rate both modes sustained.

A step fails on any failed sipp call (an answer other than 200, none within 10 s, a BYE from the
network, a lost transaction), on any leg seen without RTP in `pjsip show channelstats`, sampled every
2 s (a leg up for 2 s or more must have received and sent packets: this catches calls answered but
never connected, which sipp counts as successful), when Asterisk's CLI leaves a sample unanswered for
30 s, and, for concurrency, when no sample saw all 2 x N legs up. Modes alternate step by step, so
load from elsewhere on the machine hits both alike.
Each step is printed as it ends (stderr, with the CPU of each process), then the table (stdout).
"""

import argparse
import csv
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script too

from asterisk_config import runtime  # noqa: E402
from bench import DATABASE_SERVER  # noqa: E402
from testkit.asterisk import AsteriskUnderTest, make_test_settings  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402
from testkit.processes import free_port  # noqa: E402
from testkit.sipp import audio_capture, free_media_ports  # noqa: E402
from testkit.tools import host_tool  # noqa: E402

SCENARIOS = Path(__file__).parent / "scenarios"
PLAIN_DID = "442071830000"  # the plain run's DID: an exact extension in from-carrier, no Stasis
ANSWER_MS = 10_000
SAMPLE_SECONDS = 2  # RTP (pjsip show channelstats) is sampled this often during a step
MODES = ("bridge", "dialplan")
SETTLE_SECONDS = 20  # after a failed step: the backlog it left (rows, rating, Redis) runs out first


@dataclass
class Step:
    """One sipp run: what was asked, what came back."""

    mode: str
    label: str
    level: int  # the ladder's level: calls up together, or calls per second
    calls: int
    rate: float
    ok: int = 0
    failed: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    setup_ms: list[float] = field(default_factory=list)
    achieved_rate: float = 0.0
    min_rate: float = 0.0  # a CPS step fails when sipp could not keep (nearly) its rate
    min_legs: int = 0  # a concurrency step fails unless all its calls (2 legs each) are up mid-hold
    legs: int = 0
    silent_legs: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    stalled: int = 0  # RTP samples Asterisk's CLI did not answer within 30 s (it was overwhelmed)

    @property
    def passed(self) -> bool:
        return (
            self.failed == 0
            and self.stalled == 0
            and self.silent_legs == 0
            and self.ok == self.calls
            and self.achieved_rate >= self.min_rate
            and self.legs >= self.min_legs
        )

    def setup(self, q: int) -> float:
        """Setup time percentile `q` (50, 95) in ms."""
        if len(self.setup_ms) < 2:
            return self.setup_ms[0] if self.setup_ms else float("nan")
        return statistics.quantiles(self.setup_ms, n=100, method="inclusive")[q - 1]

    def line(self) -> str:
        cpu = " ".join(f"{name} {pct:.0f}%" for name, pct in self.cpu.items())
        why = f" ({', '.join(f'{k} {v}' for k, v in self.reasons.items())})" if self.reasons else ""
        return (
            f"{self.mode:8} {self.label:>10}: {'ok  ' if self.passed else 'FAIL'} "
            f"{self.ok}/{self.calls} calls, {self.failed} failed{why}, rate {self.achieved_rate:.1f}/s, "
            f"setup p50 {self.setup(50):.0f} ms p95 {self.setup(95):.0f} ms, "
            f"rtp legs {self.legs} (silent {self.silent_legs}"
            + (f", {self.stalled} samples unanswered" if self.stalled else "")
            + f"), cpu: {cpu}"
        )


# --- the rig: Asterisk, target, bridge --------------------------------------------------------------


@dataclass
class Rig:
    sipp: str
    ast: AsteriskUnderTest
    workdir: Path
    audio: Path
    dids: dict[str, str]
    pids: dict[str, int]

    def cli(self, command: str) -> str:
        return runtime.asterisk_cli(self.ast.settings, command, timeout=30).stdout

    def channels(self) -> int:
        return len(runtime.ari_get(self.ast.settings, "/channels"))

    def wait_idle(self, timeout: float = 60) -> None:
        """Until Asterisk holds no channel (a failed step may leave some: hung up after `timeout`)."""
        deadline = time.monotonic() + timeout
        while self.channels() and time.monotonic() < deadline:
            time.sleep(0.5)
        if self.channels():
            self.cli("channel request hangup all")
            time.sleep(2)
        time.sleep(2)  # let the bridge finish its rows before the next step

    def rtp_legs(self) -> tuple[str, int, set[str]]:
        """`pjsip show channelstats`: (its text, legs up for 2 s or more, those of them that have not
        both received and sent RTP)."""
        legs, silent = 0, set()
        stats = self.cli("pjsip show channelstats")
        for line in stats.splitlines():
            if match := _CHANNELSTATS.search(line):
                name, *numbers = match.groups()
                hours, minutes, secs, rx, tx = (int(g) for g in numbers)
                if hours * 3600 + minutes * 60 + secs >= 2:
                    legs += 1
                    if rx == 0 or tx == 0:
                        silent.add(name)
            elif line.endswith(" direct media"):
                legs += 1  # its RTP stats were not to be had at that instant (seen for 1 leg in 600)
        return stats, legs, silent


# "<channel> HH:MM:SS <codec> <rx count> <rx lost> <rx pct> <rx jitter> <tx count> ..."
_CHANNELSTATS = re.compile(r"(\S+) +(\d+):(\d\d):(\d\d) +\S+ +(\d+) +\S+ +\S+ +\S+ +(\d+)")


def cpu_ticks(pid: int) -> int:
    """User + system CPU of a process so far, in clock ticks (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def ticks_of(command: str) -> dict[int, int]:
    """CPU ticks so far of every process running `command` (e.g. every PostgreSQL backend)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if stat.read_text().split(" (", 1)[1].startswith(f"{command})"):
                found[int(stat.parent.name)] = cpu_ticks(int(stat.parent.name))
        except (OSError, IndexError):
            continue
    return found


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@contextmanager
def sipp_target(sipp: str, workdir: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The target (process, SIP port): answers every call with PCMA and echoes its RTP."""
    port = free_port(socket.SOCK_DGRAM)
    media = free_media_ports()
    args = ["-sf", str(SCENARIOS / "uas_echo.xml"), "-i", "127.0.0.1", "-p", str(port), "-mi", "127.0.0.1"]
    args += [
        "-aa",  # answers Asterisk's qualify OPTIONS: a trunk whose contact is unreachable is not dialled
        "-mp",
        str(media),
        "-rtp_echo",
        "-nostdin",
        "-trace_err",
        "-error_file",
        str(workdir / "target.err"),
    ]
    proc = subprocess.Popen(
        [sipp, *args],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=(workdir / "target.out").open("wb"),
    )
    try:
        time.sleep(0.3)
        if proc.poll() is not None:
            raise SystemExit(f"the sipp target exited at start: {(workdir / 'target.out').read_text()}")
        yield proc, port
    finally:
        proc.kill()
        proc.wait()


def add_plain_route(ast: AsteriskUnderTest, target_id: int) -> None:
    """The dialplan twin of the bridge's dial: same trunk endpoint, same number, no Stasis."""
    from core.infra.db import session_scope
    from core.models import Target
    from pbx_bridge.trunks import endpoint_name

    with session_scope() as s:
        target = s.get(Target, target_id)
        assert target is not None and target.trunk_id is not None
        dial = f"PJSIP/{target.destination.lstrip('+')}@{endpoint_name(target.trunk_id)}"
    out = runtime.asterisk_cli(
        ast.settings, f"dialplan add extension {PLAIN_DID},1,Dial({dial},30) into from-carrier"
    ).stdout
    if "added" not in out:
        raise SystemExit(f"could not add the plain-dialplan route: {out}")


# --- one step ---------------------------------------------------------------------------------------


def run_step(rig: Rig, step: Step, hold_ms: int, stagger_ms: float) -> Step:
    """Place `step.calls` calls at `step.rate`/s, call n holding hold_ms - n * stagger_ms after its
    answer, RTP sampled all along."""
    mode, label, calls, rate = step.mode, step.label, step.calls, step.rate
    stepdir = rig.workdir / f"{mode}-{label.replace(' ', '-')}"
    stepdir.mkdir()
    scenario = stepdir / "uac.xml"
    scenario.write_text(
        (SCENARIOS / "uac_audio.xml")
        .read_text()
        .replace("ANSWER_MS", str(ANSWER_MS))
        .replace("AUDIO_PCAP", str(rig.audio))
        .replace("STAGGER_MS", f"{stagger_ms:.3f}")
        .replace("HOLD_MS", str(hold_ms))
    )
    ramp = calls / rate
    longest = ramp + (hold_ms + ANSWER_MS) / 1000
    command = [
        rig.sipp,
        f"127.0.0.1:{rig.ast.settings.sip_port}",
        "-sf",
        str(scenario),
        "-s",
        rig.dids[mode],
        "-i",
        "127.0.0.1",
        "-p",
        str(free_port(socket.SOCK_DGRAM)),
        "-mi",
        "127.0.0.1",
        "-mp",
        str(free_media_ports()),  # never in Asterisk's RTP range, where a random free port may be
        "-r",
        f"{rate:g}",
        "-m",
        str(calls),
        "-l",
        str(calls),  # no cap on simultaneous calls: the step decides how many are up
        "-nostdin",
        "-trace_stat",
        "-stf",
        str(stepdir / "stat.csv"),
        "-trace_rtt",
        "-rtt_freq",
        "1",
        "-trace_err",
        "-error_file",
        str(stepdir / "errors.log"),
        "-timeout",
        f"{int(longest) + 30}s",
    ]
    before = {name: cpu_ticks(pid) for name, pid in rig.pids.items()}
    database_before = ticks_of("postgres")
    machine_before, started = machine_ticks(), time.monotonic()
    proc = subprocess.Popen(command, cwd=stepdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    carrier = watch(rig, step, proc, stepdir, deadline=started + longest + 60)
    elapsed = time.monotonic() - started
    tick = os.sysconf("SC_CLK_TCK")
    step.cpu = {
        name: 100 * (cpu_ticks(pid) - before[name]) / tick / elapsed for name, pid in rig.pids.items()
    }
    step.cpu["carrier"] = 100 * carrier / tick / elapsed
    # PostgreSQL: the bridge's rows and reads, and Asterisk's own record of each call (both modes).
    database = sum(now - database_before.get(pid, 0) for pid, now in ticks_of("postgres").items())
    step.cpu["postgres"] = 100 * database / tick / elapsed
    busy, total = (now - then for now, then in zip(machine_ticks(), machine_before, strict=True))
    step.cpu["machine"] = 100 * busy / max(1, total)
    read_stats(step, stepdir)
    rig.wait_idle()
    if not step.passed:
        time.sleep(SETTLE_SECONDS)
    print(step.line(), file=sys.stderr, flush=True)
    return step


def watch(rig: Rig, step: Step, proc: subprocess.Popen[bytes], stepdir: Path, deadline: float) -> int:
    """Sample RTP every SAMPLE_SECONDS until sipp ends: the most legs up at once and every leg seen
    silent go into `step`; returns sipp's CPU ticks. A single sample misses calls that were answered
    but never connected, when they end between samples."""
    silent: set[str] = set()
    while time.monotonic() < deadline:
        if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
            break  # ended but not reaped: its CPU can still be read
        try:
            stats, legs, quiet = rig.rtp_legs()
        except subprocess.TimeoutExpired:
            step.stalled += 1
            continue
        if legs >= step.legs:
            step.legs = legs
            (stepdir / "channelstats.txt").write_text(stats)  # the busiest sample, for the record
        if quiet - silent:
            with (stepdir / "silent.txt").open("a") as out:
                out.write(stats)
        silent |= quiet
        time.sleep(SAMPLE_SECONDS)
    else:
        proc.kill()
    ticks = cpu_ticks(proc.pid)
    proc.wait()
    step.silent_legs = len(silent)
    return ticks


def read_stats(step: Step, stepdir: Path) -> None:
    """sipp's final counters (-trace_stat) and every setup time (-trace_rtt) into `step`."""
    stat = stepdir / "stat.csv"
    if stat.exists():
        rows = list(csv.reader(stat.open(), delimiter=";"))
        final = dict(zip(rows[0], rows[-1], strict=False))
        step.ok = int(final.get("SuccessfulCall(C)", 0))
        step.failed = int(final.get("FailedCall(C)", 0))
        step.reasons = {
            name[6:-3]: int(value)
            for name, value in final.items()
            if name.startswith("Failed") and name.endswith("(C)") and name != "FailedCall(C)" and int(value)
        }
    else:
        step.failed, step.reasons = step.calls, {"sipp did not finish": 1}
    times: list[float] = []
    for rtt in stepdir.glob("*_rtt.csv"):
        for row in list(csv.reader(rtt.open(), delimiter=";"))[1:]:
            if len(row) >= 3 and row[2] == "setup":
                times.append(float(row[0]))
                step.setup_ms.append(float(row[1]))
    if len(times) > 1 and max(times) > min(times):
        # Answers spread like the INVITEs: the rate sipp really kept up.
        step.achieved_rate = 1000 * (len(times) - 1) / (max(times) - min(times))


# --- the ladders ------------------------------------------------------------------------------------


def ladder(modes: list[str], levels: list[int], run: Callable[[str, int], Step]) -> dict[str, list[Step]]:
    """Each level for each mode still standing, modes alternating (load from elsewhere on the machine
    then hits both alike), the one going first changing at every level (a step right after a
    failed one starts on a machine still settling); a mode stops at its first failed step."""
    steps: dict[str, list[Step]] = {mode: [] for mode in modes}
    for n, level in enumerate(levels):
        order = modes if n % 2 == 0 else modes[::-1]
        for mode in [m for m in order if not steps[m] or steps[m][-1].passed]:
            steps[mode].append(run(mode, level))
    return steps


def concurrency_step(rig: Rig, args: argparse.Namespace, mode: str, level: int) -> Step:
    stagger = 1000 / args.ramp
    # Call n holds (level - n) staggers longer: all end together, all `level` up for the whole hold.
    hold = int(args.hold * 1000 + level * stagger)
    step = Step(mode, f"{level} calls", level, level, args.ramp, min_legs=2 * level)
    return run_step(rig, step, hold, stagger)


def cps_step(rig: Rig, args: argparse.Namespace, mode: str, level: int) -> Step:
    step = Step(mode, f"{level} cps", level, int(level * args.cps_seconds), level, min_rate=0.95 * level)
    return run_step(rig, step, int(args.talk * 1000), 0)


# --- report -----------------------------------------------------------------------------------------


@dataclass
class Figure:
    value: float
    capped: bool = False  # the ladder's top step passed: the real figure may be higher

    def __str__(self) -> str:
        return f"{'>=' if self.capped else ''}{self.value:.0f}"


def best(steps: list[Step], levels: list[int]) -> Figure:
    top = max((s.level for s in steps if s.passed), default=0)
    return Figure(top, capped=top == max(levels))


def ratio(bridge: Figure, plain: Figure) -> str:
    if not plain.value:
        return "-"
    capped = " (dialplan capped)" if plain.capped and not bridge.capped else ""
    return f"{bridge.value / plain.value:.2f}{capped}"


def report(args: argparse.Namespace, conc: dict[str, list[Step]], cps: dict[str, list[Step]]) -> None:
    modes = list(conc)
    rows: list[tuple[str, dict[str, Figure]]] = [
        (f"concurrent calls held {args.hold:g} s", {m: best(conc[m], args.concurrency) for m in modes}),
        ("calls per second sustained", {m: best(cps[m], args.cps) for m in modes}),
    ]
    # Setup times compared at the same load: the highest rate every mode sustained.
    common = [r for r in args.cps if all(any(s.passed and s.level == r for s in cps[m]) for m in modes)]
    if common:
        at = {m: next(s for s in cps[m] if s.level == common[-1]) for m in modes}
        for q in (50, 95):
            rows.append((f"setup p{q} at {common[-1]} cps (ms)", {m: Figure(at[m].setup(q)) for m in modes}))
    print(f"\nCPUs: {os.cpu_count()}   load average at the end: {os.getloadavg()[0]:.2f}")
    both = len(modes) == 2
    print(f"{'':34}" + "".join(f"{m:>12}" for m in modes) + (f"{'bridge/dialplan':>30}" if both else ""))
    for name, values in rows:
        ratios = f"{ratio(values['bridge'], values['dialplan']):>30}" if both else ""
        print(f"{name:34}" + "".join(f"{values[m]!s:>12}" for m in modes) + ratios)
    if "bridge" in modes:
        (_, conc_fig), (_, cps_fig) = rows[:2]
        met = conc_fig["bridge"].value >= 150 and cps_fig["bridge"].value >= 20
        if both:
            met = met and all(f["bridge"].value >= 0.8 * f["dialplan"].value for f in (conc_fig, cps_fig))
        print(
            f"target (bridge >= 150 concurrent, >= 20 cps, >= 0.8 x dialplan): {'met' if met else 'NOT met'}"
        )


# --- main -------------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    def ints(text: str) -> list[int]:
        return sorted(int(v) for v in text.split(","))

    p = argparse.ArgumentParser(prog="python -m bench.calls", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: short holds, small ladders")
    p.add_argument("--hold", type=float, default=60, help="seconds all calls of a concurrency step are up")
    p.add_argument("--ramp", type=float, default=10, help="calls/s bringing a concurrency step up")
    p.add_argument("--concurrency", type=ints, default=[50, 100, 150, 200, 300, 400, 500], help="ladder")
    p.add_argument(
        "--cps", type=ints, default=[10, 20, 25, 30, 40, 50, 60, 80, 100], help="calls-per-second ladder"
    )
    p.add_argument("--cps-seconds", type=float, default=30, help="how long each rate is kept")
    p.add_argument("--talk", type=float, default=2, help="seconds each call of a CPS step talks")
    p.add_argument("--modes", default="bridge,dialplan", help="bridge, dialplan or both")
    p.add_argument("--logs", type=Path, help="keep sipp, bridge and Asterisk logs in this directory")
    args = p.parse_args()
    if args.quick:
        args.hold, args.ramp, args.concurrency = 10, 20, [20, 50]
        args.cps, args.cps_seconds = [10, 20], 5
    args.modes = [m for m in MODES if m in args.modes.split(",")]
    return args


def real_call_ground(stack: ExitStack, what: str, logs: Path | None) -> tuple[str, Path]:
    """What a benchmark of real calls stands on, entered on `stack`: root (Asterisk runs in a
    chroot), sipp, file descriptors for many calls, a work folder (`logs`, else a temporary one), a
    Redis and a database of its own. Returns sipp's path and the work folder."""
    if os.geteuid() != 0:
        raise SystemExit(f"the {what} benchmark needs root (Asterisk runs in a chroot)")
    sipp = host_tool("sipp")
    # Each call streams from its own thread and raw socket; Asterisk takes 2 RTP ports per leg.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    workdir = logs or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"bench-{what}-")))
    workdir.mkdir(parents=True, exist_ok=True)
    redis = stack.enter_context(redis_url(workdir))
    stack.enter_context(throwaway_database(DATABASE_SERVER, f"callroute_bench_{what}", REDIS_URL=redis))
    return sipp, workdir


def main() -> None:
    args = parse_args()
    with ExitStack() as stack:
        sipp, workdir = real_call_ground(stack, "calls", args.logs)
        rig = stack.enter_context(start_rig(args, sipp, workdir))
        print(f"Asterisk, bridge and target up; logs in {workdir}", file=sys.stderr)
        conc = ladder(args.modes, args.concurrency, partial(concurrency_step, rig, args))
        cps = ladder(args.modes, args.cps, partial(cps_step, rig, args))
    report(args, conc, cps)


@contextmanager
def start_rig(args: argparse.Namespace, sipp: str, workdir: Path) -> Iterator[Rig]:
    from testkit.asterisk import running_bridge, running_test_instance, seed_plan

    settings = make_test_settings().with_(rtp_start=40000, rtp_end=50000)  # 2 ports per leg
    longest = args.hold + max(args.concurrency) / args.ramp + ANSWER_MS / 1000 + 10
    audio = audio_capture(longest, workdir / "audio.pcap")
    with ExitStack() as stack:
        ast = stack.enter_context(
            running_test_instance(
                settings,
                log=lambda m: print(m, file=sys.stderr),
                keep_logs_in=workdir / "asterisk" if args.logs else None,
            )
        )
        target, port = stack.enter_context(sipp_target(sipp, workdir))
        bridge = stack.enter_context(running_bridge(ast, workdir / "bridge.log"))
        plan = seed_plan([port], pushed_to=ast)
        add_plain_route(ast, plan.targets[0])
        dids = {"bridge": plan.did.lstrip("+"), "dialplan": PLAIN_DID}
        pids = {"asterisk": ast.process.pid, "bridge": bridge.pid, "target": target.pid}
        yield Rig(sipp, ast, workdir, audio, dids, pids)


@contextmanager
def redis_url(workdir: Path) -> Iterator[str]:
    """REDIS_URL when set, else a Redis of our own (launcher.embedded). The bridge takes its commands
    over pub/sub, which Redis shares across databases: on a shared server, other test runs' trunk
    announcements reach our bridge, which then removes or re-pushes our trunk mid-step."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    from launcher.embedded import start_redis

    server = start_redis(workdir / "redis")
    try:
        yield server.url
    finally:
        server.stop()


if __name__ == "__main__":
    main()
