"""A real portal process under more API requests at once than it serves and queues: the excess is
answered 503 with Retry-After at once, the rest 200, and it serves again afterwards
(portal_api.load_shedding, docs/api.md)."""

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

from core.infra.settings import get_settings
from portal_api.load_shedding import BUSY_MESSAGE, RETRY_AFTER_SECONDS
from testkit.actors import Actor
from testkit.processes import api_server
from testkit.waiting import eventually

CONCURRENCY = 2
QUEUE = 1
SENT = 6
LIST = "/api/trunk/details"


@contextmanager
def trunks_locked() -> Iterator[psycopg.Connection]:
    """The trunk table locked by another connection: every trunk list holds its place until released."""
    with psycopg.connect(get_settings().database_url) as conn:
        conn.execute("LOCK TABLE trunk IN ACCESS EXCLUSIVE MODE")
        yield conn


def test_past_its_places_and_queue_the_portal_answers_503_then_serves_again(
    admin: Actor, tmp_path: Path
) -> None:
    env = {"PORTAL_CONCURRENCY": str(CONCURRENCY), "PORTAL_QUEUE": str(QUEUE), "PORTAL_QUEUE_SECONDS": "60"}
    with (
        api_server(log=tmp_path / "portal.log", **env) as base,
        httpx.Client(base_url=base, headers=admin.headers, timeout=60) as client,
    ):
        with trunks_locked() as lock, ThreadPoolExecutor(SENT) as pool:
            sent: list[Future[httpx.Response]] = [pool.submit(client.get, LIST) for _ in range(SENT)]
            excess = SENT - CONCURRENCY - QUEUE

            def refused() -> list[Future[httpx.Response]]:
                done = [f for f in sent if f.done()]
                assert len(done) == excess, [f.result().status_code for f in done]
                return done

            # The excess is answered while the others still wait on the lock.
            excess_answers = eventually(refused, timeout=30, what="the excess refused")
            for answer in (f.result() for f in excess_answers):
                assert answer.status_code == 503
                assert answer.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
                assert answer.json() == {"message": BUSY_MESSAGE}
                assert answer.headers["X-Content-Type-Options"] == "nosniff"
            # Health probes are not API requests: they answer while the API is full.
            assert httpx.get(f"{base}/health/live", timeout=10).status_code == 200
            lock.rollback()  # the lock goes: those in their places, then the queued one, answer
            served = [f.result() for f in sent if f not in excess_answers]
        assert [r.status_code for r in served] == [200] * (CONCURRENCY + QUEUE)
        # Every place is free again (once each answered request has left its place, which may be
        # a moment after its client read the answer).

        def all_served() -> bool:
            with ThreadPoolExecutor(CONCURRENCY + QUEUE) as pool:
                again = list(pool.map(lambda _: client.get(LIST), range(CONCURRENCY + QUEUE)))
            return [r.status_code for r in again] == [200] * (CONCURRENCY + QUEUE)

        eventually(all_served, timeout=30, what="as many requests as places and queue all served")
