"""Talk (pbx_bridge.call.talk) against a fake Asterisk: talk time by Asterisk's clock, recording,
the portal's hang-up, credit slices and the goodbye, and the whisper the target hears first."""

import json
from datetime import timedelta
from decimal import Decimal

from core.infra import names
from core.models import Rate, Tariff, User
from core.pbx.pbx_commands import HangupRequest
from pbx_bridge.call.context import Timing
from pbx_bridge.whisper import WhisperFiles
from testkit.audio import whisper
from testkit.rows import change, customer, desk, line, save, trunk
from tests.bridge.call.trail import dialled_line, last, steps
from tests.bridge.fakes import bridge, now

# --- talking ------------------------------------------------------------------------------------


async def test_an_answered_call_ended_by_the_caller() -> None:
    ln, (acme,) = dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid)
        shown = await b.ctx.live.get(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert shown is not None and (shown["user_id"], shown["buyer_id"], shown["target_name"]) == (
        ln.user.id,
        acme.buyer_id,
        "Acme desk",
    )
    assert (done.disposition, done.hangup_by, done.destination) == ("ANSWERED", "caller", acme.destination)
    assert done.answered_at == done.connected_at and done.ended_at is not None and b.rated == [linkedid]


async def test_talk_time_is_asterisks_to_the_millisecond_and_billed_by_started_seconds() -> None:
    dialled_line("Acme desk")
    answered = now().replace(microsecond=0) - timedelta(seconds=20)
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        # The bridge hears both late (the events' own times are Asterisk's): they bill, not when heard.
        await b.answered(linkedid, At=f"{answered.timestamp():.0f}.250000")
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{answered.timestamp() + 20:.0f}.254123")
        done = await b.ended(linkedid)
    assert done.connected_at == done.answered_at == answered + timedelta(milliseconds=250)
    assert done.ended_at == answered + timedelta(seconds=20, microseconds=254123)
    assert (done.talk_ms, done.billsec_ms, done.talk_seconds, done.billsec) == (20004, 20004, 21, 21)


async def test_talk_time_starts_when_the_callers_channel_answered_not_when_the_target_did() -> None:
    # Dial answers the caller after the target's answer routine ran, as it bridges them: the caller's
    # 200 OK (what the carrier bills from) leaves then, tens of ms after the routine's `At` on a busy
    # Asterisk. Whichever of the two events the bridge hears first, talk time starts at the caller's.
    dialled_line("Acme desk")
    target_answered = now().replace(microsecond=0) - timedelta(seconds=20)
    caller_answered = target_answered + timedelta(milliseconds=58)
    ended = target_answered + timedelta(seconds=20, milliseconds=4)
    async with bridge() as b:
        heard_last, heard_first = b.call(), b.call()
        for linkedid in (heard_last, heard_first):
            await b.dialled(linkedid)
            assert await b.ari.requested("follow", linkedid)  # its answer is heard once dialled
        b.caller_answered(heard_first, caller_answered)
        for linkedid in (heard_last, heard_first):
            await b.answered(linkedid, At=f"{target_answered.timestamp():.6f}")
        b.caller_answered(heard_last, caller_answered)
        for linkedid in (heard_last, heard_first):
            b.dialplan_says(linkedid, names.END_EVENT, At=f"{ended.timestamp():.6f}")
        rows = [await b.ended(heard_last), await b.ended(heard_first)]
    for done in rows:
        assert done.connected_at == done.answered_at == caller_answered
        assert (done.talk_ms, done.billsec_ms, done.talk_seconds, done.billsec) == (19946, 19946, 20, 20)


async def test_talk_time_ends_when_asterisk_took_in_the_callers_hang_up_not_when_the_dialplan_ran() -> None:
    # The h extension stamps the end after Dial and the bridge are done with the caller's BYE, up to
    # hundreds of ms on a busy Asterisk; the hangup request is the BYE as the SIP stack took it in.
    # A soft request is Asterisk's own (a redirect, ARI): the call goes on after it.
    dialled_line("Acme desk")
    answered = now().replace(microsecond=0) - timedelta(seconds=20)
    bye = answered + timedelta(seconds=12, milliseconds=7)
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid, At=f"{answered.timestamp():.6f}")
        b.caller_answered(linkedid, answered)
        b.caller_hung_up(linkedid, bye - timedelta(seconds=2), soft=True)
        b.caller_hung_up(linkedid, bye)
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{bye.timestamp() + 0.3:.6f}")
        done = await b.ended(linkedid)
    assert done.ended_at == bye and (done.talk_ms, done.billsec) == (12007, 13)


