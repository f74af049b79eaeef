"""Chaos across nodes: a carrier calls at a steady rate through Kamailio into two nodes while, in
turn, a node's Asterisk is killed, a node's bridge is killed, Kamailio restarts, Redis restarts and
PostgreSQL restarts; then what a carrier and the books would notice is counted per fault
(docs/scale.md, "Proof").
Shared by tests/asterisk/test_failover_chaos.py (2.5 min) and bench/chaos.py (longer runs).

Each call is one of one sipp's calls (`SteadyCarrier`), its caller number its own, so each is
matched to its row; sipp logs when it placed it and how it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from pathlib import Path

import httpx
from sqlalchemy import func
from sqlmodel import select

from core.billing.rating import rate_pending
from core.infra import names
from core.infra.db import get_engine, session_scope
from core.infra.redis_client import get_redis
from core.models import Call, CreditReservation, Target, User, WalletTransaction
from testkit.nodes import Cluster, node_probed, running_cluster, seed_cluster
from testkit.processes import PostgresServer, RedisServer, free_port
from testkit.prometheus import sample
from testkit.rows import change, tariff
from testkit.sipp import SCENARIOS, free_media_ports, sipp_target
from testkit.waiting import NotYet, eventually, eventually_async

CALLER_PREFIX = "+4479300"  # + sipp's call number: each call's own caller
_LINE = re.compile(r"call=(\d+) (\w+)=(.*)")


@dataclass
class Placed:
    """One call as the carrier saw it."""

    number: int
    at: float = 0.0  # when sipp sent its INVITE (monotonic, this process's clock)
    final: str = ""  # its final answer's status, "" when none came
    ended_by: str = ""  # caller or network: it ended cleanly after its answer

    @property
    def caller(self) -> str:
        return f"{CALLER_PREFIX}{self.number}"

    @property
    def answered(self) -> bool:
        return self.final == "200"


class SteadyCarrier:
    """One sipp placing `rate` calls a second, each talking `talk_ms`, into `port`, until `stop`."""

    def __init__(self, sipp: str, port: int, did: str, workdir: Path, rate: int, talk_ms: int) -> None:
        self.sipp, self.port, self.did, self.workdir = sipp, port, did, workdir
        self.rate, self.talk_ms = rate, talk_ms
        self.log = workdir / f"carrier-{time.monotonic_ns()}.log"
        self.started = 0.0
        self._proc: asyncio.subprocess.Process | None = None

    def _scenario(self) -> Path:
        text = (SCENARIOS / "uac_call.xml").read_text().replace("TALK_MS", str(self.talk_ms))
        text = text.replace("[caller]", f"{CALLER_PREFIX}[call_number]")
        text = text.replace('<log message="', '<log message="call=[call_number] ')
        placed = '  <nop><action><log message="call=[call_number] placed=[clock_tick]" /></action></nop>\n'
        text = text.replace('  <send retrans="500">', placed + '  <send retrans="500">', 1)
        path = self.workdir / f"uac-steady-{time.monotonic_ns()}.xml"
        path.write_text(text)
        return path

    def stop(self) -> None:
        """No new call (sipp's SIGUSR1); `run` returns once the calls up are over."""
        if self._proc is not None and self._proc.returncode is None:
            self._proc.send_signal(signal.SIGUSR1)

    async def run(self) -> list[Placed]:
        """Place calls until `stop`; returns once sipp is done (a call with no end gives up after 60 s)."""
        argv = [
            self.sipp,
            f"127.0.0.1:{self.port}",
            "-sf",
            str(self._scenario()),
            "-s",
            self.did.lstrip("+"),
            "-i",
            "127.0.0.1",
            "-p",
            str(free_port(socket.SOCK_DGRAM)),
            "-r",
            str(self.rate),
            "-l",
            str(self.rate * 60),
            "-recv_timeout",
            "60000",
            "-mi",
            "127.0.0.1",
            "-mp",
            str(free_media_ports()),
            "-nostdin",
            "-trace_logs",
            "-log_file",
            str(self.log),
            # What a call with no logged end met (an unexpected answer, retransmissions given up).
            "-trace_err",
            "-error_file",
            str(self.log.with_suffix(".errors")),
        ]
        self._proc = proc = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        self.started = time.monotonic()
        try:
            await proc.wait()
        except asyncio.CancelledError:
            proc.kill()  # the test failing: leave no carrier behind
            raise
        return self.outcomes()

    def outcomes(self) -> list[Placed]:
        calls: dict[int, Placed] = {}
        for line in self.log.read_text().splitlines() if self.log.exists() else []:
            found = _LINE.search(line)
            if found is None:
                continue
            number, key, value = int(found[1]), found[2], found[3].strip()
            call = calls.setdefault(number, Placed(number))
            if key == "placed":
                call.at = self.started + int(value) / 1000
            elif key == "final":
                call.final = value.removeprefix("SIP/2.0 ")[:3]
            elif key == "ended_by":
                call.ended_by = value
        return sorted(calls.values(), key=lambda c: c.number)


@dataclass
class Fault:
    """A part failing and coming back: `fail` breaks it, `recover` brings it back and returns once
    the platform is whole again."""

    name: str
    fail: Callable[[], Awaitable[None]]
    recover: Callable[[], Awaitable[None]]
    node: str = ""  # the node it takes down, if one
    outage: float = 0  # seconds it stays broken before `recover` (the carrier calling on)


@dataclass
class Window:
    fault: Fault
    failed_at: float = 0.0
    recovered_at: float = 0.0
    until: float = 0.0  # the end of the calls counted for it (recovery + settling)


# PostgreSQL stays away this long: longer than the bridges' pooled connections take to notice
# (every call meanwhile is routed from what its bridge last read, docs/scale.md "PostgreSQL away").
POSTGRES_AWAY_SECONDS = 4


def faults(cluster: Cluster, redis: RedisServer, postgres: PostgresServer, journals: Path) -> list[Fault]:
    """The faults in turn: n2's Asterisk, n1's bridge, Kamailio, Redis, PostgreSQL. PostgreSQL's
    comes last: each bridge has routed calls of the carrier's number by then (what it routes from)."""
    n1, n2 = cluster.node("n1"), cluster.node("n2")

    async def asterisk_back() -> None:
        await asyncio.to_thread(cluster.start_asterisk, n2)
        await eventually_async(
            partial(node_probed, cluster.kamailio, n2.asterisk, True), 30, what="n2 probed back"
        )

    async def redis_back() -> None:
        await asyncio.to_thread(redis.start)

    async def postgres_away() -> None:
        get_engine().dispose()  # this process's connections: none left stale across the restart
        await asyncio.to_thread(postgres.stop)

    async def postgres_back() -> None:
        await asyncio.to_thread(postgres.start)
        # Whole again once every bridge has written what its journal kept; then rated, as the
        # workers' sweep would (the calls it journaled were queued for rating nowhere).
        await eventually_async(partial(_journals_written, journals), 60, what="the journals written")
        await asyncio.to_thread(rate_pending)

    return [
        Fault(
            "n2's Asterisk killed",
            lambda: asyncio.to_thread(cluster.kill_asterisk, n2),
            asterisk_back,
            node="n2",
        ),
        Fault(
            "n1's bridge killed",
            lambda: asyncio.to_thread(cluster.kill_bridge, n1),
            lambda: asyncio.to_thread(cluster.start_bridge, n1),
            node="n1",
        ),
        Fault(
            "Kamailio restarted",
            _nothing,
            lambda: asyncio.to_thread(cluster.restart_proxy),
        ),
        Fault("Redis restarted", lambda: asyncio.to_thread(redis.stop), redis_back),
        Fault("PostgreSQL restarted", postgres_away, postgres_back, outage=POSTGRES_AWAY_SECONDS),
    ]


def _journals_written(folder: Path) -> bool:
    """No bridge's outage journal holds anything for PostgreSQL (pbx_bridge.journal)."""
    waiting = [p.name for p in folder.glob("*.jsonl") if p.stat().st_size > 0]
    assert waiting == [], waiting
    return True


def routed_offline(cluster: Cluster) -> int:
    """Routing decisions the bridges made from what they last read, PostgreSQL away (n1's bridge
    counts since it was started again, before PostgreSQL's restart)."""
    total = 0.0
    for node in cluster.nodes:
        page = httpx.get(f"http://127.0.0.1:{node.metrics_port}/metrics", timeout=5).text
        total += sample(page, "callroute_routed_offline_total") or 0
    return int(total)


async def _nothing() -> None:
    """Kamailio's restart is one step (`recover`): stopped and started again."""


async def inflict(
    faults: list[Fault], settle_seconds: float, carrier: asyncio.Task[list[Placed]]
) -> list[Window]:
    """Each fault in turn, `settle_seconds` of calm before each and after the last."""
    windows = []
    for fault in faults:
        await _calm(settle_seconds, carrier)
        await fault.fail()
        # From the moment it is broken: a call placed while it was being killed may have reached
        # it first, and counts among those up or in setup on it (`tally`'s margin before).
        window = Window(fault, failed_at=time.monotonic())
        await _calm(fault.outage, carrier)
        await fault.recover()
        window.recovered_at = time.monotonic()
        windows.append(window)
    await _calm(settle_seconds, carrier)
    for window, following in zip(windows, [*windows[1:], None], strict=True):
        window.until = following.failed_at if following else time.monotonic()
    return windows


async def _calm(seconds: float, carrier: asyncio.Task[list[Placed]]) -> None:
    """The carrier calls on for `seconds` (its schedule, not a wait for a condition); it must not
    have stopped early."""
    await asyncio.wait([carrier], timeout=seconds)
    assert not carrier.done(), f"the carrier stopped early: {carrier.exception() if carrier.done() else ''}"


@dataclass
class Tally:
    fault: str
    placed: int = 0  # from the failure to the next fault's
    refused: list[int] = field(default_factory=list)  # placed then and not answered: sipp's numbers
    elsewhere: int = 0  # placed then and answered by a node other than the one that failed
    lost_with_node: list[int] = field(default_factory=list)  # up or in setup on the node as it failed
    recovery: float = 0.0  # from the failure until the platform was whole again

    def line(self) -> str:
        return (
            f"{self.fault:24} {self.placed:7} {len(self.refused):8} {self.elsewhere:10}"
            f" {len(self.lost_with_node):15} {self.recovery:9.1f} s"
        )


HEADER = (
    f"{'fault':24} {'placed':>7} {'refused':>8} {'elsewhere':>10} {'lost with node':>15} {'recovery':>11}"
)


# A call sipp stamps up to this long after a node's kill returned may still have reached the node
# alive (SIGKILL takes effect a moment later; sipp's clock ticks per loop, late under load) and been
# acknowledged by it (100 Trying): Kamailio then leaves it to that node, and it is lost with it.
KILL_GRACE_SECONDS = 1.0


def tally(windows: list[Window], placed: list[Placed], rows: dict[str, Call], margin: float) -> list[Tally]:
    """Per fault: the calls placed from its failure to the next fault's, those refused, those
    answered elsewhere; the calls placed up to `margin` s before it (or within KILL_GRACE_SECONDS
    after) that were up or in setup on the node it took down and did not end cleanly, never counted
    as refused too; and how long recovery took."""
    tallies = []
    for window in windows:
        fault = window.fault
        prefix = f"{fault.node}-"

        def on_node(call: Placed, prefix: str = prefix) -> bool:
            row = rows.get(call.caller)  # a call in setup on an Asterisk that died has none
            return row is None or row.linkedid.startswith(prefix)

        during = [c for c in placed if window.failed_at <= c.at < window.until]
        start, end = window.failed_at - margin, window.failed_at + KILL_GRACE_SECONDS
        near = [c for c in placed if start <= c.at < end]
        elsewhere = [c for c in during if fault.node and c.answered and not on_node(c)]
        broken = [c for c in near if fault.node and on_node(c) and not (c.answered and c.ended_by)]
        lost = {c.number for c in broken}
        tallies.append(
            Tally(
                fault.name,
                placed=len(during),
                refused=[c.number for c in during if not c.answered and c.number not in lost],
                elsewhere=len(elsewhere),
                lost_with_node=[c.number for c in broken],
                recovery=window.recovered_at - window.failed_at,
            )
        )
    return tallies


def rows_by_caller(wait: float = 90) -> tuple[dict[str, Call], Counter[str], list[str]]:
    """Each call's row (once all are complete, or after `wait` s), how many rows each caller has,
    and the calls whose rows are still open then."""

    def read() -> list[Call]:
        with session_scope() as s:
            return list(s.exec(select(Call)).all())

    def complete() -> list[Call]:
        rows = read()
        assert all(r.ended_at is not None for r in rows), "call rows still open"
        return rows

    try:
        rows = eventually(complete, timeout=wait, interval=1, what="every call row complete")
    except NotYet:
        rows = read()
    still = [r.linkedid for r in rows if r.ended_at is None]
    return {r.caller: r for r in rows}, Counter(r.caller for r in rows), still


@dataclass
class Books:
    rated: Decimal
    debits: Decimal
    balance: Decimal
    ledger: Decimal
    holds_open: int
    unrated: int
    live: int


def books(user_id: int) -> Books:
    """The money, once every ended call is rated (as the beat's sweep does)."""
    rate_pending()
    with session_scope() as s:
        unrated = s.scalar(select(func.count()).select_from(Call).where(Call.rating_status == "pending"))
        rated = s.scalar(select(func.coalesce(func.sum(Call.cost), 0)).where(Call.rating_status == "rated"))
        debits = s.scalar(
            select(func.coalesce(-func.sum(WalletTransaction.amount), 0)).where(
                WalletTransaction.transaction_type == "call"
            )
        )
        ledger = s.scalar(
            select(func.sum(WalletTransaction.amount)).where(WalletTransaction.user_id == user_id)
        )
        user = s.get(User, user_id)
        assert user is not None
        holds = s.scalar(
            select(func.count()).select_from(CreditReservation).where(CreditReservation.released_at.is_(None))
        )
    return Books(
        rated=Decimal(rated or 0),
        debits=Decimal(debits or 0),
        balance=user.balance,
        ledger=Decimal(ledger or 0),
        holds_open=int(holds or 0),
        unrated=int(unrated or 0),
        live=len(get_redis().smembers(names.LIVE_CALLS)),
    )


def most_at_once(rows: list[Call]) -> int:
    """The most calls connected to a target at one moment, from their rows."""
    edges = sorted(
        [(r.connected_at, 1) for r in rows if r.connected_at and r.ended_at]
        + [(r.ended_at, -1) for r in rows if r.connected_at and r.ended_at]
    )
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


# The target's concurrency cap: above what the carrier's rate keeps up, Kamailio's restart included
# (the calls carriers resend once it is back arrive together), so every call is answered;
# and checked from the rows afterwards: claims held through every fault.
CONCURRENCY_CAP = 150
# The carrier endpoint's rtp_timeout in the run (seconds): well over a call's talk time, well under
# how long the rows are waited for.
RTP_TIMEOUT = 10


@dataclass
class ChaosRun:
    tallies: list[Tally]
    placed: list[Placed]
    rows: dict[str, Call]  # by caller
    row_counts: Counter[str]  # rows per caller
    open_rows: list[str]  # linkedids of rows still open when the run ended
    books: Books
    most_at_once: int
    seconds: float
    routed_offline: int  # routing decisions made while PostgreSQL was away

    def table(self) -> str:
        return "\n".join([HEADER, *(t.line() for t in self.tallies)])


async def run_chaos(
    sipp: str,
    workdir: Path,
    redis: RedisServer,
    *,
    rate: int,
    talk_ms: int,
    settle_seconds: float,
    min_seconds: float,
    postgres: PostgresServer,
) -> ChaosRun:
    """Two nodes behind Kamailio (on the database and Redis the environment names: `redis` is that
    Redis and `postgres` that database's server, each restarted as a fault), a target answering
    every call, a carrier calling at `rate` for at least `min_seconds` while each fault happens in
    turn; then the rows and the books."""
    lasts = int(min_seconds) + 600  # the target answers all along (sipp_target's own end)
    journals = workdir / "journal"
    with (
        # The bridges' own defaults (a node whose bridge is away for a while is not gone for good),
        # their journals where the PostgreSQL fault looks. A call sipp lost the end of (its BYE or
        # the 200 OK to it lost under load: signalling only, no media) is hung up as a carrier's
        # dead call is: no RTP for RTP_TIMEOUT.
        running_cluster(
            2, workdir, bridge_env={"OUTAGE_JOURNAL_DIR": str(journals)}, rtp_timeout=RTP_TIMEOUT
        ) as cluster,
        sipp_target(sipp, "answer", workdir, lasts_seconds=lasts) as target,
    ):
        # Enough credit for every call's slice: a run of hours holds thousands until rated.
        plan = seed_cluster(cluster, [target.port], balance="100000")
        change(Target, plan.targets[0], concurrency_cap=CONCURRENCY_CAP)
        change(User, plan.user_id, tariff_id=tariff(("1", "0.60"), increments=(1, 1)))
        carrier = SteadyCarrier(sipp, cluster.sip_port, plan.did, workdir, rate, talk_ms)
        calling = asyncio.create_task(carrier.run())
        started = time.monotonic()
        try:
            windows = await inflict(faults(cluster, redis, postgres, journals), settle_seconds, calling)
            await _calm(max(0.0, started + min_seconds - time.monotonic()), calling)
            carrier.stop()
            placed = await asyncio.wait_for(calling, 120)
        except BaseException:
            calling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await calling
            raise
        seconds = time.monotonic() - started
        rows, counts, still = rows_by_caller()
        margin = talk_ms / 1000 + 5  # a call up (or in setup) on a node as it failed
        return ChaosRun(
            tally(windows, placed, rows, margin),
            placed,
            rows,
            counts,
            still,
            books(plan.user_id),
            most_at_once(list(rows.values())),
            seconds,
            routed_offline(cluster),
        )
