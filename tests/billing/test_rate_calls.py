"""Rating ended calls: the debit, the flags a person sees on the call, and never twice."""

import random
import threading
from decimal import Decimal

from sqlalchemy import select

from core.billing import credit
from core.billing.pricing import Price
from core.billing.rating import rate_call, rate_hangup, rate_pending
from core.billing.reconcile import reconcile
from core.infra.db import session_scope
from core.models import Call, CreditReservation, WalletTransaction
from core.values.enums import RatingStatus, TransactionType
from testkit.rows import (
    MAR,
    admin,
    available,
    balance,
    call,
    campaign_with_target,
    count,
    customer_id,
    get,
    ledger,
    notices,
    rate,
    tariff,
)


def _rate(call_id: int) -> Call:
    with session_scope() as s:
        rate_call(s, call_id)
    return get(Call, call_id)


def test_a_call_is_debited_once_in_the_transaction_that_rates_it() -> None:
    t = tariff(("44", "0.05"), increments=(30, 6))
    alice = customer_id("10", t)
    c = call(alice, 45)
    rated = _rate(c)
    assert (rated.rating_status, rated.cost, rated.rated_at is not None) == ("rated", Decimal("0.0400"), True)
    assert balance(alice) == Decimal("9.9600")
    _rate(c)
    rate_pending()
    debits = ledger(alice, TransactionType.CALL)
    assert [(d.reference, d.amount, d.call_id, d.balance_after) for d in debits] == [
        (f"call:{c}", Decimal("-0.0400"), c, Decimal("9.9600"))
    ]
    assert balance(alice) == Decimal("9.9600")


def test_the_bridge_rates_a_call_by_its_linkedid_once_the_row_is_written() -> None:
    alice = customer_id("10", tariff(("44", "0.05"), increments=(30, 6)))
    with session_scope() as s:
        assert rate_hangup(s, "1700000000.999") is None  # the task ran before the row: nothing yet
    c = call(alice, 45)
    with session_scope() as s:
        rated = rate_hangup(s, get(Call, c).linkedid)
        assert rated is not None and rated.id == c and rated.cost == Decimal("0.0400")


def test_conversion_counts_talk_time_to_the_target_not_ivr_time() -> None:
    t = tariff(("44", "0.10"))
    alice = customer_id("10", t)
    campaign, target = campaign_with_target(alice, buffer_seconds=60, payout="5")
    short = call(alice, 59, campaign_id=campaign, target_id=target)
    enough = call(alice, 60, campaign_id=campaign, target_id=target)
    in_ivr = call(alice, 90, talk_seconds=30, campaign_id=campaign, target_id=target)
    never_connected = call(alice, 120, connected_at=None, campaign_id=campaign, target_id=target)
    for c in (short, enough):
        _rate(c)
    rate_pending()
    got = {c: (get(Call, c).converted, get(Call, c).payout) for c in (short, enough, in_ivr, never_connected)}
    assert got == {
        short: (False, Decimal("0.0000")),
        enough: (True, Decimal("5.0000")),
        in_ivr: (False, Decimal("0.0000")),
        never_connected: (False, Decimal("0.0000")),
    }


def test_a_winning_bid_is_the_payout_in_place_of_the_targets_on_both_paths() -> None:
    """docs/bidding.md: the call keeps the bid it was won with; converted, it earns that."""
    alice = customer_id("10", tariff(("44", "0.10")))
    campaign, target = campaign_with_target(alice, buffer_seconds=60, payout="5")
    won = {"campaign_id": campaign, "target_id": target, "bid": Decimal("12.5")}
    single, batched = call(alice, 60, **won), call(alice, 60, **won)
    short = call(alice, 59, **won)
    plain = call(alice, 60, campaign_id=campaign, target_id=target)
    _rate(single)
    rate_pending()
    got = {c: (get(Call, c).converted, get(Call, c).payout) for c in (single, batched, short, plain)}
    assert got == {
        single: (True, Decimal("12.5000")),
        batched: (True, Decimal("12.5000")),
        short: (False, Decimal("0.0000")),  # a bid is earned like a payout: once converted
        plain: (True, Decimal("5.0000")),
    }


def test_the_buffer_compares_the_exact_talk_time_and_the_price_the_started_seconds() -> None:
    t = tariff(("44", "0.60"), increments=(30, 6))  # a cent a second: 30 s first, then 6 s steps
    alice = customer_id("10", t)
    campaign, target = campaign_with_target(alice, buffer_seconds=30, payout="5")
    # 29.990 s is billed as 30 s yet short of a 30 s buffer; 30.010 s is billed 31 s and converts;
    # a row from before milliseconds were kept converts on its whole seconds.
    short = call(alice, 30, talk_ms=29990, billsec_ms=29990, campaign_id=campaign, target_id=target)
    over = call(alice, 31, talk_ms=30010, billsec_ms=30010, campaign_id=campaign, target_id=target)
    old = call(alice, 30, campaign_id=campaign, target_id=target)
    _rate(short)
    rate_pending()
    got = {c: (get(Call, c).converted, get(Call, c).cost) for c in (short, over, old)}
    assert got == {
        short: (False, Decimal("0.3000")),
        over: (True, Decimal("0.3600")),
        old: (True, Decimal("0.3000")),
    }


