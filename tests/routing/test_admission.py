"""Admission: route, block and credit, each stopping the call with its disposition and reason."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from core.models import BlockEntry, Campaign, CreditReservation, Number, Rate, Target, Tariff, User
from core.routing import IvrSettings
from core.values.enums import Disposition
from testkit.rows import (
    CALLER,
    DID,
    NOW,
    admit_call,
    change,
    customer,
    desk,
    line,
    save,
    set_link,
    top_up,
)


def steps(admission) -> list[tuple[str, str]]:
    return [(e["step"], e["result"]) for e in admission.trail]


def test_an_admitted_call_carries_its_ids_ivr_settings_and_trail() -> None:
    ln = line(
        ring_timeout=25, ivr_enabled=True, ivr_prompt="enter-pin", ivr_pins=["1234", "9876"], ivr_digits=4
    )
    desk(ln, "Acme desk")
    # Carriers often send the DID and caller without '+'.
    admission = admit_call(did="442071838750", caller="447911123456")
    assert admission.admitted and admission.disposition is None and admission.stopped_at is None
    assert (admission.did, admission.caller) == (DID, CALLER)
    assert (admission.user_id, admission.campaign_id, admission.number_id) == (
        ln.user.id,
        ln.campaign.id,
        ln.number.id,
    )
    assert admission.ivr == IvrSettings(True, "enter-pin", ("1234", "9876"), 4, 3)
    assert admission.ring_timeout == 25
    assert steps(admission) == [
        ("route", "passed"),
        ("block", "passed"),
        ("region", "passed"),
        ("credit", "passed"),
    ]
    assert all(e["at"] == NOW.isoformat() and e["reason"] for e in admission.trail)
    assert admission.trail[0]["campaign_id"] == ln.campaign.id
    assert (
        admission.trail[0]["reason"] == f"{DID} routes to campaign '{ln.campaign.name}' of 'Alice Customer'"
    )


@pytest.mark.parametrize(
    ("did", "reason"),
    [
        ("+442071838799", "+442071838799 is not a number on this platform"),
        ("not-a-number", "the dialled number 'not-a-number' is not a phone number"),
    ],
)
def test_an_unknown_or_malformed_did_routes_nowhere(did: str, reason: str) -> None:
    desk(line(), "Acme desk")
    admission = admit_call(did=did)
    assert admission.disposition is Disposition.NO_ROUTE and admission.stopped_at == "route"
    assert (admission.user_id, admission.campaign_id, admission.number_id) == (None, None, None)
    assert admission.trail == [
        {
            "step": "route",
            "at": NOW.isoformat(),
            "result": "stopped",
            "reason": reason,
            "disposition": "NO_ROUTE",
        }
    ]


def test_an_inactive_number_campaign_or_customer_routes_nowhere() -> None:
    ln = line()
    desk(ln, "Acme desk")
    number_id, campaign_id, user_id = ln.number.id, ln.campaign.id, ln.user.id

    def stop_reason() -> str:
        admission = admit_call()
        assert admission.disposition is Disposition.NO_ROUTE and admission.stopped_at == "route"
        return admission.trail[-1]["reason"]

    change(Number, number_id, status="inactive")
    assert stop_reason() == f"number {DID} is inactive"
    change(Number, number_id, status="suspended")
    assert stop_reason() == f"number {DID} is suspended"
    change(Number, number_id, status="active", campaign_id=None)
    assert stop_reason() == f"number {DID} is not assigned to a campaign"
    change(Number, number_id, campaign_id=campaign_id)
    change(Campaign, campaign_id, status="inactive")
    assert stop_reason() == f"campaign '{ln.campaign.name}' is inactive"
    # A stopped call still names what it reached, so the customer sees it in its report.
    assert admit_call().campaign_id == campaign_id and admit_call().user_id == user_id
    change(Campaign, campaign_id, status="active")
    change(User, user_id, status="suspended")
    assert stop_reason() == "customer 'Alice Customer' is suspended"
    change(User, user_id, status="inactive")
    assert stop_reason() == "customer 'Alice Customer' is inactive"
    change(User, user_id, status="active")
    assert admit_call().admitted


def block(pattern: str, match_type: str = "exact", user: User | None = None, **fields) -> BlockEntry:
    return save(
        BlockEntry(user_id=user.id if user else None, pattern=pattern, match_type=match_type, **fields)
    )


def test_global_blocks_exact_and_prefix() -> None:
    desk(line(), "Acme desk")
    exact = block(CALLER, reason="robocaller")
    admission = admit_call(caller="447911123456")
    assert admission.disposition is Disposition.BLOCKED and admission.stopped_at == "block"
    assert admission.trail[-1] | {"at": None} == {
        "step": "block",
        "at": None,
        "result": "stopped",
        "reason": f"caller {CALLER} matches global block {CALLER} (exact): robocaller",
        "disposition": "BLOCKED",
        "block_id": exact.id,
        "scope": "global",
    }
    assert admit_call(caller="+447911123457").admitted  # exact means exact
    block("4479111", "prefix")
    stopped = admit_call(caller="+447911123457")
    assert stopped.disposition is Disposition.BLOCKED
    assert stopped.trail[-1]["reason"] == "caller +447911123457 matches global block 4479111 (prefix)"
    assert admit_call(caller="+447912000000").admitted


def test_customer_blocks_apply_to_its_own_calls_only() -> None:
    alice = customer("100", name="Alice Customer")
    desk(line(alice), "Acme desk")
    bob = customer("100", name="Bob Customer")
    block(CALLER, user=bob)  # Bob's list says nothing about Alice's calls
    assert admit_call().admitted
    own = block("44791", "prefix", user=alice, reason="competitor")
    admission = admit_call()
    assert admission.disposition is Disposition.BLOCKED
    assert (admission.trail[-1]["scope"], admission.trail[-1]["block_id"]) == ("customer", own.id)
    assert (
        admission.trail[-1]["reason"] == f"caller {CALLER} matches customer block 44791 (prefix): competitor"
    )
    # Anonymous callers have no number to match, and are not blocked by a prefix.
    assert admit_call(caller="anonymous").admitted


def test_an_inactive_block_blocks_nothing() -> None:
    alice = customer("100", name="Alice Customer")
    desk(line(alice), "Acme desk")
    block(CALLER, status="inactive")
    block("447", "prefix", user=alice, status="inactive")
    assert admit_call().admitted


def priced(balance: str, **rate_fields) -> User:
    """A customer on a tariff pricing US calls (+1) per minute, with a 60 s first block."""
    tariff = save(Tariff(name="Standard"))
    fields = {"rate_per_minute": Decimal("0.6000"), "connection_fee": Decimal("0.1000"), **rate_fields}
    save(Rate(tariff_id=tariff.id or 0, prefix="1", effective_from=NOW - timedelta(days=30), **fields))
    return customer(balance=balance, tariff_id=tariff.id)


def credit(admission) -> dict:
    (e,) = [e for e in admission.trail if e["step"] == "credit"]
    return e


def test_no_balance_stops_the_call() -> None:
    desk(line(customer(balance="0")), "Acme desk")
    admission = admit_call()
    assert admission.disposition is Disposition.NO_BALANCE and admission.stopped_at == "credit"
    assert credit(admission)["reason"] == "available balance 0.00 is not above 0"


def test_the_balance_must_cover_the_first_block_at_the_customers_rate() -> None:
    # 0.10 connection + 0.60/min x 60 s = 0.70 before the call may start.
    user = priced("0.50")
    desk(line(user), "Acme desk")
    admission = admit_call()
    assert admission.disposition is Disposition.NO_BALANCE
    assert credit(admission) | {"at": None} == {
        "step": "credit",
        "at": None,
        "result": "stopped",
        "reason": "available balance 0.50 is below 0.70, the first block of a call to +14155550100",
        "disposition": "NO_BALANCE",
        "available": "0.5000",
        "required": "0.7000",
    }
    top_up(user.id or 0, "0.20")
    enough = admit_call()
    assert enough.admitted
    assert credit(enough)["reason"] == (
        "available balance 0.70 covers 0.70, the first block of a call to +14155550100"
    )
    # A sub-cent balance says its places, so the sentence adds up to what is held.
    top_up(user.id or 0, "110.6450")
    assert credit(admit_call())["reason"] == (
        "available balance 111.345 covers 0.70, the first block of a call to +14155550100"
    )


def test_the_dearest_active_destination_sets_the_minimum() -> None:
    user = priced("1.00")
    ln = line(user)
    desk(ln, "US desk")
    # UK calls: 1.50 connection + 1.20/min for a first block of 30 s = 2.10.
    rate = {"rate_per_minute": Decimal("1.2"), "connection_fee": Decimal("1.5"), "initial_increment": 30}
    save(Rate(tariff_id=user.tariff_id or 0, prefix="44", effective_from=NOW - timedelta(days=1), **rate))
    uk = desk(ln, "UK desk", destination="+442079460000", link_status="inactive")
    desk(ln, "SIP desk", destination="sip:desk@pbx.acme.example.com")
    desk(ln, "Unrated desk", destination="+33142685300")
    admission = admit_call()
    assert admission.admitted and credit(admission)["required"] == "0.7000"
    set_link(ln, uk, status="active")
    admission = admit_call()
    assert admission.disposition is Disposition.NO_BALANCE
    assert credit(admission)["reason"] == (
        "available balance 1.00 is below 2.10, the first block of a call to +442079460000"
    )
    change(Target, uk.id or 0, status="inactive")
    assert admit_call().admitted


def test_without_a_rate_only_a_positive_balance_is_needed() -> None:
    desk(line(customer(balance="0.01")), "Acme desk")  # no tariff at all
    admission = admit_call()
    assert admission.admitted
    assert credit(admission) | {"at": None} == {
        "step": "credit",
        "at": None,
        "result": "passed",
        "reason": "available balance 0.01 is above 0 (no rate for the campaign's destinations)",
        "available": "0.0100",
        "required": None,
    }


def test_live_reservations_reduce_the_available_balance() -> None:
    user = priced("1.00")
    desk(line(user), "Acme desk")
    # Reservations are held against the real clock (core.billing.credit), not the routing `now`.
    soon = datetime.now(UTC) + timedelta(minutes=5)
    held = save(
        CreditReservation(user_id=user.id or 0, linkedid="live.1", amount=Decimal("0.40"), expires_at=soon)
    )
    admission = admit_call()
    assert admission.disposition is Disposition.NO_BALANCE and credit(admission)["available"] == "0.6000"
    change(CreditReservation, held.id or 0, released_at=datetime.now(UTC))
    assert admit_call().admitted
    save(
        CreditReservation(
            user_id=user.id or 0,
            linkedid="crashed.1",
            amount=Decimal("0.90"),
            expires_at=datetime.now(UTC) - timedelta(seconds=1),
        )
    )
    assert admit_call().admitted  # an expired reservation (a crashed call) holds nothing
    save(CreditReservation(user_id=user.id or 0, linkedid="live.2", amount=Decimal("0.30"), expires_at=soon))
    assert credit(admit_call())["reason"].startswith("available balance 0.70 covers 0.70")
