"""Whisper with real calls: the target's side receives the campaign's message (the RTP Asterisk sends
to the target's media address, captured) before the two are bridged, the caller none of it, and
talk time (billsec) starts at the bridge: it matches the caller's talk time on the wire (testkit.wire,
from its 200 OK to its BYE), and leaves the message out."""

from pathlib import Path

import pytest

from testkit.asterisk import AsteriskUnderTest, calls, seed_plan
from testkit.audio import whisper
from testkit.rows import CALLER
from testkit.rtp import rtp_capture
from testkit.sipp import call, sipp_target
from testkit.wire import sip_wire

pytestmark = pytest.mark.asterisk

PACKET_MS = 20  # Asterisk sends G.711 in 20 ms packets


async def test_the_target_hears_the_whisper_before_the_bridge_and_billsec_starts_after_it(
    asterisk: AsteriskUnderTest, sipp_binary: str, espeak_ng: str, bridge: Path, tmp_path: Path
) -> None:
    with rtp_capture() as to_target, rtp_capture() as to_caller, sip_wire(asterisk.settings.sip_port) as wire:
        with sipp_target(sipp_binary, "answer", tmp_path, media_port=to_target.port) as target:
            plan = seed_plan([target.port], pushed_to=asterisk)
            sound = whisper(plan.campaign_id)
            log = await call(
                sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=3000, media_port=to_caller.port
            )
        [row] = calls(1, timeout=30)
    assert "ended_by=caller" in log and row.disposition == "ANSWERED", (
        log,
        row.trail,
        bridge.read_text()[-3000:],
    )
    assert row.connected_at is not None and row.ended_at is not None
    bridged = row.connected_at.timestamp()

    # The target got the message, all of it before the bridge: as many packets as the audio lasts.
    before = [at for at, _ in to_target.packets if at < bridged]
    spoken = to_target.sound()
    assert spoken and to_target.sound(until=bridged) == spoken, (len(spoken), len(before))
    assert abs(len(before) * PACKET_MS - sound.ms) <= 200, (len(before), sound.ms)
    assert bridged - before[0] >= (sound.ms - 200) / 1000  # the bridge waited for the message
    # The caller heard none of it (nothing with sound reached its media address at all).
    assert to_caller.sound() == []

    # The trail says so.
    [heard] = [e for e in row.trail if e["step"] == "whisper"]
    assert (heard["result"], heard["ms"], heard["sound"]) == ("passed", sound.ms, sound.sha256)

    # Talk time is the caller's, from its 200 OK (sent at the bridge) to its BYE on the wire, to within
    # 50 ms, and excludes the message the target heard before.
    on_wire = wire.talk_times_ms()[CALLER]
    assert row.talk_ms is not None and abs(row.talk_ms - on_wire) <= 50, (row.talk_ms, on_wire)
    assert row.billsec_ms == row.talk_ms and row.billsec == -(-row.talk_ms // 1000)
    since_pickup_ms = (row.ended_at.timestamp() - before[0]) * 1000
    assert since_pickup_ms - row.talk_ms >= sound.ms - 200