def test_calls_nobody_talked_on_or_nobody_took_are_free_but_rated() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    unanswered, unrouted = call(alice, 0), call(None, 30)
    _rate(unanswered)
    rate_pending()
    for c in (unanswered, unrouted):
        assert (get(Call, c).rating_status, get(Call, c).cost) == ("rated", Decimal("0.0000"))
    assert ledger(alice, TransactionType.CALL) == []


def test_a_call_no_rate_covers_is_flagged_and_charged_once_a_rate_exists() -> None:
    ada, eve = admin(), admin()
    t = tariff(("44", "0.10"))
    alice = customer_id("10", t)
    lost = [call(alice, 60, "+14155550100") for _ in range(3)]
    _rate(lost[0])
    rate_pending()
    assert {get(Call, c).rating_status for c in lost} == {"no_rate"}
    assert {get(Call, c).cost for c in lost} == {None}
    assert balance(alice) == Decimal("10.0000")
    for who in (ada, eve):
        (notice,) = notices(who)
        assert "no_rate" in notice and f"customer {alice}" in notice

    rate(t, "1", "0.60")  # the admin adds the missing rate; the nightly job picks the calls up
    reconcile(MAR)
    assert {get(Call, c).cost for c in lost} == {Decimal("0.6000")}
    assert balance(alice) == Decimal("8.2000")


def test_a_sweep_of_several_workers_takes_each_call_once_even_when_it_stays_unrated() -> None:
    """The workers share one place in the calls: a retry of `no_rate` calls that still match no
    rate does not hand them to the second worker once the first has committed them."""
    alice = customer_id("10", tariff(("44", "0.10")))
    lost = [call(alice, 60, "+14155550100") for _ in range(30)]
    assert rate_pending(batch=4) == 30
    assert rate_pending(RatingStatus.NO_RATE, batch=4, workers=2) == 30
    assert {get(Call, c).rating_status for c in lost} == {"no_rate"}
    assert balance(alice) == Decimal("10.0000")


def test_the_batch_path_and_the_single_call_path_agree() -> None:
    t = tariff()
    for prefix, per_minute, fee, inc, minimum in [
        ("44", "0.0213", "0.0100", (30, 6), 3),
        ("447", "0.1190", "0", (60, 60), 0),
        ("1", "0.0071", "0.0005", (1, 1), 0),
        ("33", "0.0550", "0", (60, 30), 10),
    ]:
        rate(t, prefix, per_minute, increments=inc, connection_fee=Decimal(fee), min_duration=minimum)
    one, many = customer_id("100", t), customer_id("100", t)
    campaign, target = campaign_with_target(one)
    rng = random.Random(5)
    pairs = []
    for _ in range(150):
        number = rng.choice(["+44207", "+447911", "+1415", "+3312", "+8612"]) + str(rng.randrange(10**6))
        fields = {"billsec": rng.choice([0, 1, 2, 29, 30, 31, 45, 59, 60, 61, rng.randrange(4000)])}
        fields["talk_seconds"] = rng.randrange(fields["billsec"] + 1)
        fields |= {"destination": number, "campaign_id": campaign, "target_id": target}
        pairs.append((call(one, **fields), call(many, **fields)))
    for single, _ in pairs:
        _rate(single)
    rate_pending(batch=37)
    fields = ("rating_status", "rate_id", "cost", "converted", "payout")
    for single, batched in pairs:
        a, b = get(Call, single), get(Call, batched)
        assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
    assert balance(one) == balance(many) < Decimal("100")
    assert len(ledger(one)) == len(ledger(many))


def test_parallel_rating_of_the_same_calls_charges_each_once() -> None:
    alice = customer_id("50", tariff(("44", "0.30")))
    ids = [call(alice, 61) for _ in range(120)]

    def single_path(seed: int) -> None:
        order = ids[:]
        random.Random(seed).shuffle(order)
        for c in order:
            with session_scope() as s:
                rate_call(s, c)

    threads = [threading.Thread(target=single_path, args=(n,)) for n in range(3)]
    threads += [threading.Thread(target=rate_pending, kwargs={"batch": 10}) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert count(WalletTransaction, WalletTransaction.transaction_type == "call") == 120
    assert balance(alice) == Decimal("50") - 120 * Decimal("0.6")


def test_rating_ends_the_calls_credit_hold() -> None:
    alice = customer_id("10", tariff(("44", "0.10")))
    single, batched = call(alice, 30), call(alice, 30)
    with session_scope() as s:
        for c in (single, batched):
            price = Price(Decimal("0.10"), Decimal(0), 60, 60, 0)
            credit.reserve(s, alice, get(Call, c).linkedid, price, seconds=120)
    assert available(alice) == Decimal("9.6000")
    _rate(single)
    rate_pending()
    with session_scope() as s:
        # The holds are gone and the real cost debited: a first minute of 0.10 each.
        assert available(alice) == balance(alice) == Decimal("9.8000")
        held = s.scalars(select(CreditReservation.released_at)).all()
    assert all(held) and get(Call, batched).rating_status == RatingStatus.RATED
