"""The caller's channel as a call's flow hears it: the call's own queue of events (ARI's for the
channel and its playbacks, the dialplan's user events for the call), handled in Asterisk's order;
the moments Asterisk stamps on them (its answer and hang-up bill the call: docs/billing.md, "Talk
time"); and hanging it up, once."""

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from core.calls import q850
from core.calls.record import CallState
from core.infra import names
from core.pbx.ari import AriError
from core.values.enums import HangupBy
from pbx_bridge.call.context import CallAri, CallerGone, LetGo
from pbx_bridge.events import Event

log = logging.getLogger(__name__)

# The user events the dialplan raises for the call it dials (AMI), as the flows read them.
DIALPLAN_EVENTS = (names.ATTEMPT_EVENT, names.ANSWERED_EVENT, names.END_EVENT)
CANCELLED = 487  # Request Terminated: what a caller's CANCEL gets for its INVITE
_LET_GO = "LetGo"  # the event that tells a flow to let go of its call


def now() -> datetime:
    return datetime.now(UTC)


def asterisk_time(event: Event) -> datetime | None:
    """When Asterisk says the dialplan event happened (`At`: epoch seconds to the microsecond, from
    the dialplan's STRFTIME), not when the bridge heard it: talk time is billed from these when the
    caller's channel's own answer or hang-up (`ari_time`) was not heard."""
    seconds, _, fraction = event.get("at", "").partition(".")
    if not seconds.isdigit() or not (fraction or "0").isdigit():
        return None
    micros = int((fraction + "000000")[:6])
    return datetime.fromtimestamp(int(seconds), UTC) + timedelta(microseconds=micros)


def ari_time(event: Event) -> datetime | None:
    """When Asterisk says an ARI event happened (its `timestamp`, to the millisecond: the moment
    Asterisk published it, not when the bridge heard it)."""
    try:
        return datetime.strptime(str(event.get("timestamp")), "%Y-%m-%dT%H:%M:%S.%f%z").astimezone(UTC)
    except ValueError:
        return None


def channel_of(event: Event) -> str | None:
    """The channel an ARI event is about (a playback's: the channel it plays on)."""
    if "channel" in event:
        return event["channel"].get("id")
    target = event.get("playback", {}).get("target_uri", "")
    return target.removeprefix("channel:") or None


def is_end(event: Event) -> bool:
    return event.get("type") == names.END_EVENT


def is_dialplan_event(event: Event) -> bool:
    return event.get("type") in DIALPLAN_EVENTS


def cause_of(event: Event) -> int | None:
    """The Q.850 cause a dialplan event carries, when it carries one."""
    cause = event.get("cause", "")
    return int(cause) if cause.isdigit() else None


class Caller:
    """The caller's channel: the call's first, its id the linkedid."""

    def __init__(self, ari: CallAri, call: CallState, name: str = "") -> None:
        self.ari, self.call = ari, call
        self.id = call.linkedid
        self.name = name  # AMI names channels by name, not id
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.in_dialplan = False  # sent on to the dialplan, which dials: its StasisEnd is no hang-up
        self.gone = False  # hung up by us or seen ending: not again

    def deliver(self, event: Event) -> None:
        self.queue.put_nowait(event)

    def let_go(self) -> None:
        """Stop following the call (see LetGo), whatever the flow waits for."""
        self.deliver({"type": _LET_GO})

    async def next_event(self, match: Callable[[Event], bool], timeout: float | None) -> Event | None:
        """The next event `match` accepts, or None after `timeout`; raises CallerGone when the
        caller hangs up while the call is in Stasis. Whatever the caller's channel says on the way
        (its answer, its hang-up, the call's end) is taken in."""
        try:
            # One deadline for the whole wait (asyncio.timeout: no task per event, as wait_for makes).
            async with asyncio.timeout(timeout):
                while True:
                    event = await self.queue.get()
                    self._take_in(event)
                    if match(event):
                        return event
        except TimeoutError:
            return None

    def _take_in(self, event: Event) -> None:
        kind = event.get("type")
        if kind == _LET_GO:
            raise LetGo
        if kind == "StasisEnd" and channel_of(event) == self.id and not self.in_dialplan:
            self.gone = True
            self.call.hung_up_by(HangupBy.CALLER)
            self.released(16, 200 if self.call.answered_at else CANCELLED)
            raise CallerGone
        if kind == "ChannelStateChange" and channel_of(event) == self.id:
            self._answered(event)
        if kind == "ChannelHangupRequest" and channel_of(event) == self.id:
            self._hung_up(event)
        if kind == names.END_EVENT:  # the caller's channel is gone: nothing left to hang up
            self.gone = True
            self.ends(asterisk_time(event))
            if (cause := cause_of(event)) is not None:
                self.call.hangup_cause = cause

    def _answered(self, event: Event) -> None:
        """The caller's channel answered (`Up`), by Asterisk's clock: Dial answers it after the
        target, as it bridges them, and its 200 OK leaves within a few ms (docs/billing.md, "Talk
        time"). Billed time starts there, and talk time too when the target answered first (it
        did, unless the IVR had answered the caller long before)."""
        up = ari_time(event) if event.get("channel", {}).get("state") == "Up" else None
        if up is None:
            return
        call = self.call
        call.answered_at = up
        if call.connected_at is not None:
            call.connected_at = max(call.connected_at, up)

    def _hung_up(self, event: Event) -> None:
        """The caller's side hung up (a hangup request from its channel driver: its BYE, as
        Asterisk's SIP stack took it in; a soft one is Asterisk's own, ARI's or a redirect). Under
        load the dialplan's end (`At`, in the h extension) runs up to hundreds of ms after it."""
        if not event.get("soft"):
            self.ends(ari_time(event))

    def ends(self, at: datetime | None) -> None:
        """The call's end by Asterisk's clock: the first moment it knew (the row shows it once the
        call is over: CallState.row)."""
        if at is not None:
            self.call.ended_at = min(self.call.ended_at or at, at)

    async def follow(self) -> None:
        """Keep hearing the caller's channel in the dialplan: its answer starts talk time. Without
        it, talk time starts at the target's answer (the dialplan's `At`), a little early."""
        try:
            await self.ari.follow(self.id)
        except AriError as exc:
            log.warning("could not follow the caller's channel %s: %s", self.id, exc)

    async def hang_up(self) -> None:
        """Hang up the caller once: a second request would cost a round trip and could change the
        cause the caller hears (486 Busy turned into 603 Decline). ARI hangs a channel up in the
        dialplan too."""
        if not self.gone:
            self.gone = True
            self.released(16, 200 if self.call.answered_at else None)
            await self.ari.hangup(self.id, "normal")

    def released(self, cause: int, sip_status: int | None) -> None:
        """The caller's channel ends with `cause` (Q.850); an unanswered caller's INVITE gets the
        status Asterisk maps it to, unless `sip_status` says what it got."""
        self.call.hangup_cause = cause
        if self.call.sip_status is None:  # a target's status, once dialled, stays the call's
            self.call.sip_status = sip_status or q850.sip_status(cause)
