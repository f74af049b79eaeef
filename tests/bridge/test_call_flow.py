"""The bridge's call flow against a fake Asterisk (tests/bridge/fakes.py): every path of
docs/routing.md and docs/bridge.md, with the real routing engine, rows and live calls, in
milliseconds and without root. The real-call suite (tests/asterisk) covers the same with Asterisk."""

import asyncio
import json
from datetime import timedelta
from decimal import Decimal
from functools import partial
from typing import Any

from sqlmodel import select

from core import names
from core.db import session_scope
from core.enums import Status
from core.models import BlockEntry, Call, Campaign, Number, Rate, Target, Tariff, User
from core.pbx_commands import HangupRequest
from pbx_bridge.call.context import Timing
from pbx_bridge.events import Source
from pbx_bridge.whisper import WhisperFiles
from testkit.audio import whisper
from testkit.rows import CALLER, Line, change, customer, desk, earlier_call, line, save, trunk
from testkit.waiting import eventually_async
from tests.bridge.fakes import WAIT, bridge, now, row


def dialled_line(*desks: str, **campaign: Any) -> tuple[Line, list[Target]]:
    """A customer's number routed to a campaign whose targets (in priority order) have a trunk."""
    ln = line(**campaign)
    carrier = trunk(f"carrier-{ln.campaign.id}")
    targets = [desk(ln, name, priority=n, trunk_id=carrier.id) for n, name in enumerate(desks, 1)]
    return ln, targets


def steps(call_row: Call, step: str) -> list[tuple[str, str]]:
    """The (result, reason) of each trail entry of `step`."""
    return [(e["result"], e["reason"]) for e in call_row.trail if e["step"] == step]


def refused(requests: list[tuple[Any, ...]]) -> list[tuple[str, str, str]]:
    """Where the call was sent in the dialplan, with its refusal's cause and announcement: a refused
    call goes once, to the refusal, never to the dial."""
    sent = [r for r in requests if r[0] == "continue"]
    return [(r[2], r[3].get("CR_CAUSE", ""), r[3].get("CR_SOUND", "")) for r in sent]


def ended_row(linkedid: str) -> Call:
    """The call's row once it has its end (while other calls still run)."""
    with session_scope() as s:
        found = s.exec(select(Call).where(Call.linkedid == linkedid, Call.ended_at.is_not(None))).first()
    assert found is not None
    return found


def last(call_row: Call) -> tuple[str, str, str | None]:
    entry = call_row.trail[-1]
    return entry["step"], entry["result"], entry.get("disposition")


# --- refusals: the call stops before any target rings -------------------------------------------


async def test_a_number_nobody_routes_hears_not_in_service_unanswered_and_is_released_unallocated() -> None:
    async with bridge() as b:
        linkedid = b.call("+442070000000")
        done = await b.ended(linkedid)
    assert [r[0] for r in b.ari.requests] == ["continue"]  # never answered, never hung up by ARI
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")]
    assert (done.disposition, done.number_id, done.user_id) == ("NO_ROUTE", None, None)
    assert last(done) == ("route", "stopped", "NO_ROUTE") and done.answered_at is None
    assert (done.billsec, done.hangup_cause, done.sip_status, done.hangup_by) == (0, 1, 404, "system")
    assert await b.ctx.live.get(linkedid) is None


async def test_a_dialled_number_the_dialplan_had_to_filter_is_refused_not_routed_elsewhere() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call(exten="+44207183875O")  # the dialplan kept the digits: a different number
        done = await b.ended(linkedid)
    assert done.disposition == "NO_ROUTE" and "holds characters no phone" in done.trail[-1]["reason"]
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")] and b.rated == [linkedid]


async def test_a_number_in_the_inventory_without_a_campaign_is_refused_without_an_answer() -> None:
    ln, _ = dialled_line("Acme desk")
    change(Number, ln.number.id or 0, campaign_id=None)
    async with bridge() as b:
        linkedid = b.call()
        done = await b.ended(linkedid)
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")]
    assert (done.disposition, done.number_id, done.answered_at) == ("NO_ROUTE", ln.number.id, None)
    assert (done.hangup_by, done.hangup_cause, done.sip_status, done.billsec) == ("system", 1, 404, 0)


