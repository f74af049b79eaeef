"""Credit holds of live calls: slices at answer, extensions while talking, refusal when nothing
fits, expiry after a crash, and no overspending however many calls start at once."""

import threading
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlalchemy import func, select, update

from core.billing import credit
from core.billing.pricing import Price
from core.infra.db import session_scope
from core.models import CreditReservation
from testkit.rows import available, customer_id

PER_MINUTE = Price(Decimal("0.20"), Decimal(0), 60, 60, 0)


def test_a_call_holds_a_slice_extends_it_and_gives_it_back() -> None:
    alice = customer_id("1")
    with session_scope() as s:
        hold = credit.reserve(s, alice, "call-1", PER_MINUTE)
        assert hold is not None and (hold.seconds, hold.amount) == (60, Decimal("0.2000"))
        assert credit.reserve(s, alice, "call-1", PER_MINUTE) is hold  # the bridge retried: same hold
    assert available(alice) == Decimal("0.8000")
    with session_scope() as s:
        hold = credit.extend(s, "call-1", PER_MINUTE)
        assert hold is not None and (hold.seconds, hold.amount) == (120, Decimal("0.4000"))
    assert available(alice) == Decimal("0.6000")
    with session_scope() as s:
        assert credit.release(s, "call-1") is True
        assert credit.release(s, "call-1") is False
        assert credit.extend(s, "call-1", PER_MINUTE) is None
    assert available(alice) == Decimal("1.0000")


def test_the_last_slice_covers_what_the_balance_can_pay_then_calls_are_refused() -> None:
    alice = customer_id("0.15")
    thirty_six = Price(Decimal("0.20"), Decimal(0), 30, 6, 0)  # 0.10 for the first 30 s, 0.02 per 6 s
    with session_scope() as s:
        hold = credit.reserve(s, alice, "call-1", thirty_six)
        assert hold is not None and (hold.seconds, hold.amount) == (42, Decimal("0.1400"))
        assert credit.extend(s, "call-1", thirty_six) is None  # warn and hang up at 42 s
        assert credit.reserve(s, alice, "call-2", thirty_six) is None  # 0.01 left: no first block fits


def test_holds_left_by_a_crash_expire() -> None:
    alice = customer_id("1")
    with session_scope() as s:
        credit.reserve(s, alice, "call-1", PER_MINUTE)
        credit.reserve(s, alice, "call-2", PER_MINUTE)
    assert available(alice) == Decimal("0.6000")
    with session_scope() as s:  # the bridge died 10 minutes ago and never extended call-1
        past = datetime.now(UTC) - timedelta(minutes=10)
        s.execute(
            update(CreditReservation).where(CreditReservation.linkedid == "call-1").values(expires_at=past)
        )
    assert available(alice) == Decimal("0.8000")
    with session_scope() as s:
        assert credit.release_expired(s) == 1
        open_holds = s.scalars(
            select(CreditReservation.linkedid).where(CreditReservation.released_at.is_(None))
        )
        assert list(open_holds) == ["call-2"]


def test_parallel_calls_never_hold_more_than_the_balance() -> None:
    alice = customer_id("1.00")  # five minutes at 0.20/min
    calls, start = 12, threading.Barrier(12)
    talked: dict[str, int] = {}

    def live_call(n: int) -> None:
        linkedid = f"call-{n}"
        start.wait()
        with session_scope() as s:
            hold = credit.reserve(s, alice, linkedid, PER_MINUTE)
        while hold is not None:  # keep extending, as the bridge does, until refused
            talked[linkedid] = hold.seconds
            with session_scope() as s:
                hold = credit.extend(s, linkedid, PER_MINUTE)

    threads = [threading.Thread(target=live_call, args=(n,)) for n in range(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    with session_scope() as s:
        held = s.scalar(select(func.sum(CreditReservation.amount)))
    assert held == Decimal("1.0000")
    assert sum(talked.values()) == 300
    assert available(alice) == Decimal("0.0000")
