"""What a bridge keeps to go on through a PostgreSQL outage (docs/scale.md, "PostgreSQL away"):
routing's last reads (core.routing.last_known), which the router and the credit slices answer
from, and the journal the rows and holds made meanwhile wait in (pbx_bridge.journal)."""

from dataclasses import dataclass

from core.routing.last_known import LastKnown
from pbx_bridge.journal import Journal


@dataclass(frozen=True)
class Outage:
    known: LastKnown
    journal: Journal

    @classmethod
    def from_settings(cls) -> "Outage":
        return cls(LastKnown(), Journal.from_settings())