async def test_an_inactive_campaign_stops_the_call_at_route_naming_its_customer() -> None:
    ln, _ = dialled_line("Acme desk")
    change(Campaign, ln.campaign.id or 0, status=Status.INACTIVE.value)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert (done.disposition, done.user_id, done.campaign_id) == ("NO_ROUTE", ln.user.id, ln.campaign.id)
    assert last(done) == ("route", "stopped", "NO_ROUTE")


async def test_a_blocked_caller_is_refused_at_block() -> None:
    ln, _ = dialled_line("Acme desk")
    save(BlockEntry(user_id=ln.user.id, pattern=CALLER, match_type="exact"))
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "BLOCKED" and last(done) == ("block", "stopped", "BLOCKED")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "21", "cannot-complete-as-dialed")]
    assert (done.hangup_by, done.hangup_cause, done.hangup_cause_text, done.sip_status) == (
        "system",
        21,
        "Call rejected",
        403,
    )


async def test_a_customer_without_balance_is_refused_at_credit() -> None:
    user = customer(balance="0")
    ln = line(user)
    desk(ln, "Acme desk", trunk_id=trunk("carrier-nb").id)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "NO_BALANCE" and last(done) == ("credit", "stopped", "NO_BALANCE")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "34", "all-circuits-busy-now")]
    assert (done.hangup_cause, done.sip_status) == (34, 503)


async def test_a_repeat_caller_is_rejected_when_the_campaign_says_so() -> None:
    ln, (acme,) = dialled_line("Acme desk", duplicate_action="reject")
    earlier_call(ln, acme, now() - timedelta(minutes=5))
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "DUPLICATE" and last(done) == ("duplicate", "stopped", "DUPLICATE")
    assert (done.hangup_cause, done.sip_status) == (21, 403)


async def test_no_target_available_stops_the_call_at_select() -> None:
    _, (acme,) = dialled_line("Acme desk")
    change(Target, acme.id or 0, status=Status.INACTIVE.value)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "NO_ROUTE" and last(done) == ("select", "stopped", "NO_ROUTE")
    assert steps(done, "target") == [("skipped", "inactive")]
    assert (done.hangup_cause, done.sip_status) == (34, 503)  # nobody can take it now: temporary


async def test_every_target_at_its_caps_is_released_busy() -> None:
    _, (acme,) = dialled_line("Acme desk")
    change(Target, acme.id or 0, daily_cap=1)
    async with bridge() as b:
        first = b.call()
        await b.dialled(first)
        await b.answered(first)
        b.ari.end(first)
        await b.ended(first)
    async with bridge() as b:
        done = await b.ended(b.call(caller="+447700900999"))
    assert done.disposition == "NO_ROUTE" and steps(done, "target") == [("skipped", "daily cap 1/1")]
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "17", "all-circuits-busy-now")]
    assert (done.hangup_cause, done.hangup_cause_text, done.sip_status) == (17, "User busy", 486)


async def test_a_target_without_a_trunk_is_skipped_and_the_call_fails() -> None:
    ln = line()
    desk(ln, "Trunkless desk")
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "FAILED"
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "34", "all-circuits-busy-now")]
    assert steps(done, "dial") == [
        ("skipped", "target has no outbound trunk"),
        ("stopped", "no target could be dialled"),
    ]


# --- the IVR ------------------------------------------------------------------------------------


async def test_the_right_pin_passes_the_ivr_and_the_call_is_dialled() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4, ivr_attempts=2)
    async with bridge(Timing(digit=2)) as b:
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.dtmf(linkedid, "4321")
        assert len(await b.dialled(linkedid)) == 1
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert (done.ivr_result, steps(done, "ivr")) == ("passed", [("passed", "PIN accepted")])
    assert b.ari.made("answer") == [("answer", linkedid)]  # the IVR answers before it asks


async def test_wrong_pins_fail_the_ivr_after_the_allowed_attempts() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4, ivr_attempts=2)
    async with bridge() as b:
        linkedid = b.call()
        b.dtmf(linkedid, "1111")  # then nothing: the second attempt times out
        done = await b.ended(linkedid)
    assert (done.disposition, done.ivr_result) == ("IVR_FAILED", "failed")
    assert steps(done, "ivr") == [("failed", "wrong PIN"), ("stopped", "no PIN entered")]
    assert last(done) == ("ivr", "stopped", "IVR_FAILED")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "21", "cannot-complete-as-dialed")]
    assert (done.hangup_cause, done.sip_status) == (21, 200)  # the IVR had answered it
    assert ("play", linkedid, "sound:auth-incorrect") in b.ari.requests


