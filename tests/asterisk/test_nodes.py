"""Two nodes (Asterisk + bridge each) behind Kamailio on loopback: carriers let in by address, calls
spread over both nodes with one row each, a concurrency cap held across nodes, a portal hang-up
reaching the node that holds the call, and a dead node left out until it answers again."""

import asyncio
import os
import signal
from functools import partial
from pathlib import Path

from sqlmodel import select

from asterisk_config import runtime
from core.db import session_scope
from core.models import Call, Target
from testkit.asterisk import Plan, calls, live_calls, seed_plan, trunk_pushed, wait_live
from testkit.nodes import Cluster, let_carrier_in, node_probed
from testkit.sipp import call, call_many, sipp_target
from testkit.waiting import eventually, eventually_async


def callers(count: int) -> list[str]:
    return [f"+4479110{index:05d}" for index in range(count)]


def seed(cluster: Cluster, ports: list[int], **campaign: object) -> Plan:
    """The plan, its trunks pushed to every node."""
    plan = seed_plan(ports, **campaign)
    for node in cluster.nodes:
        for trunk_id, port in zip(plan.trunks, ports, strict=True):
            eventually(partial(trunk_pushed, node.asterisk, trunk_id, port), what=f"trunk in {node.node_id}")
    let_carrier_in(cluster.kamailio)
    return plan


async def test_carriers_by_address_and_calls_spread_over_both_nodes_one_row_each(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed(cluster, [target.port])
        let_carrier_in(cluster.kamailio, active=False)  # the trunk paused in the portal: no restart anywhere
        refused = await call(sipp_binary, ast, plan.did, "+447911000999", tmp_path, port=cluster.sip_port)
        let_carrier_in(cluster.kamailio)
        logs = await call_many(
            sipp_binary, ast, plan.did, callers(20), tmp_path, [800] * 20, parallel=10, port=cluster.sip_port
        )
    assert "final=SIP/2.0 403" in refused
    assert all("final=SIP/2.0 200" in log for log in logs)
    rows = calls(20)
    assert len(rows) == len({r.linkedid for r in rows}) == 20  # the refused call never reached a node
    assert {r.disposition for r in rows} == {"ANSWERED"}
    per_node = {n.node_id: sum(cluster.node_of(r.linkedid) == n.node_id for r in rows) for n in cluster.nodes}
    assert min(per_node.values()) >= 6, per_node  # each node took at least 30 %


async def test_a_concurrency_cap_of_3_holds_across_both_nodes(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed(cluster, [target.port])
        with session_scope() as s:
            s.get(Target, plan.targets[0]).concurrency_cap = 3
        logs = await call_many(
            sipp_binary, ast, plan.did, callers(10), tmp_path, [5000] * 10, parallel=10, port=cluster.sip_port
        )
        invites = target.invites()
    rows = calls(10)
    connected = [r for r in rows if r.connected_at is not None]
    assert sum("final=SIP/2.0 200" in log for log in logs) == len(connected) == invites == 3, [
        r.trail for r in rows
    ]
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}
    busy = [r for r in rows if r.connected_at is None]
    assert {(r.disposition, r.sip_status) for r in busy} == {("NO_ROUTE", 486)}


async def test_a_portal_hang_up_reaches_the_node_holding_the_call(
    cluster: Cluster, sipp_binary: str, tmp_path: Path, client, admin
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed(cluster, [target.port])
        placed = [
            asyncio.create_task(
                call(sipp_binary, ast, plan.did, caller, tmp_path, talk_ms=30000, port=cluster.sip_port)
            )
            for caller in callers(2)
        ]

        def both_connected() -> list[str]:
            up = [c["linkedid"] for c in live_calls() if c.get("state") == "connected"]
            assert len(up) == 2, up
            return up

        linkedids = await eventually_async(both_connected, what="two calls connected")
        assert {cluster.node_of(linkedid) for linkedid in linkedids} == {"n1", "n2"}
        for linkedid in linkedids:
            r = await asyncio.to_thread(
                client.post, "/api/report/callHangUp", headers=admin.headers, json={"linkedid": linkedid}
            )
            assert r.status_code == 200, r.text
        logs = await asyncio.wait_for(asyncio.gather(*placed), 20)
    assert all("ended_by=network" in log for log in logs)
    rows = calls(2)
    assert [(r.disposition, r.hangup_by) for r in rows] == [("ANSWERED", "portal")] * 2


async def test_a_dead_node_is_left_out_and_taken_back_when_it_answers(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed(cluster, [target.port])
        talking = asyncio.create_task(
            call(sipp_binary, ast, plan.did, "+447911555000", tmp_path, talk_ms=4000, port=cluster.sip_port)
        )
        first = await wait_live(lambda c: c.get("state") == "connected")
        # The node holding the call dies.
        dead, alive = sorted(cluster.nodes, key=lambda n: n.node_id != cluster.node_of(first["linkedid"]))
        pid = runtime.running_pid(dead.asterisk.settings)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # mid-run, with a call on one of the nodes
        await eventually_async(
            lambda: node_probed(cluster.kamailio, dead.asterisk, False), 15, what="the dead node probed out"
        )
        logs = await call_many(
            sipp_binary, ast, plan.did, callers(6), tmp_path, [500] * 6, parallel=3, port=cluster.sip_port
        )
        runtime.stop(dead.asterisk.settings)
        runtime.start(dead.asterisk.settings)  # back: its bridge reconnects, Kamailio's probes find it
        await eventually_async(
            lambda: node_probed(cluster.kamailio, dead.asterisk, True), 20, what="the node probed back"
        )
        await talking
    assert all("final=SIP/2.0 200" in log for log in logs)
    with session_scope() as s:
        after = s.exec(select(Call).where(Call.linkedid != first["linkedid"])).all()
    assert len(after) == 6 and {cluster.node_of(r.linkedid) for r in after} == {alive.node_id}
    # The call the dead node held ends as a complete row once its node is back (reconciliation).
    lost = next(r for r in calls(7, timeout=30) if r.linkedid == first["linkedid"])
    assert (lost.disposition, lost.source, lost.hangup_cause) == ("ANSWERED", "reconciled", 38)
