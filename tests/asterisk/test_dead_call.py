"""A dead call ends (docs/bridge.md, "Dead calls"): a carrier's call that carries no RTP for the
carrier endpoint's `rtp_timeout` (its BYE lost, the carrier gone) is hung up by Asterisk, so its row
closes and its credit is released, instead of staying up for ever. sipp's calls are signalling
only: no RTP from the first moment. On an Asterisk of this test's own, its timeout 3 s.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import CreditReservation
from testkit.asterisk import (
    AsteriskUnderTest,
    calls,
    make_test_settings,
    running_bridge,
    running_test_instance,
    seed_plan,
)
from testkit.required import unavailable
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk

RTP_TIMEOUT = 3


@pytest.fixture(scope="module")
def quick_to_hang_up(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AsteriskUnderTest]:
    """An Asterisk whose carrier calls end after 3 s without RTP, with its bridge."""
    if os.geteuid() != 0:
        unavailable("Asterisk", "tests need root (chroot + bind mounts)")
    settings = make_test_settings().with_(rtp_timeout=RTP_TIMEOUT)
    log = tmp_path_factory.mktemp("bridge") / "bridge.log"
    with running_test_instance(settings) as asterisk, running_bridge(asterisk, log):
        yield asterisk


async def test_a_call_without_media_is_hung_up_and_its_row_closed(
    quick_to_hang_up: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=quick_to_hang_up)
        # The caller would stay a minute waiting for a BYE: the platform sends it after the timeout.
        log = await call(sipp_binary, quick_to_hang_up, plan.did, CALLER, tmp_path, talk_ms=60000)
    assert "final=SIP/2.0 200" in log and "ended_by=network" in log, log[-2000:]
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.target_id == plan.targets[0]
    assert RTP_TIMEOUT - 1 <= row.billsec < 30, row.billsec  # ended by the timeout, not the caller
    with session_scope() as s:
        held = s.exec(select(CreditReservation).where(CreditReservation.released_at.is_(None))).all()
    assert held == []
    eventually(lambda: get_redis().smembers(names.LIVE_CALLS) == set(), timeout=10, what="live view empty")