async def test_a_caller_who_hangs_up_in_the_ivr_abandoned_the_call() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4)
    async with bridge(Timing(digit=2)) as b:
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.bridge.events.dispatch_ari({"type": "StasisEnd", "channel": {"id": linkedid}})
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("NO ANSWER", "caller")
    assert last(done) == ("hangup", "stopped", "NO ANSWER")
    assert b.ari.made("hangup") == []  # it is gone already: not hung up again


# --- dialling: failover, busy, no answer --------------------------------------------------------


async def test_the_last_hourly_slot_is_taken_once_and_given_back_by_a_call_that_did_not_connect() -> None:
    ln = line()
    carrier = trunk(f"carrier-{ln.campaign.id}")
    desk(ln, "Acme desk", trunk_id=carrier.id, hourly_cap=1)
    async with bridge() as b:
        first = b.call()
        await b.dialled(first)  # ringing: not connected, so the database counts nothing yet
        second = b.call(caller="+447911000002")  # selected (nothing connected), then not claimed
        busy = await eventually_async(partial(ended_row, second), WAIT)
        assert (busy.disposition, busy.sip_status) == ("NO_ROUTE", 486), busy.trail
        assert "hourly cap 1/1, taken by a parallel call" in steps(busy, "target")[-1][1]
        b.dialplan_says(first, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        b.ari.end(first)
        await b.ended(first)
        third = b.call(caller="+447911000003")
        assert len(await b.dialled(third)) == 1  # the busy call gave its slot back
        await b.answered(third)
        b.ari.end(third, by="target")
        await b.ended(third)


async def test_a_repeat_caller_is_held_while_dialled_and_let_go_when_no_buyer_was_reached() -> None:
    dialled_line("Acme desk", duplicate_action="reject", duplicate_window_seconds=3600)
    async with bridge() as b:
        first = b.call()
        await b.dialled(first)  # ringing: the database knows of no buyer reached yet
        second = b.call()  # the same caller again, on this node or another
        again = await eventually_async(partial(ended_row, second), WAIT)
        assert (again.disposition, again.sip_status) == ("DUPLICATE", 403), again.trail
        assert f"being connected on call {first}" in steps(again, "duplicate")[-1][1]
        b.dialplan_says(first, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        b.ari.end(first)
        await b.ended(first)
        third = b.call()  # the busy call reached no buyer: the caller may be connected now
        assert len(await b.dialled(third)) == 1
        b.ari.end(third)
        await b.ended(third)


async def test_failover_rings_the_next_target_and_the_answer_connects_it() -> None:
    _, (acme, beta) = dialled_line("Acme desk", "Beta desk")
    async with bridge() as b:
        linkedid = b.call()
        endpoints = await b.dialled(linkedid)
        assert len(endpoints) == 2 and endpoints[0].endswith(f"@trunk-{acme.trunk_id}")
        await b.live_until(linkedid, lambda shown: shown is not None and shown["target_id"] == acme.id)
        b.dialplan_says(linkedid, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        await b.live_until(linkedid, lambda shown: shown is not None and shown["target_id"] == beta.id)
        await b.answered(linkedid)
        connected = row(linkedid)  # the call shows connected only once its answered row is in
        assert (connected.target_id, connected.connected_at is not None) == (beta.id, True)
        b.ari.end(linkedid, by="target")
        done = await b.ended(linkedid)
    dials = [(e["target_id"], e["result"], e["status"]) for e in done.trail if e["step"] == "dial"]
    assert dials == [(acme.id, "failed", "BUSY"), (beta.id, "passed", "ANSWER")]
    assert (done.disposition, done.hangup_by, done.buyer_id) == ("ANSWERED", "target", beta.buyer_id)
    assert done.trail[-2]["sip"] == "SIP 486 Busy Here" and b.rated == [linkedid]
    assert [e["sip_status"] for e in done.trail if e["step"] == "dial"] == [486, 200]
    assert (done.hangup_cause, done.hangup_cause_text, done.sip_status) == (16, "Normal call clearing", 200)
    assert await b.ctx.live.get(linkedid) is None and await b.ctx.live.linkedids() == set()


async def test_a_failover_target_is_claimed_before_it_rings_and_skipped_when_full() -> None:
    """Two calls fail over from a busy first target: the second target (cap 1) is claimed for the
    first call (the dialplan told `dial`); for the second it is full, so the dialplan is told `skip`
    and the call ends as every target failed."""
    _, (_, beta) = dialled_line("Acme desk", "Beta desk")
    with session_scope() as s:
        s.get(Target, beta.id).concurrency_cap = 1
    async with bridge() as b:
        first, second = b.call(), b.call(caller="+447911000002")
        for linkedid in (first, second):
            await b.dialled(linkedid)
        b.dialplan_says(first, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        await b.live_until(first, lambda shown: shown is not None and shown["target_id"] == beta.id)
        b.dialplan_says(second, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        await b.answered(first)
        b.ari.end(second, cause="17")
        b.ari.end(first, by="target")
        connected, skipped = await b.ended(first), await b.ended(second)
    told = [(f["Channel"], f["Variable"], f["Value"]) for action, f in b.ami.actions if action == "Setvar"]
    assert told == [
        (f"PJSIP/carrier-{first}", "CR_GO_2", "dial"),
        (f"PJSIP/carrier-{second}", "CR_GO_2", "skip"),
    ]
    assert (connected.disposition, connected.target_id) == ("ANSWERED", beta.id)
    assert skipped.disposition == "BUSY", skipped.trail
    assert "concurrency cap 1/1, taken by a parallel call" in steps(skipped, "target")[-1][1]
    assert last(skipped)[:2] == ("select", "stopped")


async def test_every_target_busy_is_busy() -> None:
    _, targets = dialled_line("Acme desk", "Beta desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        for n in ("1", "2"):
            b.dialplan_says(linkedid, names.ATTEMPT_EVENT, Attempt=n, Status="BUSY", SIP="SIP 486 Busy Here")
        b.ari.end(linkedid, cause="17")
        done = await b.ended(linkedid)
    assert done.disposition == "BUSY" and last(done) == ("dial", "stopped", "BUSY")
    assert (done.hangup_by, done.hangup_cause, done.hangup_cause_text, done.sip_status) == (
        "system",
        17,
        "User busy",
        486,
    )
    assert done.target_id == targets[1].id  # the last one rung


async def test_a_target_that_does_not_answer_in_time_is_no_answer() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        b.dialplan_says(linkedid, names.ATTEMPT_EVENT, Attempt="1", Status="NOANSWER", Cause="19")
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert done.disposition == "NO ANSWER" and last(done) == ("dial", "stopped", "NO ANSWER")
    assert done.trail[-1]["sip"] == "cause 19" and done.trail[-1]["sip_status"] == 480
    assert (done.hangup_by, done.hangup_cause, done.sip_status) == ("system", 16, 480)


async def test_an_unavailable_target_fails_the_call() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        b.dialplan_says(linkedid, names.ATTEMPT_EVENT, Attempt="1", Status="CHANUNAVAIL")
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert done.disposition == "FAILED" and done.trail[-1]["status"] == "CHANUNAVAIL"


async def test_a_caller_who_hangs_up_while_the_target_rings_abandoned_the_call() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by, done.connected_at) == ("NO ANSWER", "caller", None)
    assert last(done) == ("dial", "stopped", "NO ANSWER") and done.trail[-1]["status"] == "CANCEL"


# --- talking ------------------------------------------------------------------------------------


async def test_an_answered_call_ended_by_the_caller() -> None:
    ln, (acme,) = dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid)
        shown = await b.ctx.live.get(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert shown is not None and (shown["user_id"], shown["buyer_id"], shown["target_name"]) == (
        ln.user.id,
        acme.buyer_id,
        "Acme desk",
    )
    assert (done.disposition, done.hangup_by, done.destination) == ("ANSWERED", "caller", acme.destination)
    assert done.answered_at == done.connected_at and done.ended_at is not None and b.rated == [linkedid]


async def test_talk_time_is_asterisks_to_the_millisecond_and_billed_by_started_seconds() -> None:
    dialled_line("Acme desk")
    answered = now().replace(microsecond=0) - timedelta(seconds=20)
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        # The bridge hears both late (the events' own times are Asterisk's): they bill, not when heard.
        await b.answered(linkedid, At=f"{answered.timestamp():.0f}.250000")
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{answered.timestamp() + 20:.0f}.254123")
        done = await b.ended(linkedid)
    assert done.connected_at == done.answered_at == answered + timedelta(milliseconds=250)
    assert done.ended_at == answered + timedelta(seconds=20, microseconds=254123)
    assert (done.talk_ms, done.billsec_ms, done.talk_seconds, done.billsec) == (20004, 20004, 21, 21)


async def test_talk_time_starts_when_the_callers_channel_answered_not_when_the_target_did() -> None:
    # Dial answers the caller after the target's answer routine ran, as it bridges them: the caller's
    # 200 OK (what the carrier bills from) leaves then, tens of ms after the routine's `At` on a busy
    # Asterisk. Whichever of the two events the bridge hears first, talk time starts at the caller's.
    dialled_line("Acme desk")
    target_answered = now().replace(microsecond=0) - timedelta(seconds=20)
    caller_answered = target_answered + timedelta(milliseconds=58)
    ended = target_answered + timedelta(seconds=20, milliseconds=4)
    async with bridge() as b:
        heard_last, heard_first = b.call(), b.call()
        for linkedid in (heard_last, heard_first):
            await b.dialled(linkedid)
            assert await b.ari.requested("follow", linkedid)  # its answer is heard once dialled
        b.caller_answered(heard_first, caller_answered)
        for linkedid in (heard_last, heard_first):
            await b.answered(linkedid, At=f"{target_answered.timestamp():.6f}")
        b.caller_answered(heard_last, caller_answered)
        for linkedid in (heard_last, heard_first):
            b.dialplan_says(linkedid, names.END_EVENT, At=f"{ended.timestamp():.6f}")
        rows = [await b.ended(heard_last), await b.ended(heard_first)]
    for done in rows:
        assert done.connected_at == done.answered_at == caller_answered
        assert (done.talk_ms, done.billsec_ms, done.talk_seconds, done.billsec) == (19946, 19946, 20, 20)


async def test_talk_time_ends_when_asterisk_took_in_the_callers_hang_up_not_when_the_dialplan_ran() -> None:
    # The h extension stamps the end after Dial and the bridge are done with the caller's BYE, up to
    # hundreds of ms on a busy Asterisk; the hangup request is the BYE as the SIP stack took it in.
    # A soft request is Asterisk's own (a redirect, ARI): the call goes on after it.
    dialled_line("Acme desk")
    answered = now().replace(microsecond=0) - timedelta(seconds=20)
    bye = answered + timedelta(seconds=12, milliseconds=7)
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid, At=f"{answered.timestamp():.6f}")
        b.caller_answered(linkedid, answered)
        b.caller_hung_up(linkedid, bye - timedelta(seconds=2), soft=True)
        b.caller_hung_up(linkedid, bye)
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{bye.timestamp() + 0.3:.6f}")
        done = await b.ended(linkedid)
    assert done.ended_at == bye and (done.talk_ms, done.billsec) == (12007, 13)


async def test_a_recorded_campaign_names_the_recording_on_the_row() -> None:
    dialled_line("Acme desk", record=True)
    async with bridge() as b:
        recorded, silent = b.call(), b.call()
        assert (await b.dialled(recorded))[0] and (await b.dialled(silent))[0]
        _, _, _, variables = await b.ari.requested("continue", recorded)
        assert str(variables["CR_PLAN"]).split("^")[1] == names.RECORDED_ANSWER
        await b.answered(recorded, Recording="/spool/recording/call.wav")
        await b.answered(silent)  # MixMonitor did not start: no file name
        b.ari.end(recorded)
        b.ari.end(silent)
        done, failed = await b.ended(recorded), await b.ended(silent)
    assert done.recording == names.recording_name(recorded) and steps(done, "record") == [
        ("passed", "both sides recorded")
    ]
    assert failed.recording is None and steps(failed, "record") == [("failed", "recording could not start")]
    assert failed.disposition == "ANSWERED"  # the call goes on either way


async def test_a_call_hung_up_from_the_portal() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid)
        published = json.dumps(HangupRequest(linkedid=linkedid, by=7))  # as the API publishes it
        b.bridge.events.dispatch(names.HANGUP_REQUESTS, {"type": names.HANGUP_REQUESTS, "data": published})
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "portal")
    assert last(done) == ("hangup", "stopped", "ANSWERED") and done.trail[-1]["user_id"] == 7
    assert b.ari.made("hangup") == [("hangup", linkedid, "normal")]


def paying_customer(balance: str) -> User:
    """A customer charged 1.00 a second of talk time to its target (+1...), `balance` in its wallet."""
    tariff = save(Tariff(name="Per second"))
    rate = Rate(
        tariff_id=tariff.id or 0,
        prefix="1",
        rate_per_minute=Decimal(60),
        initial_increment=1,
        billing_increment=1,
        effective_from=now() - timedelta(days=1),
    )
    save(rate)
    user = customer(balance=balance, tariff_id=tariff.id)
    desk(line(user), "Acme desk", trunk_id=trunk("carrier").id)
    return user


async def test_credit_running_out_plays_goodbye_to_both_sides() -> None:
    paying_customer(balance="6")
    # Six seconds paid for, no more: the goodbye is due at once with these timings.
    async with bridge(Timing(extend_ahead=3600, warning=3600, goodbye=1, row_wait=1)) as b:
        b.ari.variables["BRIDGEPEER"] = "PJSIP/trunk-1-00000001"
        linkedid = b.call()
        await b.dialled(linkedid)
        b.dialplan_says(linkedid, names.ANSWERED_EVENT, Attempt="1")  # ends at once: not waited for
        done = await b.ended(linkedid)
    ((action, fields),) = b.ami.actions
    assert action == "Redirect" and fields["ExtraChannel"] == "PJSIP/trunk-1-00000001"
    assert fields["Context"] == fields["ExtraContext"] == names.GOODBYE_CONTEXT
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "system")
    assert steps(done, "credit")[-1] == ("stopped", "credit ran out after 6 s of talk time")


async def test_without_ami_a_call_out_of_credit_is_hung_up() -> None:
    user = paying_customer(balance="6")
    async with bridge(Timing(warning=0, goodbye=1, row_wait=1)) as b:
        b.ami.connected = False
        linkedid = b.call()
        await b.dialled(linkedid)
        change(User, user.id or 0, balance=Decimal(0))  # spent meanwhile: not a second is paid for
        b.dialplan_says(linkedid, names.ANSWERED_EVENT, Attempt="1")  # ends at once: not waited for
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "system")
    assert steps(done, "credit")[-1] == ("stopped", "credit ran out after 0 s of talk time")
    assert b.ari.made("hangup") == [("hangup", linkedid, "normal")] and b.ami.actions == []


