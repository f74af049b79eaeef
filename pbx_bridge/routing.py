"""The routing engine (core.routing) as the call flow calls it: one short session per decision."""

from datetime import datetime

from core.db import session_scope
from core.redis_client import get_redis
from core.routing import Admission, RedisLiveCounts, Selection, admit, select_targets


class EngineRouter:
    def __init__(self) -> None:
        self.live = RedisLiveCounts(get_redis())

    def admit(self, did: str, caller: str, now: datetime) -> Admission:
        with session_scope() as session:
            return admit(session, did, caller, now)

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection:
        with session_scope() as session:
            return select_targets(session, admission, caller, now, self.live)
