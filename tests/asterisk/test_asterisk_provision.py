"""End-to-end checks of the provisioned Asterisk: ARI, AMI and real SIP calls.

Uses the session-scoped ``asterisk`` fixture (conftest.py), which runs a
private instance on random loopback ports.  Calls are placed with sipp and
the project's own scenario (testkit/scenarios/uac_did_rejected.xml).
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import websockets
from panoramisk import Manager

from testkit.asterisk import AsteriskUnderTest
from testkit.processes import free_port
from testkit.sipp import SCENARIOS
from testkit.waiting import eventually, eventually_async

pytestmark = pytest.mark.asterisk


CALLER = "15559876543"
UAC_SCENARIO = SCENARIOS / "uac_did_rejected.xml"
# "Promptly": a refused call must get its final answer in well under the
# time a caller would notice ringing (Asterisk answers in ~10 ms here).
PROMPT_SECONDS = 5.0  # the announcement (about 2 s) as early media, then the 503


def sipp_command(sipp: str, ast: AsteriskUnderTest, did: str, workdir: Path) -> tuple[list[str], Path]:
    """One call from a carrier on 127.0.0.1 to ``did`` with caller ``CALLER``."""
    name = f"sipp-{did.lstrip('+')}"
    log_file = workdir / f"{name}.log"
    options = {
        "-sf": str(UAC_SCENARIO),
        "-s": did,
        "-m": "1",
        "-i": "127.0.0.1",
        # Random local SIP/media ports: nothing else on the machine is disturbed.
        "-p": str(free_port(socket.SOCK_DGRAM)),
        "-mp": str(free_port(socket.SOCK_DGRAM)),
        # Hard upper bound: a call left ringing fails instead of hanging the suite.
        "-timeout": "15s",
        "-log_file": str(log_file),
        "-message_file": str(workdir / f"{name}.msg"),
    }
    cmd = [sipp, f"127.0.0.1:{ast.settings.sip_port}", "-key", "caller", CALLER]
    for option, value in options.items():
        cmd += [option, value]
    cmd += ["-timeout_error", "-nostdin", "-trace_logs", "-trace_msg"]
    return cmd, log_file


def final_status(log_file: Path) -> str:
    """Status code the scenario logged for the final response ('' if none)."""
    if not log_file.exists():
        return ""
    for line in log_file.read_text().splitlines():
        if "final=SIP/2.0 " in line:
            return line.rsplit(" ", 1)[-1].strip()
    return ""


def ari_get(ast: AsteriskUnderTest, path: str) -> httpx.Response:
    return httpx.get(f"{ast.settings.ari_base_url}/{path}", auth=ast.ari_auth, timeout=5)


def log_size(ast: AsteriskUnderTest) -> int:
    return ast.settings.messages_log.stat().st_size


def log_since(ast: AsteriskUnderTest, offset: int) -> str:
    with open(ast.settings.messages_log, "rb") as fh:
        fh.seek(offset)
        return fh.read().decode(errors="replace")


def wait_refused_by_dialplan(ast: AsteriskUnderTest, did: str, offset: int, timeout: float = 2.0) -> None:
    """Until the log shows the dialplan's own refusal (cause 34 set after a failed Stasis(), then
    its hang-up in the refusal context) for ``did``: a 503 for any other reason (overload, no such
    extension, ...) must not pass as "no app connected"."""
    needle = f"Executing [{did}@from-carrier:"  # at the priority after Stasis() and its checks

    def refused() -> bool:
        lines = log_since(ast, offset).splitlines()
        return any(needle in line and "] MSet(" in line and "CR_CAUSE=34" in line for line in lines) and any(
            "callroute-refuse:4] Hangup(" in line and '"34"' in line for line in lines
        )

    eventually(refused, timeout, what=lambda: log_since(ast, offset)[-3000:])


def wait_no_channels(ast: AsteriskUnderTest, timeout: float = 5.0) -> None:
    def none_left() -> bool:
        channels = ari_get(ast, "channels").json()
        assert channels == [], f"channels still up: {channels}"
        return True

    eventually(none_left, timeout, interval=0.1)


# -- ARI / AMI ---------------------------------------------------------------


def test_ari_info_reports_asterisk_22(asterisk: AsteriskUnderTest) -> None:
    response = ari_get(asterisk, "asterisk/info")
    assert response.status_code == 200
    version = response.json()["system"]["version"]
    assert version.startswith("22"), version


def test_every_configured_module_is_running(asterisk: AsteriskUnderTest) -> None:
    """autoload=no: a module whose dependency is missing from modules.conf
    would silently not load; catch that here."""
    conf = asterisk.settings.host_path(asterisk.settings.etc_dir) / "modules.conf"
    wanted = {
        line.split("=>", 1)[1].strip().removesuffix(".so")
        for line in conf.read_text().splitlines()
        if line.startswith("load =>")
    }
    modules = ari_get(asterisk, "asterisk/modules").json()
    running = {m["name"].removesuffix(".so") for m in modules if m["status"] == "Running"}
    assert wanted - running == set()


def test_ari_rejects_wrong_password(asterisk: AsteriskUnderTest) -> None:
    response = httpx.get(
        f"{asterisk.settings.ari_base_url}/asterisk/info",
        auth=(asterisk.settings.ari_user, "not-the-password"),
        timeout=5,
    )
    assert response.status_code == 401


@pytest.mark.asyncio
async def test_ami_login_and_core_status(asterisk: AsteriskUnderTest) -> None:
    loop = asyncio.get_running_loop()
    booted: asyncio.Future[object] = loop.create_future()

    def on_fully_booted(_manager: Manager, event: object) -> None:
        if not booted.done():
            booted.set_result(event)

    s = asterisk.settings
    manager = Manager(
        loop=loop,
        host="127.0.0.1",
        port=s.ami_port,
        username=s.ami_user,
        secret=s.ami_secret,
        ping_delay=60,
    )
    manager.register_event("FullyBooted", on_fully_booted)
    try:
        await asyncio.wait_for(manager.connect(), 5)
        await eventually_async(lambda: manager.authenticated, 5, what="AMI login")
        # Asterisk greets each fully logged-in session with FullyBooted.
        await asyncio.wait_for(booted, 5)
        response = await asyncio.wait_for(manager.send_action({"Action": "CoreStatus"}), 5)
        assert response.success, response
        assert "CoreStartupTime" in response
    finally:
        manager.close()


@pytest.mark.asyncio
async def test_ami_rejects_wrong_secret(asterisk: AsteriskUnderTest) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", asterisk.settings.ami_port)
    try:
        banner = await asyncio.wait_for(reader.readline(), 5)
        assert banner.startswith(b"Asterisk Call Manager")
        writer.write(
            f"Action: Login\r\nUsername: {asterisk.settings.ami_user}\r\nSecret: wrong\r\n\r\n".encode()
        )
        await writer.drain()
        reply = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert b"Response: Error" in reply
    finally:
        writer.close()


# -- SIP calls -------------------------------------------------------------


@pytest.mark.parametrize("did", ["15551230001", "+15551230001"])
def test_call_without_stasis_app_is_refused_promptly(
    asterisk: AsteriskUnderTest, sipp_binary: str, did: str, tmp_path: Path
) -> None:
    """No routing app connected: the carrier gets a final failure at once
    (cause 34 -> 503), never an endless ring."""
    cmd, log_file = sipp_command(sipp_binary, asterisk, did, tmp_path)
    offset = log_size(asterisk)
    started = time.monotonic()
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, (
        f"sipp failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr}"
    )
    assert final_status(log_file) == "503"
    assert elapsed < PROMPT_SECONDS, f"final response took {elapsed:.1f} s"
    wait_refused_by_dialplan(asterisk, did, offset)
    wait_no_channels(asterisk)


@pytest.mark.asyncio
async def test_call_reaches_connected_stasis_app_with_did_and_caller(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    did = "+15551230002"
    async with websockets.connect(asterisk.events_url(), open_timeout=5) as ws:
        cmd, log_file = sipp_command(sipp_binary, asterisk, did, tmp_path)
        sipp = await asyncio.create_subprocess_exec(
            *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        try:
            start_event = await asyncio.wait_for(_next_event(ws, "StasisStart"), 10)
            assert start_event["application"] == asterisk.settings.stasis_app
            assert start_event["args"] == [did, CALLER]
            channel = start_event["channel"]
            assert channel["dialplan"]["context"] == "from-carrier"
            assert channel["caller"]["number"] == CALLER

            # The routing app decides; here it refuses the call, which must
            # reach the carrier as a final response.
            async with httpx.AsyncClient(auth=asterisk.ari_auth, timeout=5) as client:
                response = await client.delete(
                    f"{asterisk.settings.ari_base_url}/channels/{channel['id']}",
                    params={"reason": "congestion"},
                )
            assert response.status_code == 204, response.text
            end_event = await asyncio.wait_for(_next_event(ws, "StasisEnd"), 10)
            assert end_event["channel"]["id"] == channel["id"]
            output, _ = await asyncio.wait_for(sipp.communicate(), 20)
        finally:
            if sipp.returncode is None:
                sipp.kill()
                await sipp.wait()
    assert sipp.returncode == 0, output.decode(errors="replace")[-3000:]
    assert final_status(log_file) == "503"


def test_call_refused_again_after_app_disconnects(
    asterisk: AsteriskUnderTest, sipp_binary: str, tmp_path: Path
) -> None:
    """The routing service going away must not leave callers ringing."""
    did = "15551230003"
    cmd, log_file = sipp_command(sipp_binary, asterisk, did, tmp_path)
    offset = log_size(asterisk)
    started = time.monotonic()
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout[-3000:]
    assert final_status(log_file) == "503"
    assert elapsed < PROMPT_SECONDS
    wait_refused_by_dialplan(asterisk, did, offset)


async def _next_event(ws: websockets.ClientConnection, event_type: str) -> dict[str, object]:
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == event_type:
            return message