async def test_a_recorded_campaign_names_the_recording_on_the_row() -> None:
    dialled_line("Acme desk", record=True)
    async with bridge() as b:
        recorded, silent = b.call(), b.call()
        assert (await b.dialled(recorded))[0] and (await b.dialled(silent))[0]
        _, _, _, variables = await b.ari.requested("continue", recorded)
        assert str(variables["CR_PLAN"]).split("^")[1] == names.RECORDED_ANSWER
        await b.answered(recorded, Recording="/spool/recording/call.wav")
        await b.answered(silent)  # MixMonitor did not start: no file name
        b.ari.end(recorded)
        b.ari.end(silent)
        done, failed = await b.ended(recorded), await b.ended(silent)
    assert done.recording == names.recording_name(recorded) and steps(done, "record") == [
        ("passed", "both sides recorded, and each alone")
    ]
    assert failed.recording is None and steps(failed, "record") == [("failed", "recording could not start")]
    assert failed.disposition == "ANSWERED"  # the call goes on either way


async def test_a_call_hung_up_from_the_portal() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call()
        await b.dialled(linkedid)
        await b.answered(linkedid)
        published = json.dumps(HangupRequest(linkedid=linkedid, by=7))  # as the API publishes it
        b.bridge.events.dispatch(names.HANGUP_REQUESTS, {"type": names.HANGUP_REQUESTS, "data": published})
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "portal")
    assert last(done) == ("hangup", "stopped", "ANSWERED") and done.trail[-1]["user_id"] == 7
    assert b.ari.made("hangup") == [("hangup", linkedid, "normal")]


def paying_customer(balance: str) -> User:
    """A customer charged 1.00 a second of talk time to its target (+1...), `balance` in its wallet."""
    tariff = save(Tariff(name="Per second"))
    rate = Rate(
        tariff_id=tariff.id or 0,
        prefix="1",
        rate_per_minute=Decimal(60),
        initial_increment=1,
        billing_increment=1,
        effective_from=now() - timedelta(days=1),
    )
    save(rate)
    user = customer(balance=balance, tariff_id=tariff.id)
    desk(line(user), "Acme desk", trunk_id=trunk("carrier").id)
    return user


async def test_credit_running_out_plays_goodbye_to_both_sides() -> None:
    paying_customer(balance="6")
    # Six seconds paid for, no more: the goodbye is due at once with these timings.
    async with bridge(Timing(extend_ahead=3600, warning=3600, goodbye=1, row_wait=1)) as b:
        b.ari.variables["BRIDGEPEER"] = "PJSIP/trunk-1-00000001"
        linkedid = b.call()
        await b.dialled(linkedid)
        b.dialplan_says(linkedid, names.ANSWERED_EVENT, Attempt="1")  # ends at once: not waited for
        done = await b.ended(linkedid)
    ((action, fields),) = b.ami.actions
    assert action == "Redirect" and fields["ExtraChannel"] == "PJSIP/trunk-1-00000001"
    assert fields["Context"] == fields["ExtraContext"] == names.GOODBYE_CONTEXT
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "system")
    assert steps(done, "credit")[-1] == ("stopped", "credit ran out after 6 s of talk time")


async def test_without_ami_a_call_out_of_credit_is_hung_up() -> None:
    user = paying_customer(balance="6")
    async with bridge(Timing(warning=0, goodbye=1, row_wait=1)) as b:
        b.ami.connected = False
        linkedid = b.call()
        await b.dialled(linkedid)
        change(User, user.id or 0, balance=Decimal(0))  # spent meanwhile: not a second is paid for
        b.dialplan_says(linkedid, names.ANSWERED_EVENT, Attempt="1")  # ends at once: not waited for
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("ANSWERED", "system")
    assert steps(done, "credit")[-1] == ("stopped", "credit ran out after 0 s of talk time")
    assert b.ari.made("hangup") == [("hangup", linkedid, "normal")] and b.ami.actions == []


