"""Admission, the IVR and refusals (pbx_bridge.call.admission, .ending.refuse) against a fake Asterisk:
a refused call hears why, unanswered, and is released with a cause that says it."""

from datetime import timedelta

from core.calls.prompts import DEFAULT, PROMPT, uploaded
from core.calls.whisper import convert
from core.infra import names
from core.models import BlockEntry, Campaign, Number, PromptAudio, Target
from core.values.enums import Status
from pbx_bridge.call.context import Timing
from pbx_bridge.whisper import WhisperFiles
from testkit.audio import wav
from testkit.rows import CALLER, change, customer, desk, earlier_call, line, save, trunk
from tests.bridge.call.trail import dialled_line, last, refused, steps
from tests.bridge.fakes import bridge, now

# --- refusals: the call stops before any target rings -------------------------------------------


async def test_a_number_nobody_routes_hears_not_in_service_unanswered_and_is_released_unallocated() -> None:
    async with bridge() as b:
        linkedid = b.call("+442070000000")
        done = await b.ended(linkedid)
    assert [r[0] for r in b.ari.requests] == ["continue"]  # never answered, never hung up by ARI
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")]
    assert (done.disposition, done.number_id, done.user_id) == ("NO_ROUTE", None, None)
    assert last(done) == ("route", "stopped", "NO_ROUTE") and done.answered_at is None
    assert (done.billsec, done.hangup_cause, done.sip_status, done.hangup_by) == (0, 1, 404, "system")
    assert await b.ctx.live.get(linkedid) is None


async def test_a_dialled_number_the_dialplan_had_to_filter_is_refused_not_routed_elsewhere() -> None:
    dialled_line("Acme desk")
    async with bridge() as b:
        linkedid = b.call(exten="+44207183875O")  # the dialplan kept the digits: a different number
        done = await b.ended(linkedid)
    assert done.disposition == "NO_ROUTE" and "holds characters no phone" in done.trail[-1]["reason"]
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")] and b.rated == [linkedid]


async def test_a_number_in_the_inventory_without_a_campaign_is_refused_without_an_answer() -> None:
    ln, _ = dialled_line("Acme desk")
    change(Number, ln.number.id or 0, campaign_id=None)
    async with bridge() as b:
        linkedid = b.call()
        done = await b.ended(linkedid)
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "1", "ss-noservice")]
    assert (done.disposition, done.number_id, done.answered_at) == ("NO_ROUTE", ln.number.id, None)
    assert (done.hangup_by, done.hangup_cause, done.sip_status, done.billsec) == ("system", 1, 404, 0)


async def test_an_inactive_campaign_stops_the_call_at_route_naming_its_customer() -> None:
    ln, _ = dialled_line("Acme desk")
    change(Campaign, ln.campaign.id or 0, status=Status.INACTIVE.value)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert (done.disposition, done.user_id, done.campaign_id) == ("NO_ROUTE", ln.user.id, ln.campaign.id)
    assert last(done) == ("route", "stopped", "NO_ROUTE")


async def test_a_blocked_caller_is_refused_at_block() -> None:
    ln, _ = dialled_line("Acme desk")
    save(BlockEntry(user_id=ln.user.id, pattern=CALLER, match_type="exact"))
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "BLOCKED" and last(done) == ("block", "stopped", "BLOCKED")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "21", "cannot-complete-as-dialed")]
    assert (done.hangup_by, done.hangup_cause, done.hangup_cause_text, done.sip_status) == (
        "system",
        21,
        "Call rejected",
        403,
    )


async def test_a_customer_without_balance_is_refused_at_credit() -> None:
    user = customer(balance="0")
    ln = line(user)
    desk(ln, "Acme desk", trunk_id=trunk("carrier-nb").id)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "NO_BALANCE" and last(done) == ("credit", "stopped", "NO_BALANCE")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "34", "all-circuits-busy-now")]
    assert (done.hangup_cause, done.sip_status) == (34, 503)


async def test_a_repeat_caller_is_rejected_when_the_campaign_says_so() -> None:
    ln, (acme,) = dialled_line("Acme desk", duplicate_action="reject")
    earlier_call(ln, acme, now() - timedelta(minutes=5))
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "DUPLICATE" and last(done) == ("duplicate", "stopped", "DUPLICATE")
    assert (done.hangup_cause, done.sip_status) == (21, 403)


async def test_no_target_available_stops_the_call_at_select() -> None:
    _, (acme,) = dialled_line("Acme desk")
    change(Target, acme.id or 0, status=Status.INACTIVE.value)
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "NO_ROUTE" and last(done) == ("select", "stopped", "NO_ROUTE")
    assert steps(done, "target") == [("skipped", "inactive")]
    assert (done.hangup_cause, done.sip_status) == (34, 503)  # nobody can take it now: temporary


async def test_every_target_at_its_caps_is_released_busy() -> None:
    _, (acme,) = dialled_line("Acme desk")
    change(Target, acme.id or 0, daily_cap=1)
    async with bridge() as b:
        first = b.call()
        await b.dialled(first)
        await b.answered(first)
        b.ari.end(first)
        await b.ended(first)
    async with bridge() as b:
        done = await b.ended(b.call(caller="+447700900999"))
    assert done.disposition == "NO_ROUTE" and steps(done, "target") == [("skipped", "daily cap 1/1")]
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "17", "all-circuits-busy-now")]
    assert (done.hangup_cause, done.hangup_cause_text, done.sip_status) == (17, "User busy", 486)


