"""A PostgreSQL outage under real calls (docs/scale.md, "PostgreSQL away"): one node (real
Asterisk, bridge and sipp) on a PostgreSQL and a Redis of this test's own. With PostgreSQL stopped,
calls are still answered and connected to the campaign's target, their credit held from the balance
last read; the bridge is then killed (its rows and holds only in its journal), PostgreSQL started
again and a new bridge started: each call has exactly one complete row, rated once, the ledger
equals the balance and no hold is left.
"""

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.billing.rating import rate_pending
from core.infra import names
from core.infra.db import autocommit_engine, get_engine, session_scope
from core.infra.migrate import upgrade
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Call, CreditReservation, User, WalletTransaction
from pbx_bridge.journal import Journal, latest
from testkit.asterisk import (
    AsteriskUnderTest,
    make_test_settings,
    running_bridge,
    running_test_instance,
    seed_plan,
    trunk_pushed,
)
from testkit.databases import fresh_database
from testkit.processes import PostgresServer, postgres_server, redis_server
from testkit.rows import CALLER, change, tariff
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk

TALK_MS = 3000
DURING = 4  # calls placed while PostgreSQL is away


def _caches_clear() -> None:
    for cached in (get_settings, get_engine, autocommit_engine, get_redis):
        cached.cache_clear()


async def test_calls_while_postgresql_is_away_are_connected_and_written_once_after(
    sipp_binary: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started = time.monotonic()
    try:
        with postgres_server() as postgres, redis_server(tmp_path) as redis:
            monkeypatch.setenv("DATABASE_URL", fresh_database(postgres.url, "outage"))
            monkeypatch.setenv("REDIS_URL", redis.url)
            monkeypatch.setenv("OUTAGE_JOURNAL_DIR", str(tmp_path / "journal"))
            _caches_clear()
            upgrade(get_settings().sqlalchemy_url)
            with running_test_instance(make_test_settings(dict(os.environ))) as asterisk:
                await _outage(sipp_binary, asterisk, postgres, tmp_path)
            get_engine().dispose()  # the pooled connections go before their server
    finally:
        monkeypatch.undo()
        _caches_clear()
    print(f"outage test: {time.monotonic() - started:.0f} s")


async def _outage(sipp: str, asterisk: AsteriskUnderTest, postgres: PostgresServer, workdir: Path) -> None:
    with sipp_target(sipp, "answer", workdir) as target:
        plan = seed_plan([target.port], balance="1000")
        # A cent a second, billed by the second.
        change(User, plan.user_id, tariff_id=tariff(("1", "0.60"), increments=(1, 1)))
        log = workdir / "bridge.log"
        with running_bridge(asterisk, log) as bridge:
            eventually(lambda: trunk_pushed(asterisk, plan.trunks[0], target.port), timeout=30)
            # One call while the database answers: what routing reads is read once.
            first = await call(sipp, asterisk, plan.did, CALLER, workdir, talk_ms=1000)
            assert "ended_by=caller" in first, first[-2000:]
            eventually(lambda: _rows() == {CALLER: ["ANSWERED"]}, timeout=20, interval=0.2)
            invites = target.invites()

            get_engine().dispose()  # the test's own connections: none left stale across the restart
            postgres.stop()
            callers = [f"{CALLER[:-3]}{n:03d}" for n in range(DURING)]
            placed = await asyncio.gather(
                *(call(sipp, asterisk, plan.did, c, workdir, talk_ms=TALK_MS) for c in callers)
            )
            for caller, sipp_log in zip(callers, placed, strict=True):
                assert "ended_by=caller" in sipp_log, f"{caller}: {sipp_log[-2000:]}"
            assert target.invites() - invites == DURING  # each one rang the campaign's target

            # Everything those calls made is in the journal, on disk: the bridge now dies with it.
            eventually(lambda: _journaled(callers), timeout=20, interval=0.2)
            kept = Journal.from_settings()
            print(f"journal: {len(kept.read())} lines, {kept.path.stat().st_size} bytes for {DURING} calls")
            bridge.send_signal(signal.SIGKILL)
            bridge.wait()

        postgres.start()
        back = time.monotonic()
        with running_bridge(asterisk, log):  # the new bridge writes what the journal kept
            eventually(lambda: not Journal.from_settings().pending, timeout=30, interval=0.2)
            print(f"journal written {time.monotonic() - back:.1f} s after PostgreSQL returned")
    _check(plan.user_id, plan.targets[0], [CALLER, *callers])


def _rows() -> dict[str, list[str]]:
    with session_scope() as s:
        found: dict[str, list[str]] = {}
        for caller, disposition in s.exec(select(Call.caller, Call.disposition)).all():
            found.setdefault(caller, []).append(disposition)
        return found


def _journaled(callers: list[str]) -> bool:
    rows, holds = latest(Journal.from_settings().read())
    ended = {r["caller"]: r["linkedid"] for r in rows if r["ended_at"] is not None}
    assert set(callers) <= set(ended), sorted(ended)
    # Every call held its credit slice offline: in the journal before its row reached the database.
    assert sorted(h.linkedid for h in holds) == sorted(ended[c] for c in callers), holds
    return True


def _check(user_id: int, target_id: int, callers: list[str]) -> None:
    assert _rows() == {c: ["ANSWERED"] for c in callers}
    rate_pending()  # what the worker's periodic sweep does: the killed bridge's calls were never queued
    with session_scope() as s:
        calls = s.scalars(select(Call)).all()
        for c in calls:
            assert c.ended_at is not None and c.connected_at is not None, c.linkedid
            assert c.target_id == target_id and c.billsec > 0, (c.caller, c.target_id, c.billsec)
            steps = [e["step"] for e in c.trail]
            assert steps[0] == "route" and "dial" in steps and steps.count("route") == 1, steps
            assert c.rating_status == "rated" and c.cost > 0, (c.caller, c.rating_status, c.cost)
        debits = s.exec(
            select(WalletTransaction.reference, WalletTransaction.amount).where(
                WalletTransaction.transaction_type == "call"
            )
        ).all()
        assert sorted(ref for ref, _ in debits) == sorted(f"call:{c.id}" for c in calls)  # once each
        assert -sum(amount for _, amount in debits) == sum(c.cost for c in calls)
        ledger = s.scalar(
            select(func.sum(WalletTransaction.amount)).where(WalletTransaction.user_id == user_id)
        )
        assert s.get(User, user_id).balance == ledger
        reservations = s.exec(select(CreditReservation.linkedid, CreditReservation.released_at)).all()
        assert sorted(linkedid for linkedid, _ in reservations) == sorted(c.linkedid for c in calls)
        assert all(released is not None for _, released in reservations)
    assert get_redis().smembers(names.LIVE_CALLS) == set()
