"""The routing engine (core.routing) as the call flow calls it: one short session per decision."""

from collections.abc import Callable
from datetime import datetime
from typing import Any

from core.db import session_scope
from core.redis_client import get_redis
from core.routing import Admission, RedisLiveCounts, Selection, admit, select_targets
from core.routing.catalogue import CatalogueCache
from pbx_bridge import call_record


class EngineRouter:
    def __init__(self) -> None:
        self.live = RedisLiveCounts(get_redis())
        self.catalogue = CatalogueCache()

    def route(
        self, did: str, caller: str, now: datetime, first_row: Callable[[Admission], dict[str, Any]]
    ) -> tuple[Admission, Selection | None]:
        """Admission, and the targets too when nothing comes between the two (no IVR to pass),
        with the call's first row (`first_row` of the admission) written in the same transaction:
        one session, one commit and one trip to the thread pool for most calls."""
        with session_scope() as session:
            self.catalogue.attach(session)
            admission = admit(session, did, caller, now)
            selection = None
            if admission.admitted and admission.ivr_to_pass is None:
                selection = select_targets(session, admission, caller, now, self.live)
            call_record.save(first_row(admission), session.connection())
            return admission, selection

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection:
        with session_scope() as session:
            self.catalogue.attach(session)
            return select_targets(session, admission, caller, now, self.live)
