"""What every call's flow shares (`Context`), and the gateways and router as a flow uses them."""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from core.calls.record import CallState
from core.routing import Admission, Selection
from core.routing.auction import Auction
from core.values.enums import WebhookEvent
from pbx_bridge.attribution import Attributor
from pbx_bridge.live_store import LiveStore
from pbx_bridge.outage import Outage
from pbx_bridge.row_writer import RowWriter
from pbx_bridge.whisper import WhisperFiles

if TYPE_CHECKING:  # the flow keeps its context; the context lists the flows
    from pbx_bridge.call.flow import CallFlow


@dataclass(frozen=True)
class Timing:
    """How long a call waits for what (seconds). Tests shorten them; the defaults are the product's."""

    extend_ahead: float = 10  # ask for the next credit slice this long before the paid-for time ends
    warning: float = 2  # the goodbye plays this long before credit runs out
    goodbye: float = 10  # how long the goodbye may take before the call is hung up regardless
    row_wait: float = 5  # how long a call's connected state waits for its answered row
    digit: float = 10  # how long the IVR waits for each PIN digit
    retry_prompt: float = 5  # the "wrong PIN" prompt's longest wait


class CallAri(Protocol):
    """ARI as a call's flow uses it (pbx_bridge.ari.Ari; a fake in the unit tests)."""

    async def answer(self, channel: str) -> None: ...

    async def hangup(self, channel: str, reason: str = "normal") -> None: ...

    async def play(self, channel: str, media: str, playback_id: str) -> None: ...

    async def continue_in_dialplan(self, channel: str, context: str, variables: dict[str, str]) -> None: ...

    async def follow(self, channel: str) -> None: ...

    async def channel_var(self, channel: str, name: str) -> str | None: ...


class CallAmi(Protocol):
    """AMI as a call's flow uses it (pbx_bridge.ami.Ami): actions, whose answers it does not read;
    raises AmiError when it can't."""

    async def send(self, action: str, **fields: str) -> object: ...


class Router(Protocol):
    """The routing engine as the bridge uses it (core.routing behind pbx_bridge.routing)."""

    def route(self, did: str, caller: str, now: datetime) -> tuple[Admission, Selection | None]: ...

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection: ...


class CallerGone(Exception):
    """The caller hung up; whatever the flow was waiting for no longer matters."""


class LetGo(Exception):
    """The bridge stops following this call (it is stopping, or Asterisk lost track of the end):
    the call, in the dialplan, needs nobody; its open row is for the reconciliation to complete."""


@dataclass
class Context:
    """What every call shares: the gateways, the stores, the router, and which flow owns which
    call (by the caller's channel id, which is the call's linkedid)."""

    ari: CallAri
    ami: CallAmi  # redirects a call out of credit to its goodbye
    live: LiveStore
    router: Router
    rows: RowWriter
    after_hangup: Callable[[str], None]  # told each call whose final row is in (rating)
    timing: Timing = field(default_factory=Timing)
    channels: "dict[str, CallFlow]" = field(default_factory=dict)
    node_id: str = ""  # this node's (core.pbx.nodes): the calls it answers for
    hooks: Callable[[WebhookEvent, CallState], None] = lambda kind, state: None  # webhooks' events
    auction: Auction = field(default_factory=Auction)  # asks bidding targets for bids (docs/bidding.md)
    whispers: WhisperFiles = field(default_factory=WhisperFiles.from_settings)  # where Asterisk plays them
    attribution: Attributor = field(default_factory=Attributor)  # website visits (docs/attribution.md)
    outage: Outage | None = None  # routing and credit through a PostgreSQL outage (None: refused)
