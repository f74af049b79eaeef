"""Real calls: sipp as carrier and targets, Asterisk 22, the bridge process, real database rows."""

import asyncio
import io
import os
import signal
import subprocess
import time
import wave
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from sqlmodel import select

from core.infra import names
from core.infra.db import session_scope
from core.models import (
    BlockEntry,
    CampaignTarget,
    CreditReservation,
    Target,
    User,
    WalletTransaction,
)
from core.values.enums import Leg, TokenKind
from portal_api.auth import tokens
from testkit.actors import PASSWORD, make_actor
from testkit.asterisk import (
    AsteriskUnderTest,
    calls,
    live_calls,
    seed_plan,
    stored_recording,
    trunk_pushed,
    wait_live,
)
from testkit.processes import REPO, api_server, start_worker
from testkit.rows import CALLER, change, tariff
from testkit.sipp import answering_plan, call, sipp_target
from testkit.waiting import eventually_async

pytestmark = pytest.mark.asterisk
WEB = REPO / "web"


async def test_answered_call_reaches_the_target_and_writes_one_row(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=3000)
    assert "final=SIP/2.0 200" in log, log + bridge.read_text()[-3000:]
    assert "ended_by=caller" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED", (row.trail, bridge.read_text()[-3000:])
    assert (row.user_id, row.campaign_id, row.target_id, row.buyer_id, row.trunk_id) == (
        plan.user_id,
        plan.campaign_id,
        plan.targets[0],
        plan.buyer_id,
        plan.trunks[0],
    )
    assert row.did == plan.did and row.caller == CALLER
    assert 2 <= row.billsec <= 4 and row.talk_seconds == row.billsec and row.ended_at is not None
    assert row.hangup_by == "caller"
    dials = [e for e in row.trail if e["step"] == "dial"]
    assert [d["status"] for d in dials] == ["ANSWER"]
    assert target.invites() == 1


async def test_busy_target_fails_over_to_the_next_priority(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with (
        sipp_target(sipp_binary, "busy", tmp_path) as busy,
        sipp_target(sipp_binary, "answer", tmp_path) as ok,
    ):
        plan = seed_plan([busy.port, ok.port], pushed_to=asterisk)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1500)
    assert "final=SIP/2.0 200" in log
    (row,) = calls()
    assert (
        row.disposition == "ANSWERED" and row.target_id == plan.targets[1] and row.trunk_id == plan.trunks[1]
    )
    dials = [(d["target_id"], d["status"]) for d in row.trail if d["step"] == "dial"]
    assert dials == [(plan.targets[0], "BUSY"), (plan.targets[1], "ANSWER")], row.trail
    assert busy.invites() == 1 and ok.invites() == 1


async def test_nobody_answering_gives_no_answer_after_the_ring_timeout(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "noanswer", tmp_path) as silent:
        plan = seed_plan([silent.port], pushed_to=asterisk)  # ring timeout 5 s
        started = time.monotonic()
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path)
        waited = time.monotonic() - started
    assert "final=SIP/2.0" in log and "final=SIP/2.0 200" not in log
    (row,) = calls()
    assert row.disposition == "NO ANSWER", [e for e in row.trail if e["step"] in ("dial", "error")]
    assert row.billsec == 0
    assert [d["status"] for d in row.trail if d["step"] == "dial"] == ["NOANSWER"]
    assert 4 <= waited < 15


async def test_all_targets_busy_gives_busy(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "busy", tmp_path) as one, sipp_target(sipp_binary, "busy", tmp_path) as two:
        plan = seed_plan([one.port, two.port], pushed_to=asterisk)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path)
    (row,) = calls()
    assert row.disposition == "BUSY", [e for e in row.trail if e["step"] in ("dial", "error")]
    assert "final=SIP/2.0 486" in log


async def test_blocked_caller_never_reaches_a_target(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        with session_scope() as s:
            s.add(BlockEntry(user_id=plan.user_id, pattern=CALLER, match_type="exact"))
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path)
    assert "final=SIP/2.0 200" not in log
    (row,) = calls()
    assert row.disposition == "BLOCKED" and target.invites() == 0
    assert any(e["step"] == "block" for e in row.trail)


