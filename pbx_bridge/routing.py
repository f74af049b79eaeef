"""The routing engine (core.routing) as the call flow calls it: one short session per decision,
in autocommit (a decision reads, and moves a round-robin cursor in a statement of its own)."""

from datetime import datetime

from core.db import session_scope
from core.redis_client import get_redis
from core.routing import Admission, RedisLiveCounts, Selection, admit, select_targets
from core.routing.catalogue import CatalogueCache


class EngineRouter:
    def __init__(self) -> None:
        self.live = RedisLiveCounts(get_redis())
        self.catalogue = CatalogueCache()

    def route(self, did: str, caller: str, now: datetime) -> tuple[Admission, Selection | None]:
        """Admission, and the targets too when nothing comes between the two (no IVR to pass):
        one session and one trip to the thread pool for most calls."""
        with session_scope(autocommit=True) as session:
            admission = self.catalogue.decide(session, lambda: admit(session, did, caller, now))
            selection = None
            if admission.admitted and admission.ivr_to_pass is None:
                selection = select_targets(session, admission, caller, now, self.live)
            return admission, selection

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection:
        with session_scope(autocommit=True) as session:
            self.catalogue.attach(session)
            return select_targets(session, admission, caller, now, self.live)
