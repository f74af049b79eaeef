"""The bridge and Asterisk failing under real calls: no call row lost, nothing to restart by hand."""

import asyncio
import signal
from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest

from asterisk_config import runtime
from testkit.asterisk import AsteriskUnderTest, calls, running_bridge, seed_plan, wait_live, wait_registered
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually_async

pytestmark = pytest.mark.asterisk


def no_channels_left(ast: AsteriskUnderTest) -> bool:
    left = [c["id"] for c in runtime.ari_get(ast.settings, "/channels")]
    assert not left, f"channels still up in Asterisk: {left}"
    return True


async def talking_when_the_bridge_dies(
    ast: AsteriskUnderTest, sipp: str, did: str, workdir: Path, talk_ms: int
) -> "asyncio.Task[str]":
    """A call placed through a bridge that is SIGKILLed once the call talks; the caller's task."""
    with running_bridge(ast, workdir / "bridge-1.log") as first:
        caller = asyncio.create_task(call(sipp, ast, did, CALLER, workdir, talk_ms=talk_ms))
        assert await wait_live(lambda c: c.get("state") == "connected") is not None
        first.send_signal(signal.SIGKILL)
        first.wait()
    return caller


async def test_bridge_killed_mid_call_then_restarted_leaves_one_complete_row(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port])
        caller = await talking_when_the_bridge_dies(asterisk, sipp_binary, plan.did, tmp_path, talk_ms=8000)
        with running_bridge(asterisk, tmp_path / "bridge-2.log"):
            log = await asyncio.wait_for(caller, 30)
            rows = calls()
    assert "final=SIP/2.0 200" in log and "ended_by=caller" in log
    (row,) = rows
    assert row.disposition == "ANSWERED" and row.ended_at is not None and row.hangup_by == "caller"
    assert 6 <= row.billsec <= 10, row.billsec
    assert any(e["step"] == "bridge" for e in row.trail)


async def test_call_ending_while_the_bridge_is_down_is_completed_from_asterisks_record(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port])
        caller = await talking_when_the_bridge_dies(asterisk, sipp_binary, plan.did, tmp_path, talk_ms=3000)
        log = await asyncio.wait_for(caller, 30)  # the caller hangs up while no bridge runs
        assert "final=SIP/2.0 200" in log and "ended_by=caller" in log
        (open_row,) = calls(count=0)
        assert open_row.ended_at is None
        with running_bridge(asterisk, tmp_path / "bridge-2.log"):
            (row,) = calls()
            # The target's leg, left alone in Asterisk, was hung up: nothing keeps running.
            await eventually_async(partial(no_channels_left, asterisk), interval=0.2)
    assert row.disposition == "ANSWERED" and row.hangup_by == "caller" and row.source == "reconciled"
    # The end is when the caller hung up (Asterisk's record), not when the bridge came back.
    assert row.ended_at is not None and row.answered_at is not None
    assert 2 <= row.billsec <= 5, row.billsec
    assert row.ended_at < open_row.updated_at + timedelta(seconds=6)
    assert row.target_id == plan.targets[0] and row.trail[-1]["step"] == "reconciled"


async def test_call_arriving_while_the_bridge_is_down_is_refused_and_still_gets_a_row(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    plan = seed_plan([])
    log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path)
    # Told as early media and refused (34), not left ringing.
    assert "early_media=183" in log and "final=SIP/2.0 503" in log and "final=SIP/2.0 200" not in log
    with running_bridge(asterisk, tmp_path / "bridge.log"):
        (row,) = calls()
    assert row.disposition == "FAILED" and row.source == "reconciled"
    assert (row.did, row.caller) == (plan.did, CALLER)
    assert row.user_id == plan.user_id and row.campaign_id == plan.campaign_id
    assert "never reached the routing application" in row.trail[-1]["reason"]


async def test_asterisk_restart_the_bridge_reconnects_and_the_next_call_routes(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    with (
        sipp_target(sipp_binary, "answer", tmp_path) as target,
        running_bridge(asterisk, tmp_path / "bridge.log") as bridge,
    ):
        runtime.stop(asterisk.settings, lambda m: None)
        runtime.start(asterisk.settings, lambda m: None)
        await asyncio.to_thread(wait_registered, asterisk, 30)  # by itself: nobody restarts the bridge
        assert bridge.poll() is None
        plan = seed_plan([target.port], pushed_to=asterisk)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1500)
    assert "final=SIP/2.0 200" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.target_id == plan.targets[0]


def test_the_bridge_stops_at_once_when_asked_even_with_no_call_coming_in(
    asterisk: AsteriskUnderTest, tmp_path: Path
) -> None:
    with running_bridge(asterisk, tmp_path / "bridge.log") as bridge:
        bridge.terminate()  # what `make run`'s supervisor does on Ctrl-C
        assert bridge.wait(timeout=5) == 0
