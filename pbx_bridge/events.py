"""Event routing as one table: event name -> handler (wazo-calld's `subscribe()` style).

Whoever handles events subscribes its handlers to the table (`Flows.subscribe`,
`Commands.subscribe`); every source the bridge hears feeds the same table: ARI events by `type`,
the dialplan's AMI user events by `UserEvent`, and the API's commands by pub/sub channel. So the
events the bridge reads, and who reads each, are in one place, and Asterisk is asked for exactly
the ARI events in it (`names(Source.ARI)`, ARI's event filter).
"""

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TypedDict, cast


class Dialplan(TypedDict, total=False):
    exten: str  # the extension dialled, as Asterisk received it


class Channel(TypedDict, total=False):
    """The part of ARI's channel snapshot the bridge reads."""

    id: str  # the channel's uniqueid (the caller's: the call's linkedid)
    name: str  # e.g. PJSIP/carrier-00000001: AMI names channels by name
    state: str  # "Up" once answered
    dialplan: Dialplan


class Playback(TypedDict, total=False):
    id: str
    target_uri: str  # "channel:<id>": what it plays on


class Event(TypedDict, total=False):
    """An event as the table hands it on, whatever its source; only the fields the bridge reads.

    ARI's come as Asterisk sends them (JSON); a dialplan user event's are its AMI headers,
    lower-cased (`linkedid` ... `recording`, all text); a command from the API has the text it
    published as `data` (core.pbx.pbx_commands reads it)."""

    type: str
    # ARI
    timestamp: str  # when Asterisk published it (milliseconds, with a zone)
    channel: Channel
    args: list[str]  # StasisStart: the dialplan's arguments (the DID, the caller)
    playback: Playback
    digit: str  # ChannelDtmfReceived
    soft: bool  # ChannelHangupRequest: Asterisk's own (a redirect, ARI), not the caller's BYE
    # the dialplan's user events (core.infra.names: CallrouteAttempt, CallrouteAnswered, CallrouteEnd)
    linkedid: str
    at: str  # Asterisk's clock: epoch seconds to the microsecond
    cause: str  # Q.850
    by: str  # CallrouteEnd: "target" or "system" when not the caller
    status: str  # Dial's status
    sip: str  # the SIP cause Asterisk reports for a failed attempt
    recording: str  # CallrouteAnswered: the recording's file, when one started
    # pub/sub
    data: str


Handler = Callable[[Event], None]


class Source(StrEnum):
    ARI = "ari"  # the Stasis app's websocket; the event's name is its `type`
    AMI = "ami"  # a user event the dialplan raises; its name is the `UserEvent` header
    PUBSUB = "pubsub"  # a command from the API; its name is the channel (core.infra.names)


class EventTable:
    def __init__(self) -> None:
        self._handlers: dict[str, tuple[Source, Handler]] = {}

    def subscribe(self, source: Source, name: str, handler: Handler) -> None:
        """`handler` takes every event named `name`; one handler per name, so none is shadowed."""
        if name in self._handlers:
            raise ValueError(f"{name} already has a handler")
        self._handlers[name] = (source, handler)

    def names(self, source: Source) -> tuple[str, ...]:
        return tuple(name for name, (each, _) in self._handlers.items() if each == source)

    def dispatch(self, name: str, event: Event) -> None:
        """To the handler of `name`; events nobody subscribed to are dropped."""
        if (found := self._handlers.get(name)) is not None:
            found[1](event)

    def dispatch_ari(self, event: Event) -> None:
        self.dispatch(event.get("type", ""), event)

    def dispatch_user_event(self, message: Mapping[str, str]) -> None:
        """An AMI user event, as an event like ARI's: `type` its name, its headers lower-cased."""
        name = message.get("UserEvent", "")
        if name in self._handlers:
            # Every header is text, as Event's user-event fields are; the dialplan names them.
            headers = {key.lower(): value for key, value in message.items()}
            self.dispatch(name, cast(Event, {"type": name, **headers}))
