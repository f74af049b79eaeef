"""The routing dry run: where a call from this caller to this DID would go now, and why."""

from typing import cast

from pydantic import BaseModel, ConfigDict, Field, with_config

# pydantic reads a TypedDict from typing_extensions before Python 3.12.
from typing_extensions import TypedDict

from core.calls.record import Entry
from core.routing import Candidate
from core.routing.auction import Exchange
from core.routing.bids import PingBody, PostBody
from core.values.enums import Disposition
from portal_api.schemas.common import MoneyOut, StrictBody


class DryRunIn(StrictBody):
    did: str = Field(min_length=1, max_length=32, description="The dialled number, as a carrier sends it")
    caller: str = Field(min_length=1, max_length=64, description="The caller id")


class DryRunTrunk(BaseModel):
    id: int
    name: str


class DryRunCandidate(BaseModel):
    target_id: int
    buyer_id: int
    name: str
    destination: str
    priority: int
    weight: int
    trunk: DryRunTrunk | None
    payout: MoneyOut = Field(description="What the call would earn here: the target's payout or its bid")
    bid: MoneyOut | None = Field(default=None, description="The bid it won with, for a bidder")

    @classmethod
    def of(cls, c: Candidate) -> "DryRunCandidate":
        trunk = DryRunTrunk(id=c.trunk.id, name=c.trunk.name) if c.trunk else None
        return cls(
            target_id=c.target_id,
            buyer_id=c.buyer_id,
            name=c.name,
            destination=c.destination,
            priority=c.priority,
            weight=c.weight,
            trunk=trunk,
            payout=c.payout,
            bid=c.bid,
        )


@with_config(ConfigDict(extra="allow"))
class TrailEntry(TypedDict, total=False):
    """One entry of a call's trail (docs/routing.md, "The trail"): what every entry the routing
    and the bridge write has, and its step's own fields (ids, numbers, strings) beside them. Read
    as stored: an entry is answered as it was written, whatever it holds."""

    step: str
    at: str  # ISO 8601 time with offset
    result: str  # passed, stopped, failed, candidate, skipped or flagged
    reason: str


def trail_out(trail: list[Entry]) -> list[TrailEntry]:
    """A trail as the answer types it: any entry is one (no key required, every key kept), and
    the answer's model checks it when built."""
    return cast(list[TrailEntry], trail)


class DryRunExchange(BaseModel):
    """A request of the auction: a ping sent (flagged `test`), or the post the winner would get."""

    target_id: int
    name: str
    phase: str = Field(description="ping or post")
    url: str
    request: PingBody | PostBody = Field(description="The JSON body sent (ping) or that would be sent (post)")
    result: str = Field(description="candidate / skipped for a ping; passed for the post")
    reason: str
    latency_ms: int | None = Field(description="null: not sent (the post, in a dry run)")

    @classmethod
    def of(cls, x: Exchange) -> "DryRunExchange":
        return cls(
            target_id=x.target_id,
            name=x.name,
            phase=x.phase,
            url=x.url,
            request=x.request,
            result=x.result,
            reason=x.reason,
            latency_ms=x.latency_ms,
        )


class DryRunOut(BaseModel):
    disposition: Disposition | None = Field(
        description="How the call would end now; null: it would be dialled"
    )
    stopped_at: str | None = Field(description="The step that would stop it (route, block, credit, ...)")
    ivr: bool = Field(description="Whether the caller would be asked for a PIN first")
    candidates: list[DryRunCandidate] = Field(description="Targets in the order they would be dialled")
    trail: list[TrailEntry] = Field(description="Every decision and its reason (docs/routing.md)")
    bids: list[DryRunExchange] = Field(
        default_factory=list, description="Bidders pinged (flagged test) and the post the winner would get"
    )
