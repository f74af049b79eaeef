"""Two nodes (Asterisk + bridge each) behind Kamailio on loopback: carriers let in by address, calls
spread over both nodes with one row each, a concurrency cap and a wallet held across nodes, a portal
hang-up reaching the node that holds the call, recordings served from the node that made them, a
dead node left out until it answers again, a node gone for good completed by the other (the calls
it refused with no row too), and a repeat caller's calls on both nodes never reaching one buyer."""

import asyncio
import io
import os
import signal
import socket
import wave
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx
from sqlmodel import col, select

from asterisk_config import node_login, runtime
from core.infra.db import session_scope
from core.models import Buyer, Call, ChannelEvent, CreditReservation, Target, User, WalletTransaction
from core.pbx.nodes import linkedid_prefix
from pbx_bridge import cel
from testkit.actors import make_actor
from testkit.asterisk import AsteriskUnderTest, calls, live_calls, wait_live
from testkit.nodes import Cluster, let_carrier_in, node_probed, running_proxy, seed_cluster
from testkit.processes import api_server, free_port, start_worker
from testkit.rows import change, tariff
from testkit.sipp import call, call_many, sipp_target
from testkit.waiting import eventually, eventually_async

REFUSED = "+447911000999"  # calls while its carrier's trunk is paused


def callers(count: int) -> list[str]:
    return [f"+4479110{index:05d}" for index in range(count)]


