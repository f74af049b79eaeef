"""A real Celery worker killed (SIGKILL, the whole process group) in the middle of a rating batch,
then restarted: every call ends up rated exactly once, with one ledger row each."""

import os
import signal
from decimal import Decimal

import pytest
from sqlalchemy import func, insert, select

from core.infra import jobs, names
from core.infra.db import session_scope
from core.models import Call, WalletTransaction
from core.values.enums import Disposition, TransactionType
from testkit.processes import start_worker
from testkit.rows import MAR, balance, customer_id, tariff
from testkit.waiting import eventually

pytestmark = pytest.mark.slow
CALLS, HANGUPS = 3000, 1000


def rated() -> int:
    with session_scope() as s:
        return int(s.scalar(select(func.count()).select_from(Call).where(Call.rating_status == "rated")) or 0)


def test_a_worker_killed_mid_batch_rates_every_call_exactly_once(tmp_path) -> None:
    t = tariff(("44", "0.10"), increments=(1, 1))
    customers = [customer_id("0", t) for _ in range(5)]
    rows = [
        {
            "linkedid": f"fault.{n}",
            "user_id": customers[n % 5],
            "did": "+442071838750",
            "caller": "+447700900123",
            "destination": "+447911123456",
            "started_at": MAR,
            "ended_at": MAR,
            "billsec": 1 + n % 300,
            "talk_seconds": 1 + n % 300,
            "disposition": Disposition.ANSWERED.value,
        }
        for n in range(CALLS)
    ]
    with session_scope() as s:
        ids = list(s.scalars(insert(Call).returning(Call.id), rows))
    log = str(tmp_path / "worker.log")
    worker = start_worker(log)
    try:
        # A slow batch (small transactions) on one process; on the other, the tasks the bridge
        # enqueued at hangup for the latest calls, which the batch reaches too.
        jobs.enqueue(names.RATE_PENDING, 10)
        latest = [row["linkedid"] for row in rows[-HANGUPS:]]
        for start in range(0, HANGUPS, 20):  # in batches, as the bridge sends them
            jobs.enqueue(names.RATE_CALL, *latest[start : start + 20])
        eventually(lambda: rated() >= CALLS // 4, 60, 0.02, "the worker started rating")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
        at_kill = rated()
        assert at_kill < CALLS, "the batch finished before the kill: nothing was tested"

        worker = start_worker(log)
        jobs.enqueue(names.RATE_PENDING)  # what beat sends every 30 s
        eventually(lambda: rated() == CALLS, 120, 0.02, "every call rated")
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)

    with session_scope() as s:
        debits = s.execute(
            select(WalletTransaction.reference, WalletTransaction.amount).where(
                WalletTransaction.transaction_type == TransactionType.CALL.value
            )
        ).all()
        costs = dict(s.execute(select(Call.id, Call.cost)).all())
    assert sorted(ref for ref, _ in debits) == sorted(f"call:{i}" for i in ids)
    assert {ref: -amount for ref, amount in debits} == {f"call:{i}": cost for i, cost in costs.items()}
    assert sum(balance(c) for c in customers) == -sum(costs.values()) < Decimal(0)