# --- bridge restarts ----------------------------------------------------------------------------


def open_row(ln: Line, target: Target, connected: bool) -> Call:
    started = now() - timedelta(seconds=30)
    talking = started + timedelta(seconds=5) if connected else None
    return save(
        Call(
            linkedid="1763000000.900",
            user_id=ln.user.id,
            campaign_id=ln.campaign.id,
            number_id=ln.number.id,
            did=ln.number.number,
            caller=CALLER,
            target_id=target.id,
            buyer_id=target.buyer_id,
            trunk_id=target.trunk_id,
            destination=target.destination,
            started_at=started,
            answered_at=talking,
            connected_at=talking,
            disposition="ANSWERED" if connected else "FAILED",
            trail=[{"step": "dial", "result": "passed", "reason": "target answered"}],
        )
    )


async def test_a_restarted_bridge_takes_back_a_call_still_talking() -> None:
    ln, (acme,) = dialled_line("Acme desk")
    talking = open_row(ln, acme, connected=True)
    async with bridge() as b:
        b.ari.dialplan.add(talking.linkedid)  # it talks on in the dialplan
        await b.bridge.reconciler.reconcile()
        shown = await b.ctx.live.get(talking.linkedid)
        b.ari.end(talking.linkedid, by="target")
        done = await b.ended(talking.linkedid)
    assert shown is not None and (shown["state"], shown["target_id"]) == ("connected", acme.id)
    assert (done.disposition, done.hangup_by, done.source) == ("ANSWERED", "target", "bridge")
    assert steps(done, "bridge") == [("passed", "the bridge restarted and took the call back")]
    assert done.talk_seconds >= 25 and done.connected_at == talking.connected_at


