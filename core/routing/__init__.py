"""The routing decision engine (domain.md, "A call, from ring to invoice" step 2).

The bridge calls `admit` when a call arrives, runs the IVR when `admission.ivr_to_pass`, then
calls `select_targets` (in the same session when there is no IVR) and dials the candidates in
order, appending its own trail entries (the trail's vocabulary: core.calls.record).
"""

from core.routing.admission import Admission, IvrSettings, admit
from core.routing.live import LiveCounts, RedisLiveCounts
from core.routing.selection import Candidate, Selection, TrunkDial, select_targets

__all__ = [
    "Admission",
    "Candidate",
    "IvrSettings",
    "LiveCounts",
    "RedisLiveCounts",
    "Selection",
    "TrunkDial",
    "admit",
    "select_targets",
]