async def test_carriers_by_address_and_calls_spread_over_both_nodes_one_row_each(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """200 calls from one carrier address, arriving ten a second (about 20 s), spread over both nodes."""
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
        let_carrier_in(cluster.kamailio, active=False)  # the trunk paused in the portal: no restart anywhere
        refused = await call(sipp_binary, ast, plan.did, REFUSED, tmp_path, port=cluster.sip_port)
        let_carrier_in(cluster.kamailio)
        logs = await call_many(
            sipp_binary,
            ast,
            plan.did,
            callers(200),
            tmp_path,
            [500] * 200,
            parallel=20,
            every_ms=100,
            port=cluster.sip_port,
        )
    assert "final=SIP/2.0 403" in refused
    assert sum("final=SIP/2.0 200" in log for log in logs) == 200
    rows = calls(200, timeout=60)
    # The refused call never reached a node, and each call is one row. A failure shows the rows that
    # are not one caller's one call (which call, which node), to tell a duplicate from a stray.
    seen = Counter(r.caller for r in rows)
    odd = [(r.caller, r.linkedid, r.sip_status) for r in rows if seen[r.caller] > 1 or r.caller == REFUSED]
    assert len(rows) == len({r.linkedid for r in rows}) == 200, odd
    assert {r.caller for r in rows} == set(callers(200))
    assert {r.disposition for r in rows} == {"ANSWERED"}
    per_node = {n.node_id: sum(cluster.node_of(r.linkedid) == n.node_id for r in rows) for n in cluster.nodes}
    assert min(per_node.values()) >= 60, per_node  # each node took at least 30 %


async def test_a_concurrency_cap_of_3_holds_across_both_nodes(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
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


async def test_a_failover_targets_cap_holds_across_both_nodes(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """The first target is busy, the second has a concurrency cap of 2: of 8 calls failing over on
    both nodes at once, exactly 2 ring it and connect; the others skip it (claimed before ringing)."""
    ast = cluster.nodes[0].asterisk
    with (
        sipp_target(sipp_binary, "busy", tmp_path) as busy,
        sipp_target(sipp_binary, "answer", tmp_path) as backup,
    ):
        plan = seed_cluster(cluster, [busy.port, backup.port])
        with session_scope() as s:
            s.get(Target, plan.targets[1]).concurrency_cap = 2
        logs = await call_many(
            sipp_binary, ast, plan.did, callers(8), tmp_path, [5000] * 8, parallel=8, port=cluster.sip_port
        )
        rung = backup.invites()
    rows = calls(8)
    connected = [r for r in rows if r.connected_at is not None]
    assert sum("final=SIP/2.0 200" in log for log in logs) == len(connected) == rung == 2, [
        r.trail for r in rows
    ]
    assert {r.target_id for r in connected} == {plan.targets[1]}
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}
    others = [r for r in rows if r.connected_at is None]
    assert {(r.disposition, r.sip_status) for r in others} == {("BUSY", 486)}
    for row in others:
        skipped = [e for e in row.trail if e["step"] == "target" and e["result"] == "skipped"]
        assert skipped and "concurrency cap 2/2" in skipped[-1]["reason"], row.trail


async def test_a_portal_hang_up_reaches_the_node_holding_the_call(
    cluster: Cluster, sipp_binary: str, tmp_path: Path, client, admin
) -> None:
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
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
        plan = seed_cluster(cluster, [target.port])
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
        # Back, provisioned again with a new ARI login: its bridge reconnects with it (read again
        # from the database), Kamailio's probes find it.
        again = node_login.rotated(dead.asterisk.settings)
        assert again.ari_password != dead.asterisk.settings.ari_password
        dead.asterisk = AsteriskUnderTest(again, runtime.start(again))
        await eventually_async(
            lambda: node_probed(cluster.kamailio, dead.asterisk, True), 20, what="the node probed back"
        )
        await talking
    with session_scope() as s:
        after = s.exec(select(Call).where(Call.linkedid != first["linkedid"])).all()
    refused = [log for log in logs if "final=SIP/2.0 200" not in log]
    assert refused == [], [(r.disposition, r.trail[-1:]) for r in after if r.disposition != "ANSWERED"]
    assert len(after) == 6 and {cluster.node_of(r.linkedid) for r in after} == {alive.node_id}
    # The call the dead node held ends as a complete row once its node is back (reconciliation).
    lost = next(r for r in calls(7, timeout=30) if r.linkedid == first["linkedid"])
    assert (lost.disposition, lost.source, lost.hangup_cause) == ("ANSWERED", "reconciled", 38)


async def test_a_wallet_for_4_parallel_calls_holds_across_both_nodes(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """Credit for four calls' first slices (1 cent a second, 60 s slices: 2.40), ten calls answered
    at once on both nodes: four hold a slice, the others are cut, and rated the wallet is overdrawn by
    less than one slice per call that was live."""
    slice_cost = Decimal("0.60")
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        ast = cluster.nodes[0].asterisk
        with sipp_target(sipp_binary, "answer", tmp_path) as target:
            plan = seed_cluster(cluster, [target.port], balance=str(4 * slice_cost))
            change(User, plan.user_id, tariff_id=tariff(("1", "0.60"), increments=(1, 1)))
            await call_many(
                sipp_binary,
                ast,
                plan.did,
                callers(10),
                tmp_path,
                [8000] * 10,
                parallel=10,
                port=cluster.sip_port,
            )
        rows = calls(10, timeout=30)
        assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}

        def rated() -> list[Call]:
            done = calls(10)
            assert all(r.rating_status != "pending" for r in done), [r.rating_status for r in done]
            return done

        rows = await eventually_async(rated, timeout=30, what="every call rated")
        with session_scope() as s:
            holds = s.exec(select(CreditReservation).where(CreditReservation.user_id == plan.user_id)).all()
            paid = WalletTransaction.transaction_type == "call"
            debits = s.exec(select(WalletTransaction).where(paid)).all()
            balance = s.get(User, plan.user_id).balance
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)
    held = {h.linkedid for h in holds}
    assert len(held) == 4 and {h.amount for h in holds} == {slice_cost}, holds
    assert all(h.released_at is not None for h in holds)
    for row in rows:
        if row.linkedid in held:  # talked its 8 s on its slice
            assert row.hangup_by != "system" and row.talk_seconds >= 6, row.trail
        else:  # no credit left for it: the platform ended it
            assert row.hangup_by == "system", row.trail
        assert (row.cost or 0) <= slice_cost
    costs = sum((r.cost or Decimal(0) for r in rows), Decimal(0))
    assert sorted(-d.amount for d in debits) == sorted(r.cost for r in rows if r.cost)
    assert balance == 4 * slice_cost - costs
    assert balance >= -slice_cost * len(rows)


async def test_recordings_download_from_whichever_node_recorded_them(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """The portal finds each call's node in the registry the bridges beat into, and asks its ARI with
    that node's own login (no ARI login of its own: the nodes' are in the database)."""
    ast = cluster.nodes[0].asterisk
    assert len({node.asterisk.settings.ari_password for node in cluster.nodes}) == 2
    with sipp_target(sipp_binary, "answer", tmp_path) as target, api_server(ARI_PASSWORD="") as base:
        plan = seed_cluster(cluster, [target.port], record=True)
        admin = make_actor(1, "Ada Admin")
        await asyncio.gather(  # speaking, for audio to record; round robin puts them on both nodes
            *(
                call(sipp_binary, ast, plan.did, caller, tmp_path, 3000, speak=True, port=cluster.sip_port)
                for caller in callers(2)
            )
        )
        rows = calls(2)
        async with httpx.AsyncClient(base_url=base, timeout=20) as http:
            got = [await http.get(f"/api/report/recording/{r.id}", headers=admin.headers) for r in rows]
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}
    assert [r.recording for r in rows] == [f"call-{r.linkedid}" for r in rows]
    for wav, row in zip(got, rows, strict=True):
        assert wav.status_code == 200 and wav.headers["content-type"] == "audio/wav", wav.text[:300]
        with wave.open(io.BytesIO(wav.content)) as audio:
            assert abs(audio.getnframes() / audio.getframerate() - row.billsec) <= 1.5


async def test_a_node_gone_for_good_has_its_calls_completed_by_the_other(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """A node's machine stops (its bridge frozen, its Asterisk killed) with a call connected: the other
    bridge, once the node has not beaten for NODE_GONE_SECONDS, completes its row from Asterisk's
    record and takes it off the live view. The node is thawed after, for the module's other tests."""
    ast = cluster.nodes[0].asterisk
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
        talking = asyncio.create_task(
            call(sipp_binary, ast, plan.did, "+447911666000", tmp_path, talk_ms=4000, port=cluster.sip_port)
        )
        up = await wait_live(lambda c: c.get("state") == "connected")
        gone = next(n for n in cluster.nodes if n.node_id == cluster.node_of(up["linkedid"]))
        pid = runtime.running_pid(gone.asterisk.settings)
        assert pid is not None
        os.kill(gone.bridge.pid, signal.SIGSTOP)
        try:
            os.kill(pid, signal.SIGKILL)

            def completed() -> Call:
                with session_scope() as s:
                    row = s.exec(select(Call).where(Call.linkedid == up["linkedid"])).one()
                assert row.ended_at is not None, row.trail
                return row

            row = await eventually_async(completed, 30, what="the lost node's call completed")
            assert not live_calls()
        finally:
            os.kill(gone.bridge.pid, signal.SIGCONT)
            runtime.stop(gone.asterisk.settings)
            runtime.start(gone.asterisk.settings)
        await eventually_async(
            lambda: node_probed(cluster.kamailio, gone.asterisk, True), 20, what="the node probed back"
        )
        await asyncio.wait_for(talking, 40)
    assert row.linkedid == up["linkedid"]
    ended = (row.disposition, row.source, row.hangup_cause, row.hangup_by)
    assert ended == ("ANSWERED", "reconciled", 38, "system")
    assert row.ended_at is not None and row.connected_at is not None and row.ended_at >= row.connected_at


async def test_a_repeat_callers_calls_on_both_nodes_at_once_never_reach_one_buyer(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """`other_buyer`: four calls of one caller at once, on both nodes, two targets of two buyers that
    both answer. Each call claims its buyer with its target's slot (Redis, one script): exactly two
    connect, one to each buyer; the others find both held and end unconnected."""
    ast = cluster.nodes[0].asterisk
    with (
        sipp_target(sipp_binary, "answer", tmp_path) as first,
        sipp_target(sipp_binary, "answer", tmp_path) as second,
    ):
        plan = seed_cluster(
            cluster, [first.port, second.port], duplicate_action="other_buyer", duplicate_window_seconds=3600
        )
        with session_scope() as s:
            owner = s.get(Target, plan.targets[1])
            other = Buyer(user_id=owner.user_id, name="Other buyer")
            s.add(other)
            s.flush()
            owner.buyer_id = other.id or 0
        logs = await call_many(
            sipp_binary,
            ast,
            plan.did,
            ["+447911777000"] * 4,
            tmp_path,
            [4000] * 4,
            parallel=4,
            port=cluster.sip_port,
        )
        rung = first.invites() + second.invites()
    rows = calls(4)
    connected = [r for r in rows if r.connected_at is not None]
    assert sum("final=SIP/2.0 200" in log for log in logs) == len(connected) == rung == 2, [
        r.trail for r in rows
    ]
    assert len({r.buyer_id for r in connected}) == 2  # one call to each buyer
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}
    for row in (r for r in rows if r.connected_at is None):
        skipped = [e["reason"] for e in row.trail if e["step"] == "target" and e["result"] == "skipped"]
        assert any("reached by caller" in why for why in skipped), row.trail


async def test_a_lost_nodes_calls_refused_without_a_row_are_written_by_the_other(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """A node's bridge stops and calls reach it with no other node to send them to (Kamailio's last
    node: here sent to it directly): its Asterisk refuses them (no row), then dies too. The other
    bridge writes one row per refused call from Asterisk's record (CEL), and rating takes each once.
    The node comes back later and adds none."""
    ast = cluster.nodes[0].asterisk
    lost, alive = cluster.nodes[1], cluster.nodes[0]
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        with sipp_target(sipp_binary, "answer", tmp_path) as target:
            plan = seed_cluster(cluster, [target.port])
            lost.bridge.send_signal(signal.SIGKILL)
            lost.bridge.wait(timeout=10)
            logs = await call_many(
                sipp_binary,
                ast,
                plan.did,
                callers(6),
                tmp_path,
                [500] * 6,
                parallel=1,
                port=lost.asterisk.settings.sip_port,
            )
            refused_calls = sum("final=SIP/2.0 200" not in log for log in logs)

            def recorded() -> bool:  # Asterisk writes its record a moment after a call ends
                with session_scope() as s:
                    ends = select(ChannelEvent).where(
                        ChannelEvent.eventtype == "LINKEDID_END",
                        col(ChannelEvent.linkedid).startswith(f"{lost.node_id}-"),
                    )
                    return len(s.exec(ends).all()) == refused_calls

            await eventually_async(recorded, 15, what="the refused calls in Asterisk's record")
            pid = runtime.running_pid(lost.asterisk.settings)
            assert pid is not None
            os.kill(pid, signal.SIGKILL)  # its machine is gone: no bridge of its own will write them

            def written() -> list[Call]:
                with session_scope() as s:
                    rows = list(s.exec(select(Call).order_by(Call.id)).all())
                done = [r for r in rows if r.ended_at is not None and r.rating_status != "pending"]
                assert len(rows) == len(done) == 6, [(r.linkedid, r.rating_status) for r in rows]
                return rows

            rows = await eventually_async(written, 30, what="every call has a rated row")
            refused = [r for r in rows if cluster.node_of(r.linkedid) == lost.node_id]
            assert refused and len(refused) == refused_calls, [(r.linkedid, r.disposition) for r in rows]
            assert {(r.disposition, r.source) for r in refused} == {("FAILED", "reconciled")}, refused[
                0
            ].trail
            assert {r.caller for r in rows} == set(callers(6))  # one row per call
            runtime.stop(lost.asterisk.settings)
            runtime.start(lost.asterisk.settings)
            cluster.start_bridge(lost)  # back later: its own reconciliation finds nothing missing
            await eventually_async(
                lambda: node_probed(cluster.kamailio, lost.asterisk, True), 20, what="the node probed back"
            )
            more = await call_many(
                sipp_binary, ast, plan.did, callers(2), tmp_path, [500] * 2, parallel=1, port=cluster.sip_port
            )
        assert all("final=SIP/2.0 200" in log for log in more)
        after = calls(8)
        assert len(after) == 8 and {cluster.node_of(r.linkedid) for r in after[6:]} == {"n1", "n2"}
        assert [(r.linkedid, r.updated_at) for r in after[:6]] == [(r.linkedid, r.updated_at) for r in rows]
        assert alive.bridge.poll() is None
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)


async def test_calls_sent_to_a_node_killed_a_moment_before_are_answered_by_the_other(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """A node's Asterisk dies and calls arrive before Kamailio's probes notice: the INVITE Kamailio
    sends there gets no answer, so it marks the node out and sends the call to the other node.
    Every call is answered, once, on the node that lives."""
    ast = cluster.nodes[0].asterisk
    dead = cluster.node("n2")
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
        cluster.kill_asterisk(dead)
        try:
            logs = await call_many(
                sipp_binary, ast, plan.did, callers(6), tmp_path, [500] * 6, parallel=6, port=cluster.sip_port
            )
            assert node_probed(cluster.kamailio, dead.asterisk, False)  # out at once, not at its next probe
        finally:
            cluster.start_asterisk(dead)
            await eventually_async(
                lambda: node_probed(cluster.kamailio, dead.asterisk, True), 30, what="the node probed back"
            )
    assert sum("final=SIP/2.0 200" in log for log in logs) == 6, logs
    rows = calls(6)
    assert sorted(r.caller for r in rows) == callers(6)
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1"}


async def test_calls_while_a_nodes_bridge_is_down_are_answered_by_the_other_with_one_row(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """A node whose bridge is away refuses a call at once (503, no early media) when Kamailio says
    another node is left: Kamailio sends it there. No carrier sees a refusal, and the refused attempt
    leaves no row, even once the bridge is back and has looked in Asterisk's record for missed calls.
    With no node left to take it, the node refuses it as a single node does (its row from CEL)."""
    ast = cluster.nodes[0].asterisk
    away = cluster.node("n1")
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_cluster(cluster, [target.port])
        cluster.kill_bridge(away)
        try:
            logs = await call_many(
                sipp_binary, ast, plan.did, callers(6), tmp_path, [500] * 6, parallel=6, port=cluster.sip_port
            )
        finally:
            cluster.start_bridge(away)
        rows = calls(6)

    def refused_on_n1() -> list[str]:  # round robin sent some calls there first
        with session_scope() as s:
            on_n1 = col(ChannelEvent.linkedid).startswith(linkedid_prefix("n1"))
            ended = ChannelEvent.eventtype == "LINKEDID_END"
            linkedids = [str(i) for i in s.exec(select(ChannelEvent.linkedid).where(ended, on_n1))]
        assert linkedids, "no call tried n1"
        return linkedids

    tried = eventually(refused_on_n1, what="n1's refusals in Asterisk's record")
    # What the bridge makes rows of when it returns: none of those (the next node's calls).
    assert cel.missed_calls(datetime.now(UTC), set(), linkedid_prefix("n1")) == [], tried
    assert sum("final=SIP/2.0 200" in log for log in logs) == 6, logs
    assert "early_media=183" not in "".join(logs)
    assert sorted(r.caller for r in rows) == callers(6), [(r.caller, r.linkedid) for r in rows]
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n2"}


async def test_two_kamailios_with_one_config_both_take_calls_to_the_same_nodes(
    cluster: Cluster, sipp_binary: str, tmp_path: Path
) -> None:
    """A second Kamailio, started the same way with the same nodes (on another address or port, as a
    second proxy or a floating address's standby would be): carriers pointed at either are
    answered, each call once, on both nodes; each call's BYE goes through the proxy it came by."""
    ast = cluster.nodes[0].asterisk
    second = replace(
        cluster.kamailio, work_dir=tmp_path / "second" / "kamailio", sip_port=free_port(socket.SOCK_DGRAM)
    )
    with sipp_target(sipp_binary, "answer", tmp_path) as target, running_proxy(second, tmp_path / "k2.log"):
        plan = seed_cluster(cluster, [target.port])
        let_carrier_in(second)
        first_logs, second_logs = await asyncio.gather(
            call_many(
                sipp_binary, ast, plan.did, callers(4), tmp_path, [500] * 4, parallel=4, port=cluster.sip_port
            ),
            call_many(
                sipp_binary,
                ast,
                plan.did,
                callers(8)[4:],
                tmp_path,
                [500] * 4,
                parallel=4,
                port=second.sip_port,
            ),
        )
    assert all("final=SIP/2.0 200" in log and "ended_by=" in log for log in first_logs + second_logs)
    rows = calls(8)
    assert sorted(r.caller for r in rows) == callers(8)
    assert {cluster.node_of(r.linkedid) for r in rows} == {"n1", "n2"}