async def test_a_restarted_bridge_ends_a_call_it_can_not_pick_up_halfway() -> None:
    ln, (acme,) = dialled_line("Acme desk")
    routing = open_row(ln, acme, connected=False)
    async with bridge() as b:
        b.ari.stasis.add(routing.linkedid)
        await b.bridge.reconciler.reconcile()
        await b.ctx.rows.flush()
    done = row(routing.linkedid)
    assert b.ari.made("hangup") == [("hangup", routing.linkedid, "normal")]
    assert (done.disposition, done.hangup_by, done.source) == ("FAILED", "system", "reconciled")
    assert last(done) == ("reconciled", "stopped", "FAILED") and b.rated == [routing.linkedid]


async def test_stopping_lets_calls_in_the_dialplan_go_and_fails_those_still_routing() -> None:
    ln, _ = dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4)
    async with bridge(Timing(digit=30)) as b:
        in_ivr = b.call()
        await b.live_until(in_ivr, lambda shown: shown is not None and shown["state"] == "ivr")
        change(Campaign, ln.campaign.id or 0, ivr_enabled=False)
        ringing = b.call()
        await b.dialled(ringing)
        await b.bridge.flows.stop(timeout=0.05)
        # The calls still routing are cancelled as the process exits: each is failed and hung up.
        waiting = list(b.bridge.flows.tasks)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        await b.ctx.rows.flush()
    assert last(row(in_ivr)) == ("bridge", "stopped", "FAILED") and row(in_ivr).ended_at is not None
    assert row(ringing).ended_at is None  # it goes on: the next bridge's reconciliation has it
    assert b.ctx.channels == {} and await b.ctx.live.linkedids() == set()


