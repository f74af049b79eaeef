"""The conductor (pbx_bridge.call.flow) and the calls a bridge follows (pbx_bridge.flows) against a
fake Asterisk: restarts taken back or ended, stopping, the event table, who is shown which call."""

import asyncio
from datetime import timedelta

from core.infra import names
from core.models import Call, Campaign, Target
from pbx_bridge.call.context import Timing
from pbx_bridge.events import Source
from testkit.rows import CALLER, Line, change, customer, save
from testkit.waiting import eventually_async
from tests.bridge.call.trail import dialled_line, last, steps
from tests.bridge.fakes import bridge, now, row

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


async def test_the_callers_events_no_call_reads_are_dropped_before_they_reach_it() -> None:
    """ARI's filter allows by type only: once the caller's channel is followed in the dialplan, its
    every state change, hang-up request and digit comes. Those no call reads never wake its task."""
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        caller = b.ctx.channels[linkedid].caller
        await eventually_async(lambda: caller.in_dialplan and caller.queue.empty())
        ringing = {"type": "ChannelStateChange", "channel": {"id": linkedid, "state": "Ringing"}}
        b.bridge.events.dispatch_ari(ringing)
        b.caller_hung_up(linkedid, now(), soft=True)
        b.dtmf(linkedid, "5")
        assert caller.queue.empty()
        b.caller_answered(linkedid, now())  # what a call reads still reaches it
        assert caller.queue.qsize() == 1
        b.ari.end(linkedid)
        await b.ended(linkedid)


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