# --- whisper: the target hears the campaign's message before it is connected ---------------------


async def test_a_whispered_call_plays_the_message_to_the_target_and_talks_from_the_bridge(
    tmp_path, espeak_ng
) -> None:
    ln, _ = dialled_line("Acme desk", record=True)
    sound = whisper(ln.campaign.id or 0)
    picked = now().replace(microsecond=0)
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(tmp_path)
        linkedid = b.call()
        await b.dialled(linkedid)
        _, _, _, variables = await b.ari.requested("continue", linkedid)
        # Dial plays the file the bridge put there to the target (A()), then runs the campaign's own
        # answer routine (recording), then bridges.
        assert str(variables["CR_PLAN"]).split("^")[1] == names.RECORDED_ANSWER
        assert variables["CR_WHISPER"] == f"A({names.WHISPER_SOUNDS}/{sound.sha256})"
        assert (tmp_path / f"{sound.sha256}.wav").read_bytes() == sound.audio
        bridged = picked.timestamp() + 2.5  # by Asterisk's clock: raised once the message was played
        await b.answered(linkedid, At=f"{bridged:.6f}", Recording="/spool/recording/call.wav")
        b.dialplan_says(linkedid, names.END_EVENT, At=f"{bridged + 10:.6f}")
        done = await b.ended(linkedid)
    # Talk time and billsec start at the bridge (the answer event's time), after the message.
    assert done.connected_at == done.answered_at == picked + timedelta(seconds=2.5)
    assert (done.talk_ms, done.billsec_ms, done.billsec) == (10000, 10000, 10)
    heard = [e for e in done.trail if e["step"] == "whisper"]
    assert [(e["result"], e["ms"], e["sound"]) for e in heard] == [("passed", sound.ms, sound.sha256)]
    order = [e["step"] for e in done.trail if e["step"] in ("dial", "whisper", "record")]
    assert order == ["dial", "whisper", "record"]


async def test_a_whisper_whose_audio_could_not_be_placed_connects_without_it(tmp_path, espeak_ng) -> None:
    ln, _ = dialled_line("Acme desk")
    whisper(ln.campaign.id or 0)
    blocked = tmp_path / "sounds"
    blocked.write_text("a file where the folder should be")  # nothing can be written into it
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(blocked)
        linkedid = b.call()
        await b.dialled(linkedid)
        _, _, _, variables = await b.ari.requested("continue", linkedid)
        assert "CR_WHISPER" not in variables
        await b.answered(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert done.disposition == "ANSWERED"
    assert steps(done, "whisper") == [
        ("failed", "the whisper's audio could not be put where Asterisk plays it; connected without it")
    ]


async def test_a_call_that_ends_during_the_whisper_never_connects(tmp_path, espeak_ng) -> None:
    ln, _ = dialled_line("Acme desk")
    whisper(ln.campaign.id or 0)
    async with bridge() as b:
        b.ctx.whispers = WhisperFiles(tmp_path)
        target_left, caller_left = b.call(), b.call()
        for linkedid in (target_left, caller_left):
            await b.dialled(linkedid)
        # Dial answered the target (DIALSTATUS ANSWER) but the call ended before the bridge.
        end = {"Status": "ANSWER", "Cause": "16", "At": "1763000000.5"}
        b.dialplan_says(target_left, names.END_EVENT, By="target", **end)
        b.dialplan_says(caller_left, names.END_EVENT, By="", **end)
        rows = [await b.ended(target_left), await b.ended(caller_left)]
    assert [(r.disposition, r.hangup_by, r.connected_at, r.billsec) for r in rows] == [
        ("NO ANSWER", "target", None, 0),
        ("NO ANSWER", "caller", None, 0),
    ]
    assert all("during the whisper" in r.trail[-1]["reason"] for r in rows)
