"""Event routing as one table: event name -> handler (wazo-calld's `subscribe()` style).

Whoever handles events subscribes its handlers to the table (`Flows.subscribe`,
`Commands.subscribe`); every source the bridge hears feeds the same table: ARI events by `type`,
the dialplan's AMI user events by `UserEvent`, and the API's commands by pub/sub channel. So the
events the bridge reads, and who reads each, are in one place, and Asterisk is asked for exactly
the ARI events in it (`names(Source.ARI)`, ARI's event filter).
"""

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

Event = dict[str, Any]
Handler = Callable[[Event], None]


class Source(StrEnum):
    ARI = "ari"  # the Stasis app's websocket; the event's name is its `type`
    AMI = "ami"  # a user event the dialplan raises; its name is the `UserEvent` header
    PUBSUB = "pubsub"  # a command from the API; its name is the channel (core.names)


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
        self.dispatch(str(event.get("type", "")), event)

    def dispatch_user_event(self, message: Mapping[str, str]) -> None:
        """An AMI user event, as an event like ARI's: `type` its name, its headers lower-cased."""
        name = message.get("UserEvent", "")
        if name in self._handlers:
            self.dispatch(name, {"type": name, **{key.lower(): value for key, value in message.items()}})
