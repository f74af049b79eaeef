"""The routing dry run: where a call from this caller to this DID would go now, and why."""

from typing import Any

from pydantic import BaseModel, Field

from core.enums import Disposition
from core.routing import Candidate
from portal_api.schemas.common import StrictBody


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
        )


class DryRunOut(BaseModel):
    disposition: Disposition | None = Field(
        description="How the call would end now; null: it would be dialled"
    )
    stopped_at: str | None = Field(description="The step that would stop it (route, block, credit, ...)")
    ivr: bool = Field(description="Whether the caller would be asked for a PIN first")
    candidates: list[DryRunCandidate] = Field(description="Targets in the order they would be dialled")
    trail: list[dict[str, Any]] = Field(description="Every decision and its reason (docs/routing.md)")
