"""The routing engine (core.routing) as the call flow calls it: one short session per decision,
in autocommit (a decision reads, and moves a round-robin cursor in a statement of its own).

Each routing thread keeps one connection of its own for its sessions: a connection checked out of
the pool per decision cost a ping of the database and the pool's bookkeeping every call. A
connection found broken (the database restarted) is replaced and the decision made again, once.
A new connection is waited for up to DB_WAIT_SECONDS: a call arriving while PostgreSQL restarts
(about a second under `make run`'s supervision) is routed late rather than failed.

Past that, with an outage journal to keep the calls' rows in, the router goes offline: it decides
from what it last read (core.routing.last_known, the catalogue cache) for up to
OUTAGE_ROUTE_SECONDS and while the journal has room, asking the database again at most every
PROBE_SECONDS (docs/scale.md, "PostgreSQL away").
"""

import logging
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
from core.infra.settings import get_settings
from core.routing import Admission, RedisLiveCounts, Selection, admit, select_targets
from core.routing.catalogue import CatalogueCache
from core.routing.last_known import LastKnown, attach
from pbx_bridge.journal import Journal
from pbx_bridge.metrics import ROUTED_OFFLINE, ROUTING_DECISION

log = logging.getLogger(__name__)

T = TypeVar("T")
DB_WAIT_SECONDS = 3.0
PROBE_SECONDS = 1.0  # offline, how often a decision asks the database first


class OutageTooLong(Exception):
    """Offline past what the bridge may route from: the call is refused, as with no database."""


class EngineRouter:
    def __init__(self, known: LastKnown | None = None, journal: Journal | None = None) -> None:
        self.live = RedisLiveCounts(get_redis())
        self.catalogue = CatalogueCache()
        self.known = known or LastKnown()
        self.journal = journal  # None: no offline routing (nothing would keep the calls' rows)
        self._local = threading.local()
        self._probed = 0.0  # when an offline decision last asked the database

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
        if self.known.offline:
            if time.monotonic() - self._probed < PROBE_SECONDS:
                return self._offline(decide)
            self._probed = time.monotonic()  # this decision asks; the others decide offline meanwhile
        for attempt in (1, 2):
            try:
                conn = self._connection()
            except OperationalError:
                if self.journal is None:
                    raise
                return self._offline(decide)
            try:
                with Session(bind=conn, expire_on_commit=False) as session:
                    attach(session, self.known)
                    result = decide(session)
                    session.commit()
            except DBAPIError as exc:
                if not exc.connection_invalidated or attempt == 2:
                    raise
                self._local.conn = None  # broken: the next try takes a new one
                continue
            if self.known.offline:
                log.warning("PostgreSQL answers again: routing reads it again")
                self.known.came_back()
            return result
        raise AssertionError("unreachable")

    def _offline(self, decide: Callable[[Session], T]) -> T:
        """`decide` from what routing last read: its session never reaches the database."""
        if not self.known.offline:
            log.warning("PostgreSQL does not answer: routing from what it last read")
            self.known.went_offline()
            # Only here and at a probe: were each offline decision to put the next probe off, calls
            # coming faster than PROBE_SECONDS would never ask again and routing would stay offline.
            self._probed = time.monotonic()
        assert self.journal is not None
        if self.journal.full:
            raise OutageTooLong(f"the outage journal is full ({self.journal.max_bytes} bytes)")
        if (away := self.known.offline_for()) > get_settings().outage_route_seconds:
            raise OutageTooLong(f"PostgreSQL away for {away:.0f} s, past OUTAGE_ROUTE_SECONDS")
        with Session(bind=autocommit_engine(), expire_on_commit=False) as session:
            attach(session, self.known, offline=True)
            result = decide(session)
        ROUTED_OFFLINE.inc()
        return result

    def _connection(self) -> Connection:
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.invalidated:
            # Offline, one try: the call routes from what was read rather than wait.
            conn = self._local.conn = _connect(0 if self.known.offline else DB_WAIT_SECONDS)
        return conn


def _connect(wait: float) -> Connection:
    deadline = time.monotonic() + wait
    while True:
        try:
            return autocommit_engine().connect()
        except OperationalError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.2)  # the database is restarting: the call waits in Asterisk meanwhile