async def test_a_call_whose_end_never_came_is_completed_at_the_second_sweep() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.ctx.rows.flush()  # its row is in: the reconciliation sees it open
        b.ari.dialplan.discard(linkedid)  # gone in Asterisk, and AMI never told
        await b.bridge.reconciler.reconcile()
        assert linkedid in b.ctx.channels  # once may be a race with the end on its way
        await b.bridge.reconciler.reconcile()
        await b.ctx.rows.flush()
        done = row(linkedid)
    assert (done.disposition, done.source, done.hangup_by) == ("FAILED", "reconciled", "system")
    assert b.ctx.channels == {} and b.rated == [linkedid]


async def test_calls_of_an_asterisk_that_restarted_are_completed_at_once() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.ctx.rows.flush()
        await b.bridge.reconciler.reconcile()  # connected: the Asterisk it knows
        b.ari.dialplan.discard(linkedid)  # the node's Asterisk died holding the call...
        b.ari.started = "boot 2"  # ...and is back: no end of the call will ever come
        await b.bridge.reconciler.reconcile()
        await b.ctx.rows.flush()
        done = row(linkedid)
    assert (done.source, done.hangup_by, done.hangup_cause) == ("reconciled", "system", 38)
    assert b.ctx.channels == {} and b.rated == [linkedid]