async def test_no_balance_refuses_the_call(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk, balance="0")
        await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path)
    (row,) = calls()
    assert row.disposition == "NO_BALANCE" and target.invites() == 0


async def test_a_dialled_number_with_stray_characters_is_refused_not_routed_to_its_digits(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        garbled = plan.did[:-2] + "x" + plan.did[-2:]  # its digits alone are the plan's number
        log = await call(sipp_binary, asterisk, garbled, CALLER, tmp_path, talk_ms=15000)
    assert "early_media=183" in log and "final=SIP/2.0 404" in log  # not in service, unallocated
    (row,) = calls()
    assert row.disposition == "NO_ROUTE" and row.user_id is None and target.invites() == 0
    assert "holds characters no phone number has" in row.trail[-1]["reason"]


async def test_portal_trunk_live_view_and_hang_up_while_talking(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path, client, admin
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([])
        # An admin creates the trunk in the portal; the target uses it; no restart anywhere.
        trunk = client.post(
            "/api/trunk/add",
            headers=admin.headers,
            json={"name": "portal-trunk", "direction": "outbound", "host": "127.0.0.1", "port": target.port},
        )
        assert trunk.status_code == 201, trunk.text
        with session_scope() as s:
            t = Target(
                user_id=plan.user_id,
                buyer_id=plan.buyer_id,
                name="Desk",
                destination="+14155550199",
                trunk_id=trunk.json()["data"]["id"],
            )
            s.add(t)
            s.flush()
            s.add(CampaignTarget(user_id=plan.user_id, campaign_id=plan.campaign_id, target_id=t.id))
        trunk_id = trunk.json()["data"]["id"]
        await eventually_async(lambda: trunk_pushed(asterisk, trunk_id, target.port), what="the trunk pushed")
        caller = asyncio.create_task(call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=30000))
        live_call = await wait_live(lambda c: c.get("state") == "connected")
        assert live_call["did"] == plan.did and live_call["target_name"] == "Desk"
        r = await asyncio.to_thread(
            client.post,
            "/api/report/callHangUp",
            headers=admin.headers,
            json={"linkedid": live_call["linkedid"]},
        )
        assert r.status_code == 200 and r.json()["data"]["ended"] is True
        log = await asyncio.wait_for(caller, 20)
    assert "final=SIP/2.0 200" in log and "ended_by=network" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.hangup_by == "portal" and row.billsec < 20
    await eventually_async(lambda: not live_calls(), what="the call gone from the live view")


async def test_customer_watches_and_hangs_up_a_real_call_in_the_browser(
    asterisk: AsteriskUnderTest, sipp_binary: str, chromium_binary: str, bridge: Path, tmp_path: Path
) -> None:
    """The portal in Chromium (web/e2e/run.mjs) with a real call through a recording campaign:
    - the customer sees it on Live Calls while it is up and hangs it up there, then finds it in the
      report with its routing trail and plays its recording;
    - the buyer finds it in its own report and plays it too;
    - the campaign page's routing test for the same tracking number names the target;
    - the customer's dashboard counts it, answered;
    - the admin's trunk list shows what Asterisk found of the target's trunk."""
    if not (WEB / "dist" / "index.html").is_file():
        pytest.fail("web/dist is missing: `make test` builds it (make web)")
    with (
        sipp_target(sipp_binary, "answer", tmp_path) as target,
        api_server(WEB_DIST=str(WEB / "dist"), **pbx_env(asterisk)) as base,
    ):
        plan = seed_plan([target.port], pushed_to=asterisk, record=True)
        make_actor(1, "Ada Admin")
        caller = asyncio.create_task(
            call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=60000, speak=True)
        )
        env = {
            **os.environ,
            "BASE_URL": base,
            "CHROMIUM_PATH": chromium_binary,
            "CUSTOMER_EMAIL": "co@example.com",  # seed_plan's customer
            "CUSTOMER_PASSWORD": "x1234567",
            "BUYER_EMAIL": "buyer@example.com",  # seed_plan's buyer
            "BUYER_PASSWORD": "x1234567",
            "ADMIN_EMAIL": "ada.admin@example.com",
            "ADMIN_PASSWORD": PASSWORD,
            "E2E_ONLY": "real call|the trunk Asterisk reaches|real tracking number",  # 6 scenarios
            "E2E_LIVE_CALLER": CALLER,
            "E2E_LIVE_TARGET": "Target 0",
            "E2E_TRUNK_REACHABLE": f"to-target-0-{target.port}",  # seed_plan's name for it
            "E2E_LIVE_RECORDED": "1",
            "E2E_LIVE_DID": plan.did,
            "E2E_ARTIFACTS": str(tmp_path / "screens"),
        }
        browser = await asyncio.to_thread(
            subprocess.run,
            ["npm", "run", "--silent", "e2e"],
            cwd=WEB,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert browser.returncode == 0 and "6 passed" in browser.stdout, (
            browser.stdout[-4000:] + browser.stderr[-2000:]
        )
        log = await asyncio.wait_for(caller, 20)
    assert "final=SIP/2.0 200" in log and "ended_by=network" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.hangup_by == "portal" and row.billsec < 40


async def test_recorded_campaign_keeps_the_call_audio_for_its_customer_only(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target, api_server(**pbx_env(asterisk)) as base:
        plan = seed_plan([target.port], pushed_to=asterisk, record=True)
        owner = make_actor(2, "Other Customer")  # not the plan's customer
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=4000, speak=True)
        assert "final=SIP/2.0 200" in log
        (row,) = calls()
        assert row.disposition == "ANSWERED" and row.recording == f"call-{row.linkedid}"
        assert [e["result"] for e in row.trail if e["step"] == "record"] == ["passed"]
        with session_scope() as s:
            customer = s.exec(select(User).where(User.id == plan.user_id)).one()
            customer_token = tokens.issue(s, customer.id or 0, TokenKind.SESSION, 1)[0]
        async with httpx.AsyncClient(base_url=base, timeout=20) as http:
            url = f"/api/report/recording/{row.id}"
            wav = await http.get(url, headers={"Authorization": f"Bearer {customer_token}"})
            other = await http.get(url, headers=owner.headers)
            listed = await http.get("/api/report", headers={"Authorization": f"Bearer {customer_token}"})
        legs = {leg: stored_recording(asterisk, names.leg_recording_name(row.linkedid, leg)) for leg in Leg}
    assert wav.status_code == 200 and wav.headers["content-type"] == "audio/wav", wav.text[:300]
    with wave.open(io.BytesIO(wav.content)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
    assert abs(seconds - row.billsec) <= 1.5, (seconds, row.billsec)  # the whole talk, both sides
    for leg, audio_bytes in legs.items():  # and each side alone, for transcription
        with wave.open(io.BytesIO(audio_bytes)) as audio:
            assert abs(audio.getnframes() / audio.getframerate() - row.billsec) <= 1.5, leg
    assert other.status_code == 404  # another customer can't tell it exists
    assert listed.json()["data"]["data"][0]["recording"] == row.recording


def pbx_env(ast: AsteriskUnderTest) -> dict[str, str]:
    """What the API needs to fetch recordings from the test Asterisk (ARI)."""
    s = ast.settings
    return {"ASTERISK_HTTP_PORT": str(s.http_port), "ARI_USER": s.ari_user, "ARI_PASSWORD": s.ari_password}


@pytest.mark.parametrize(("pin", "expected"), [("4321", "ANSWERED"), ("1111", "IVR_FAILED")])
async def test_ivr_pin_as_rfc2833_dtmf(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path, pin: str, expected: str
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        ivr = {"ivr_enabled": True, "ivr_pins": ["4321"], "ivr_digits": 4, "ivr_attempts": 1}
        plan = seed_plan([target.port], pushed_to=asterisk, **ivr)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=12000, dtmf=pin)
    (row,) = calls()
    ivr = [e for e in row.trail if e["step"] == "ivr"]
    assert row.disposition == expected, row.trail
    assert row.ivr_result == ("passed" if expected == "ANSWERED" else "failed")
    assert [e["result"] for e in ivr] == (["passed"] if expected == "ANSWERED" else ["stopped"])
    assert target.invites() == (1 if expected == "ANSWERED" else 0)
    assert "final=SIP/2.0 200" in log  # the IVR answers before it asks


async def test_credit_is_a_hard_limit_and_the_call_is_rated_once(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    """1.00 a second and 6.00 in the wallet: the call is cut after about 6 s, then debited once."""
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        with sipp_target(sipp_binary, "answer", tmp_path) as target:
            plan = seed_plan([target.port], pushed_to=asterisk, balance="6")
            change(User, plan.user_id, tariff_id=tariff(("1", "60"), increments=(1, 1)))
            log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=30000)
        assert "ended_by=network" in log  # the platform ended it, not the caller
        (row,) = calls()
        assert row.disposition == "ANSWERED" and row.hangup_by == "system", row.trail
        assert 4 <= row.talk_seconds <= 8
        assert any(e["step"] == "credit" and e["result"] == "stopped" for e in row.trail)
        await eventually_async(lambda: calls()[0].rating_status != "pending", timeout=30, interval=0.3)
        (row,) = calls()
        assert row.rating_status == "rated" and row.cost == Decimal(row.billsec)
        with session_scope() as s:
            debits = s.exec(
                select(WalletTransaction).where(WalletTransaction.transaction_type == "call")
            ).all()
            assert [d.amount for d in debits] == [-row.cost]
            assert s.get(User, plan.user_id).balance == Decimal(6) - row.cost
            assert (
                s.exec(select(CreditReservation).where(CreditReservation.released_at.is_(None))).all() == []
            )
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)


async def test_concurrency_cap_sends_the_parallel_call_to_the_next_target(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with answering_plan(sipp_binary, asterisk, tmp_path, 2, concurrency_cap=1) as plan:
        one = asyncio.create_task(call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=5000))
        assert await wait_live(lambda c: c.get("state") == "connected") is not None
        two = await call(sipp_binary, asterisk, plan.did, "+447911654321", tmp_path, talk_ms=1000)
        await one
    rows = calls(2)
    assert [r.target_id for r in rows] == [plan.targets[0], plan.targets[1]], [r.trail for r in rows]
    assert "final=SIP/2.0 200" in two
    skipped = [
        e for e in rows[1].trail if e.get("target_id") == plan.targets[0] and e.get("result") == "skipped"
    ]
    assert skipped and "concurrency" in skipped[0]["reason"]


async def test_closed_schedule_and_duplicate_caller(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        duplicates = {"duplicate_action": "reject", "duplicate_window_seconds": 3600}
        plan = seed_plan([target.port], pushed_to=asterisk, **duplicates)
        first = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1000)
        calls(1)
        again = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1000)
        rows = calls(2)
        with session_scope() as s:
            # Open only on a weekday that is never today in the target's zone: closed now.
            today = datetime.now(UTC).strftime("%a").lower()
            other = "mon" if today != "mon" else "tue"
            s.get(Target, plan.targets[0]).schedule = {other: [["00:00", "00:01"]]}
        closed = await call(sipp_binary, asterisk, plan.did, "+447911777888", tmp_path, talk_ms=1000)
        rows = calls(3)
    assert "final=SIP/2.0 200" in first and "final=SIP/2.0 200" not in again
    assert [r.disposition for r in rows] == ["ANSWERED", "DUPLICATE", "NO_ROUTE"], [r.trail for r in rows]
    assert "final=SIP/2.0 200" not in closed
    assert any("schedule" in e.get("reason", "") for e in rows[2].trail)
    assert target.invites() == 1
