"""The bridge and Asterisk failing under real calls: no call row lost, nothing to restart by hand."""

import asyncio
import signal
from pathlib import Path

import pytest

from asterisk_config import runtime
from asterisk_config.testing import AsteriskUnderTest
from tests.asterisk.calls import call, running_bridge, seed_plan, sipp_target, wait_registered
from tests.asterisk.test_calls import CALLER, calls, wait_live

pytestmark = pytest.mark.asterisk


async def test_bridge_killed_mid_call_then_restarted_leaves_one_complete_row(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port])
        with running_bridge(asterisk, tmp_path / "bridge-1.log") as first:
            caller = asyncio.create_task(
                call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=8000)
            )
            assert await wait_live(lambda c: c.get("state") == "connected") is not None
            first.send_signal(signal.SIGKILL)
            first.wait()
        with running_bridge(asterisk, tmp_path / "bridge-2.log"):
            log = await asyncio.wait_for(caller, 30)
            rows = calls()
    assert "final=SIP/2.0 200" in log and "ended_by=caller" in log
    (row,) = rows
    assert row.disposition == "ANSWERED" and row.ended_at is not None and row.hangup_by == "caller"
    assert 6 <= row.billsec <= 10, row.billsec
    assert any(e["step"] == "bridge" for e in row.trail)


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
        plan = seed_plan([target.port])
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1500)
    assert "final=SIP/2.0 200" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.target_id == plan.targets[0]