# --- the event table ----------------------------------------------------------------------------


async def test_asterisk_is_asked_only_for_the_events_the_table_reads() -> None:
    async with bridge() as b:
        ari_events = b.bridge.events.names(Source.ARI)
        b.bridge.events.dispatch_ari({"type": "ChannelVarset", "channel": {"id": "nobody"}})  # dropped
    assert set(ari_events) == {
        "StasisStart",
        "StasisEnd",
        "PlaybackFinished",
        "ChannelDtmfReceived",
        "ChannelStateChange",
        "ChannelHangupRequest",
    }
    assert set(b.bridge.events.names(Source.AMI)) == {
        names.ATTEMPT_EVENT,
        names.ANSWERED_EVENT,
        names.END_EVENT,
    }
    assert set(b.bridge.events.names(Source.PUBSUB)) == {names.TRUNK_CHANGES, names.HANGUP_REQUESTS}


async def test_the_customer_is_never_shown_a_call_of_another() -> None:
    _, (acme,) = dialled_line("Acme desk")
    other = customer(name="Bob Customer")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.live_until(linkedid, lambda shown: shown is not None)
        mine = await b.redis.smembers(names.live_user_key(acme.user_id))
        theirs = await b.redis.smembers(names.live_user_key(other.id or 0))
        b.ari.end(linkedid)
        await b.ended(linkedid)
    assert (mine, theirs) == ({linkedid}, set())