async def test_a_target_without_a_trunk_is_skipped_and_the_call_fails() -> None:
    ln = line()
    desk(ln, "Trunkless desk")
    async with bridge() as b:
        done = await b.ended(b.call())
    assert done.disposition == "FAILED"
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "34", "all-circuits-busy-now")]
    assert steps(done, "dial") == [
        ("skipped", "target has no outbound trunk"),
        ("stopped", "no target could be dialled"),
    ]


# --- the IVR ------------------------------------------------------------------------------------


async def test_the_right_pin_passes_the_ivr_and_the_call_is_dialled() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4, ivr_attempts=2)
    async with bridge(Timing(digit=2)) as b:
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.dtmf(linkedid, "4321")
        assert len(await b.dialled(linkedid)) == 1
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert (done.ivr_result, steps(done, "ivr")) == ("passed", [("passed", "PIN accepted")])
    assert b.ari.made("answer") == [("answer", linkedid)]  # the IVR answers before it asks


async def test_wrong_pins_fail_the_ivr_after_the_allowed_attempts() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4, ivr_attempts=2)
    async with bridge() as b:
        linkedid = b.call()
        b.dtmf(linkedid, "1111")  # then nothing: the second attempt times out
        done = await b.ended(linkedid)
    assert (done.disposition, done.ivr_result) == ("IVR_FAILED", "failed")
    assert steps(done, "ivr") == [("failed", "wrong PIN"), ("stopped", "no PIN entered")]
    assert last(done) == ("ivr", "stopped", "IVR_FAILED")
    assert refused(b.ari.requests) == [(names.REFUSE_CONTEXT, "21", "cannot-complete-as-dialed")]
    assert (done.hangup_cause, done.sip_status) == (21, 200)  # the IVR had answered it
    assert ("play", linkedid, "sound:auth-incorrect") in b.ari.requests


async def test_a_caller_who_hangs_up_in_the_ivr_abandoned_the_call() -> None:
    dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4)
    async with bridge(Timing(digit=2)) as b:
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.bridge.events.dispatch_ari({"type": "StasisEnd", "channel": {"id": linkedid}})
        done = await b.ended(linkedid)
    assert (done.disposition, done.hangup_by) == ("NO ANSWER", "caller")
    assert last(done) == ("hangup", "stopped", "NO ANSWER")
    assert b.ari.made("hangup") == []  # it is gone already: not hung up again


# --- the IVR's prompt: a core sound by name, or an upload put on this node first --------------------


def _uploaded_prompt(user_id: int) -> tuple[str, bytes]:
    """An uploaded prompt of `user_id`: its `ivr_prompt` value and the audio Asterisk plays."""
    sound = convert(wav(seconds=1), PROMPT)
    save(PromptAudio(user_id=user_id, name="Welcome", sha256=sound.sha256, ms=sound.ms, audio=sound.audio))
    return uploaded(sound.sha256), sound.audio


async def test_an_uploaded_prompt_is_put_where_asterisk_plays_it_and_asked_with(tmp_path) -> None:
    ln, _ = dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4)
    prompt, audio = _uploaded_prompt(ln.user.id or 0)
    change(Campaign, ln.campaign.id or 0, ivr_prompt=prompt)
    async with bridge(Timing(digit=2)) as b:
        b.ctx.whispers = WhisperFiles(tmp_path)
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.dtmf(linkedid, "4321")
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    sha = prompt.removeprefix("prompt:")
    assert (tmp_path / f"{sha}.wav").read_bytes() == audio  # on this node, named by its content
    assert ("play", linkedid, f"sound:{names.WHISPER_SOUNDS}/{sha}") in b.ari.requests
    assert done.ivr_result == "passed"


async def test_an_upload_that_cant_be_put_on_the_node_asks_with_the_platforms_prompt(tmp_path) -> None:
    ln, _ = dialled_line("Acme desk", ivr_enabled=True, ivr_pins=["4321"], ivr_digits=4, ivr_attempts=1)
    prompt, _ = _uploaded_prompt(ln.user.id or 0)
    change(Campaign, ln.campaign.id or 0, ivr_prompt=prompt)
    blocked = tmp_path / "sounds"
    blocked.write_text("a file where the folder should be")  # nothing can be written into it
    async with bridge(Timing(digit=2)) as b:
        b.ctx.whispers = WhisperFiles(blocked)
        linkedid = b.call()
        await b.live_until(linkedid, lambda shown: shown is not None and shown["state"] == "ivr")
        b.dtmf(linkedid, "4321")
        await b.dialled(linkedid)
        b.ari.end(linkedid)
        done = await b.ended(linkedid)
    assert ("play", linkedid, f"sound:{DEFAULT}") in b.ari.requests and done.ivr_result == "passed"


async def test_a_core_prompt_is_played_by_its_name() -> None:
    dialled_line(
        "Acme desk",
        ivr_enabled=True,
        ivr_pins=["4321"],
        ivr_digits=4,
        ivr_attempts=1,
        ivr_prompt="conf-getpin",
    )
    async with bridge() as b:
        linkedid = b.call()
        done = await b.ended(linkedid)  # no PIN keyed: refused after its one attempt
    assert ("play", linkedid, "sound:conf-getpin") in b.ari.requests and done.ivr_result == "failed"
