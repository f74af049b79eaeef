"""Hundreds of debits and top-ups, replayed across several processes at once: the balance ends
right to the cent, every reference is in the ledger once, and each balance_after follows."""

import multiprocessing
import random
from decimal import Decimal
from typing import Any

from core.billing import wallet
from core.infra.db import get_engine, session_scope
from core.models import User
from core.values.enums import TransactionType
from testkit.rows import balance, customer_id, ledger, top_up

PROCESSES, OPERATIONS = 4, 400


def operations(users: list[int]) -> list[wallet.Entry]:
    ops = []
    for i in range(OPERATIONS):
        if i % 3 == 0:
            kind, amount = TransactionType.TOPUP, Decimal(i % 7 + 1)
        else:
            kind, amount = TransactionType.CALL, -Decimal(f"0.{i % 100:02d}37")
        ops.append(wallet.Entry(users[i % len(users)], kind, amount, f"op:{i}"))
    return ops


def work(worker: int, users: list[int], start: Any) -> None:
    """This worker's share of the operations plus a random third of the others' (replays), in a
    shuffled order, posted one by one or in small post_many batches. Runs in its own process."""
    rng = random.Random(worker)
    ops = [op for i, op in enumerate(operations(users)) if i % PROCESSES == worker or rng.random() < 0.33]
    rng.shuffle(ops)
    start.wait()
    while ops:
        size = rng.choice([1, 1, 5])
        chunk, ops = ops[:size], ops[size:]
        with session_scope() as s:
            if size == 1:
                op = chunk[0]
                wallet.post(s, user_id=op.user_id, kind=op.kind, amount=op.amount, reference=op.reference)
            else:
                wallet.post_many(s, chunk)
    get_engine().dispose()


def test_concurrent_posts_from_several_processes_keep_the_ledger_exact() -> None:
    users = [customer_id(), customer_id()]
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: its own engine and connections
    start = context.Barrier(PROCESSES)
    workers = [context.Process(target=work, args=(n, users, start)) for n in range(PROCESSES)]
    for p in workers:
        p.start()
    for p in workers:
        p.join(timeout=120)
    assert [p.exitcode for p in workers] == [0] * PROCESSES

    ops = operations(users)
    rows = ledger()
    assert sorted(r.reference for r in rows) == sorted(op.reference for op in ops)  # each exactly once
    for user in users:
        expected = sum((op.amount for op in ops if op.user_id == user), Decimal(0))
        assert balance(user) == expected
        running = Decimal(0)
        for row in (r for r in rows if r.user_id == user):
            running += row.amount
            assert row.balance_after == running


def test_a_replayed_batch_appends_only_what_is_new() -> None:
    alice = customer_id()
    first = [
        wallet.Entry(alice, TransactionType.TOPUP, Decimal(10), "t:1"),
        wallet.Entry(alice, TransactionType.CALL, Decimal("-1.5"), "c:1"),
    ]
    with session_scope() as s:
        assert wallet.post_many(s, first) == 2
    replay = [*first, wallet.Entry(alice, TransactionType.CALL, Decimal("-2"), "c:2"), first[1]]
    with session_scope() as s:
        assert wallet.post_many(s, replay) == 1
        assert wallet.post_many(s, replay) == 0
    assert [(r.reference, r.balance_after) for r in ledger(alice)] == [
        ("t:1", Decimal("10.0000")),
        ("c:1", Decimal("8.5000")),
        ("c:2", Decimal("6.5000")),
    ]
    assert balance(alice) == Decimal("6.5000")


def test_a_post_after_an_earlier_read_of_the_user_starts_from_the_latest_balance() -> None:
    alice = customer_id("10")
    with session_scope() as s:
        assert s.get(User, alice).balance == Decimal("10.0000")  # as the top-up screen reads it first
        top_up(alice, "5")  # another request credits meanwhile
        wallet.post(s, user_id=alice, kind=TransactionType.TOPUP, amount=Decimal(1), reference="late")
    assert balance(alice) == Decimal("16.0000")
    assert [r.balance_after for r in ledger(alice)] == [
        Decimal("10.0000"),
        Decimal("15.0000"),
        Decimal("16.0000"),
    ]