# --- whisper: the target hears the campaign's message before it is connected ---------------------


async def test_a_whispered_call_plays_the_message_to_the_target_and_talks_from_the_bridge(
    tmp_path, espeak_ng
) -> None:
    ln, _ = dialled_line("Acme desk", record=True)
    sound = whisper(ln.campaign.id or 0)
    picked = now().replace(microsecond=0)
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(tmp_path)
        linkedid = b.call()
        await b.dialled(linkedid)
        _, _, _, variables = await b.ari.requested("continue", linkedid)
        # Dial plays the file the bridge put there to the target (A()), then runs the campaign's own
        # answer routine (recording), then bridges.
        assert str(variables["CR_PLAN"]).split("^")[1] == names.RECORDED_ANSWER
        assert variables["CR_WHISPER"] == f"A({names.WHISPER_SOUNDS}/{sound.sha256})"
        assert (tmp_path / f"{sound.sha256}.wav").read_bytes() == sound.audio
        bridged = picked.timestamp() + 2.5  # by Asterisk's clock: raised once the message was played
        await b.answered(linkedid, At=f"{bridged:.6f}", Recording="/spool/recording/call.wav")
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{bridged + 10:.6f}")
        done = await b.ended(linkedid)
    # Talk time and billsec start at the bridge (the answer event's time), after the message.
    assert done.connected_at == done.answered_at == picked + timedelta(seconds=2.5)
    assert (done.talk_ms, done.billsec_ms, done.billsec) == (10000, 10000, 10)
    heard = [e for e in done.trail if e["step"] == "whisper"]
    assert [(e["result"], e["ms"], e["sound"]) for e in heard] == [("passed", sound.ms, sound.sha256)]
    order = [e["step"] for e in done.trail if e["step"] in ("dial", "whisper", "record")]
    assert order == ["dial", "whisper", "record"]


async def test_a_whisper_whose_audio_could_not_be_placed_connects_without_it(tmp_path, espeak_ng) -> None:
    ln, _ = dialled_line("Acme desk")
    whisper(ln.campaign.id or 0)
    blocked = tmp_path / "sounds"
    blocked.write_text("a file where the folder should be")  # nothing can be written into it
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(blocked)
        linkedid = b.call()
        await b.dialled(linkedid)
        _, _, _, variables = await b.ari.requested("continue", linkedid)
        assert "CR_WHISPER" not in variables
        await b.answered(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert done.disposition == "ANSWERED"
    assert steps(done, "whisper") == [
        ("failed", "the whisper's audio could not be put where Asterisk plays it; connected without it")
    ]


async def test_a_call_that_ends_during_the_whisper_never_connects(tmp_path, espeak_ng) -> None:
    ln, _ = dialled_line("Acme desk")
    whisper(ln.campaign.id or 0)
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(tmp_path)
        target_left, caller_left = b.call(), b.call()
        for linkedid in (target_left, caller_left):
            await b.dialled(linkedid)
        # Dial answered the target (DIALSTATUS ANSWER) but the call ended before the bridge.
        end = {"Status": "ANSWER", "Cause": "16", "At": "1763000000.5"}
        b.dialplan_says(target_left, names.END_EVENT, By="target", **end)
        b.dialplan_says(caller_left, names.END_EVENT, By="", **end)
        rows = [await b.ended(target_left), await b.ended(caller_left)]
    assert [(r.disposition, r.hangup_by, r.connected_at, r.billsec) for r in rows] == [
        ("NO ANSWER", "target", None, 0),
        ("NO ANSWER", "caller", None, 0),
    ]
    assert all("during the whisper" in r.trail[-1]["reason"] for r in rows)
