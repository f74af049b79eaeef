"""The routing engine (core.routing) as the call flow calls it: one short session per decision,
in autocommit (a decision reads, and moves a round-robin cursor in a statement of its own).

Each routing thread keeps one connection of its own for its sessions: a connection checked out of
the pool per decision cost a ping of the database and the pool's bookkeeping every call. A
connection found broken (the database restarted) is replaced and the decision made again, once.
A new connection is waited for up to DB_WAIT_SECONDS: a call arriving while PostgreSQL restarts
(about a second under `make run`'s supervision) is routed late rather than failed.
"""

import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session

from core.infra.db import autocommit_engine
from core.infra.redis_client import get_redis
from core.routing import Admission, RedisLiveCounts, Selection, admit, select_targets
from core.routing.catalogue import CatalogueCache
from pbx_bridge.metrics import ROUTING_DECISION

T = TypeVar("T")
DB_WAIT_SECONDS = 3.0


class EngineRouter:
    def __init__(self) -> None:
        self.live = RedisLiveCounts(get_redis())
        self.catalogue = CatalogueCache()
        self._local = threading.local()

    def route(self, did: str, caller: str, now: datetime) -> tuple[Admission, Selection | None]:
        """Admission, and the targets too when nothing comes between the two (no IVR to pass):
        one session and one trip to the thread pool for most calls."""

        def decide(session: Session) -> tuple[Admission, Selection | None]:
            admission = self.catalogue.decide(session, lambda: admit(session, did, caller, now))
            selection = None
            if admission.admitted and admission.ivr_to_pass is None:
                selection = select_targets(session, admission, caller, now, self.live)
            return admission, selection

        return self._in_session(decide)

    def select(self, admission: Admission, caller: str, now: datetime) -> Selection:
        def decide(session: Session) -> Selection:
            self.catalogue.attach(session)
            return select_targets(session, admission, caller, now, self.live)

        return self._in_session(decide)

    @ROUTING_DECISION.time()
    def _in_session(self, decide: Callable[[Session], T]) -> T:
        for attempt in (1, 2):
            conn = self._connection()
            try:
                with Session(bind=conn, expire_on_commit=False) as session:
                    result = decide(session)
                    session.commit()
                    return result
            except DBAPIError as exc:
                if not exc.connection_invalidated or attempt == 2:
                    raise
                self._local.conn = None  # broken: the next try takes a new one
        raise AssertionError("unreachable")

    def _connection(self) -> Connection:
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.invalidated:
            conn = self._local.conn = _connect()
        return conn


def _connect() -> Connection:
    deadline = time.monotonic() + DB_WAIT_SECONDS
    while True:
        try:
            return autocommit_engine().connect()
        except OperationalError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.2)  # the database is restarting: the call waits in Asterisk meanwhile
