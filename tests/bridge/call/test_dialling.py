"""Dialling (pbx_bridge.call.dialling, .claims) against a fake Asterisk: the plan sent to the
dialplan, failover, claims on caps and the repeat caller, busy, no answer, abandoned."""

from functools import partial

from core.infra import names
from core.infra.db import session_scope
from core.models import Target
from testkit.rows import desk, line, trunk
from testkit.waiting import eventually_async
from tests.bridge.call.trail import dialled_line, ended_row, last, steps
from tests.bridge.fakes import WAIT, bridge, row

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


async def test_a_repeat_caller_never_rings_a_buyer_its_other_call_holds_and_a_busy_one_is_given_back() -> (
    None
):
    """`other_buyer`: the first call rings Acme; the same caller's second call, chosen while the
    database knew of no buyer reached, skips Acme (held) and rings Beta. Acme busy gives Acme back,
    the first call's failover finds Beta held and ends busy; a third call may ring Acme again."""
    repeats = {"duplicate_action": "other_buyer", "duplicate_window_seconds": 3600}
    _, (acme, beta) = dialled_line("Acme desk", "Beta desk", **repeats)
    async with bridge() as b:
        first = b.call()
        assert len(await b.dialled(first)) == 2
        second = b.call()
        endpoints = await b.dialled(second)
        assert len(endpoints) == 1, "Acme is held by the caller's first call"
        await b.live_until(second, lambda shown: shown is not None and shown["target_id"] == beta.id)
        b.dialplan_says(first, names.ATTEMPT_EVENT, Attempt="1", Status="BUSY", SIP="SIP 486 Busy Here")
        b.ari.end(first, cause="17")
        busy = await eventually_async(partial(ended_row, first), WAIT)
        assert busy.disposition == "BUSY", busy.trail
        assert f"buyer {beta.buyer_id} reached by caller" in steps(busy, "target")[-1][1]
        third = b.call()
        assert len(await b.dialled(third)) == 2  # Acme was given back (Beta, held, would be skipped)
        await b.live_until(third, lambda shown: shown is not None and shown["target_id"] == acme.id)
        await b.answered(second)
        b.ari.end(second, by="target")
        b.ari.end(third)
        assert (await eventually_async(partial(ended_row, second), WAIT)).disposition == "ANSWERED"
        await eventually_async(partial(ended_row, third), WAIT)
        fourth = b.call()  # Beta connected within the window: this caller reaches Acme only
        assert len(await b.dialled(fourth)) == 1
        await b.live_until(fourth, lambda shown: shown is not None and shown["target_id"] == acme.id)
        b.ari.end(fourth)
        await b.ended(fourth)


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
