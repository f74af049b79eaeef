"""A node gone for good (pbx_bridge.lost_nodes): another bridge completes its open calls once it has
been absent from the node registry for NODE_GONE_SECONDS, and not before; a node that beats again
(a Redis that restarted empty) starts the count over. The real-call proof is
tests/asterisk/test_nodes.py."""

import asyncio
from datetime import UTC, timedelta

from core.calls.record import CallState
from core.infra.settings import get_settings
from core.models import Call, ChannelEvent
from core.pbx import node_registry
from pbx_bridge import cel
from pbx_bridge.lost_nodes import LostNodes, nodes_with_missed_calls, nodes_with_open_calls
from testkit.rows import Line, line, save
from tests.bridge.fakes import bridge, now, row

HERE = node_registry.NodeAddress("127.0.0.1", 8088)


def open_call(linkedid: str, ln: Line) -> Call:
    """A call still talking, as its node's bridge last wrote it."""
    started = now() - timedelta(minutes=2)
    return save(
        Call(
            linkedid=linkedid,
            user_id=ln.user.id,
            campaign_id=ln.campaign.id,
            number_id=ln.number.id,
            did=ln.number.number,
            caller="+447911123456",
            started_at=started,
            connected_at=started + timedelta(seconds=5),
            disposition="ANSWERED",  # provisional, as the bridge writes a talking call
        )
    )


async def test_a_node_absent_for_node_gone_seconds_has_its_calls_completed_and_no_other() -> None:
    gone = get_settings().node_gone_seconds
    ln = line()
    lost, beating, own = (open_call(i, ln) for i in ("n9-1763000000.1", "n8-1763000000.2", "1763000000.3"))
    assert nodes_with_open_calls() == {"n9", "n8"}  # the only node's calls name none
    clock = [0.0]
    async with bridge() as b:
        b.ctx.node_id = "n1"
        await b.ctx.live.put(CallState.of_row(lost).live())
        watch = LostNodes(b.ctx, b.redis, b.bridge.reconciler, clock=lambda: clock[0])
        await node_registry.beat(b.redis, "n8", HERE)
        await watch.look()  # n9 first found absent
        clock[0] = gone - 1
        await watch.look()
        await b.ctx.rows.flush()
        assert row(lost.linkedid).ended_at is None
        clock[0] = gone
        await watch.look()
        await b.ctx.rows.flush()
        assert await b.ctx.live.get(lost.linkedid) is None
    done = row(lost.linkedid)
    assert (done.disposition, done.source, done.hangup_by, done.hangup_cause) == (
        "ANSWERED",
        "reconciled",
        "system",
        38,
    )
    assert done.ended_at is not None and b.rated == [lost.linkedid]
    assert row(beating.linkedid).ended_at is None and row(own.linkedid).ended_at is None


async def test_a_node_that_beats_again_starts_the_count_over() -> None:
    gone = get_settings().node_gone_seconds
    call = open_call("n9-1763000000.4", line())
    clock = [0.0]
    async with bridge() as b:
        b.ctx.node_id = "n1"
        watch = LostNodes(b.ctx, b.redis, b.bridge.reconciler, clock=lambda: clock[0])
        await watch.look()  # absent (say Redis restarted empty)
        clock[0] = gone / 2
        await node_registry.beat(b.redis, "n9", HERE)  # its next beat
        await watch.look()
        await b.redis.delete("node:n9")
        clock[0] = gone
        await watch.look()  # absent again, since now
        clock[0] = gone * 1.5 - 1
        await watch.look()
        await b.ctx.rows.flush()
    assert row(call.linkedid).ended_at is None and b.rated == []


def refused_while_its_bridge_was_down(linkedid: str, ln: Line) -> None:
    """A call the node's Asterisk took and ended at once (its bridge was down): only in its record."""
    at = (now() - timedelta(minutes=1)).astimezone(UTC).replace(tzinfo=None)
    for kind in ("CHAN_START", "APP_START", "HANGUP", "LINKEDID_END"):
        save(
            ChannelEvent(
                eventtype=kind,
                eventtime=at,
                uniqueid=linkedid,
                linkedid=linkedid,
                exten=ln.number.number,
                cid_num="+447911123456",
                appname="Stasis",
                extra='{"hangupcause":34}' if kind == "HANGUP" else None,
            )
        )


async def test_a_lost_nodes_calls_without_a_row_are_written_once_by_two_bridges_at_once() -> None:
    """Both surviving bridges find node n9 gone at the same beat: its refused call gets one row, as
    Asterisk ended it; n9 returning later finds nothing missing."""
    gone = get_settings().node_gone_seconds
    ln = line()
    missed = "n9-1763000000.6"
    refused_while_its_bridge_was_down(missed, ln)
    assert nodes_with_missed_calls(now()) == {"n9"} and nodes_with_open_calls() == set()
    clock = [0.0]
    async with bridge() as one, bridge() as two:
        one.ctx.node_id, two.ctx.node_id = "n1", "n2"
        watches = [LostNodes(b.ctx, b.redis, b.bridge.reconciler, clock=lambda: clock[0]) for b in (one, two)]
        await asyncio.gather(*(w.look() for w in watches))  # n9 first found absent
        clock[0] = gone
        await asyncio.gather(*(w.look() for w in watches))
        await asyncio.gather(one.ctx.rows.flush(), two.ctx.rows.flush())
    done = row(missed)
    assert (done.disposition, done.source, done.hangup_cause) == ("FAILED", "reconciled", 34)
    assert (done.campaign_id, done.number_id, done.ended_at is not None) == (
        ln.campaign.id,
        ln.number.id,
        True,
    )
    assert one.rated + two.rated in ([missed], [missed, missed])  # rating itself runs once per call
    assert nodes_with_missed_calls(now()) == set() and cel.missed_calls(now(), set(), "n9-") == []
