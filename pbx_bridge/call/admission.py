"""Admission and the IVR: what the routing engine decided about the call taken in (its first row
is written at once), and the PIN a campaign's IVR asks the caller for."""

import uuid

from core.calls.prompts import DEFAULT, uploaded_sha
from core.calls.record import CallState, Result, Step
from core.routing import Admission, IvrSettings
from core.values.enums import Disposition, LiveState, WebhookEvent
from pbx_bridge.call.caller import Caller, channel_of, now
from pbx_bridge.call.context import Context
from pbx_bridge.events import Event


def misdialled(call: CallState, exten: str | None) -> bool:
    """The extension Asterisk received is not the number the dialplan handed over (it filtered
    characters no phone number has): the call is refused, not routed to another number."""
    if exten is None or exten == call.did:
        return False
    reason = f"the dialled number {exten!r} holds characters no phone number has"
    call.note(Step.ROUTE, Result.STOPPED, reason, now(), disposition=Disposition.NO_ROUTE.value)
    return True


def take_in(ctx: Context, call: CallState, admission: Admission) -> None:
    """Take in what admission decided, and write the call's first row: a row exists from the
    first moment, whatever happens next."""
    call.trail.extend(admission.trail)
    # E.164 where they parse, as the engine normalised them.
    call.did, call.caller = admission.did, admission.caller
    call.origin = admission.origin.columns() if admission.origin else None
    call.user_id, call.campaign_id, call.number_id, call.source_id = (
        admission.user_id,
        admission.campaign_id,
        admission.number_id,
        admission.source_id,
    )
    ctx.rows.write(call.row(now()))
    ctx.hooks(WebhookEvent.INCOMING, call)


async def ivr(ctx: Context, caller: Caller, settings: IvrSettings) -> bool:
    """Answer, ask for the PIN as DTMF, allow `attempts` tries; False when the caller failed them
    (the call is refused then)."""
    call = caller.call
    await ctx.ari.answer(caller.id)
    call.answered_at = now()
    call.live_state = LiveState.IVR
    await ctx.live.put(call.live())
    prompt = f"sound:{await _prompt(ctx, settings.prompt)}"
    for attempt in range(1, settings.attempts + 1):
        await ctx.ari.play(caller.id, prompt, f"pb-{uuid.uuid4().hex}")
        digits = await _digits(caller, settings.digits, ctx.timing.digit)
        if digits in settings.pins:
            call.note(Step.IVR, Result.PASSED, "PIN accepted", now(), attempt=attempt)
            call.ivr_result = Result.PASSED.value
            return True
        why = "wrong PIN" if digits else "no PIN entered"
        if attempt < settings.attempts:
            call.note(Step.IVR, Result.FAILED, why, now(), attempt=attempt)
            await _play(ctx, caller, "sound:auth-incorrect", ctx.timing.retry_prompt)
    failed = Disposition.IVR_FAILED.value
    call.note(Step.IVR, Result.STOPPED, why, now(), attempt=attempt, disposition=failed)
    call.ivr_result = Result.FAILED.value
    return False


async def _prompt(ctx: Context, prompt: str | None) -> str:
    """What Asterisk plays to ask for the PIN: an uploaded prompt once its file is on this node (the
    platform's own when it can't be put there), else the core sound named."""
    sha = uploaded_sha(prompt)
    if sha is None:
        return prompt or DEFAULT
    return await ctx.whispers.ensure(sha) or DEFAULT


async def _play(ctx: Context, caller: Caller, media: str, wait: float) -> None:
    playback = f"pb-{uuid.uuid4().hex}"
    await ctx.ari.play(caller.id, media, playback)

    def finished(event: Event) -> bool:
        return event.get("type") == "PlaybackFinished" and event.get("playback", {}).get("id") == playback

    await caller.next_event(finished, wait)


async def _digits(caller: Caller, count: int, timeout: float) -> str:
    def digit(event: Event) -> bool:
        return event.get("type") == "ChannelDtmfReceived" and channel_of(event) == caller.id

    digits = ""
    while len(digits) < count:
        event = await caller.next_event(digit, timeout)
        if event is None:
            break
        digits += event.get("digit", "")
    return digits
