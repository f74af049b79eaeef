"""Issue 23's proof: the platform set up in Chromium alone carries a real call.

web/e2e/journeys/real-call.mjs drives the browser (the admin prices, supplies and funds a customer; the
customer takes a number, a buyer, a target, a campaign behind an IVR PIN). When it is ready it
prints `CALL {...}`; this test then places the call with sipp, keying the PIN, while the browser
waits for the call on each screen (and hangs it up from Live Calls). The API, the bridge, Asterisk
and a Celery worker (the rating) are the real ones.
"""

import asyncio
import json
import os
import signal
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.models import Call, Trunk, User, WalletTransaction
from testkit.actors import PASSWORD, make_actor
from testkit.asterisk import AsteriskUnderTest, calls, trunk_pushed
from testkit.processes import REPO, api_server, start_worker
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually_async

pytestmark = pytest.mark.asterisk
WEB = REPO / "web"


async def _place_when_asked(
    line: str, sipp: str, asterisk: AsteriskUnderTest, target_port: int, workdir: Path
) -> str:
    """The call the browser asked for, once the bridge has its trunk in Asterisk; sipp's log."""
    asked = json.loads(line.removeprefix("CALL "))
    with session_scope() as s:
        trunk_id = s.exec(select(Trunk.id).where(Trunk.name == asked["trunk"])).one()
    await eventually_async(
        lambda: trunk_pushed(asterisk, trunk_id, target_port), what="the trunk in Asterisk"
    )
    # The caller would talk for a minute: the customer hangs up on Live Calls once it has seen it.
    return await call(sipp, asterisk, asked["did"], CALLER, workdir, talk_ms=60000, dtmf=asked["pin"])


def _calls_so_far() -> list[tuple[str, object]]:
    with session_scope() as s:
        return [(c.disposition, c.trail) for c in s.exec(select(Call)).all()]


async def test_a_platform_set_up_in_the_browser_carries_a_real_call(
    asterisk: AsteriskUnderTest, sipp_binary: str, chromium_binary: str, bridge: Path, tmp_path: Path
) -> None:
    if not (WEB / "dist" / "index.html").is_file():
        pytest.fail("web/dist is missing: `make test` builds it (make web)")
    make_actor(1, "Ada Admin")
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        with (
            sipp_target(sipp_binary, "answer", tmp_path) as target,
            api_server(WEB_DIST=str(WEB / "dist")) as base,
        ):
            env = {
                **os.environ,
                "BASE_URL": base,
                "CHROMIUM_PATH": chromium_binary,
                "ADMIN_EMAIL": "ada.admin@example.com",
                "ADMIN_PASSWORD": PASSWORD,
                "E2E_ONLY": "a real call through a platform set up in the browser",
                "E2E_CALL_TARGET_PORT": str(target.port),
                "E2E_CALL_CALLER": CALLER,
                "E2E_ARTIFACTS": str(tmp_path / "screens"),
            }
            browser = await asyncio.create_subprocess_exec(
                "node",
                "e2e/run.mjs",
                cwd=WEB,
                env=env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            assert browser.stdout is not None
            said: list[str] = []
            placed: asyncio.Task[str] | None = None
            try:
                async with asyncio.timeout(150):
                    async for raw in browser.stdout:
                        said.append(raw.decode(errors="replace"))
                        if said[-1].startswith("CALL ") and placed is None:
                            placed = asyncio.create_task(
                                _place_when_asked(said[-1], sipp_binary, asterisk, target.port, tmp_path)
                            )
                    await browser.wait()
            finally:
                if browser.returncode is None:
                    browser.kill()
                    await browser.wait()
            output = "".join(said)
            print(output)  # each phase's time since the start, for `pytest -s`
            assert placed is not None, output
            log = await asyncio.wait_for(placed, 30)
            assert browser.returncode == 0 and "1 passed" in output, (
                f"{output[-6000:]}\nsipp: {log[-1500:]}\ncalls: {_calls_so_far()}\n"
                + bridge.read_text()[-3000:]
            )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)
    assert "final=SIP/2.0 200" in log and "ended_by=network" in log
    (row,) = calls()
    assert (row.disposition, row.ivr_result, row.hangup_by, row.rating_status) == (
        "ANSWERED",
        "passed",
        "portal",
        "rated",
    ), row.trail
    # What the browser read is what the ledger holds: $0.05 to connect and $0.10 a second.
    assert row.cost == Decimal("0.05") + Decimal("0.10") * row.billsec
    with session_scope() as s:
        debit = s.exec(select(WalletTransaction).where(WalletTransaction.call_id == row.id)).one()
        assert debit.amount == -row.cost
        owner = s.get(User, row.user_id)
        assert owner is not None and owner.balance == Decimal(20) - Decimal(1) - row.cost
    assert target.invites() == 1
