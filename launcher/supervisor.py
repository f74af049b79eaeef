"""Supervision: every process of `make run` (the services and the embedded engines) is brought back
when it dies. One that keeps dying is tried again ever later (exponential back-off) and reported,
while the healthy rest runs on: an API that crashes at start must not stop the calls.
"""

import logging
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

log = logging.getLogger("launch")

TICK_SECONDS = 0.5
FIRST_BACKOFF_SECONDS = 1.0  # the second death in a row waits this long, each further one twice longer
MAX_BACKOFF_SECONDS = 60.0
STABLE_SECONDS = 60.0  # a run this long counts as healthy: the next death starts the count over
REPORT_AFTER = 3  # deaths in a row before the console is told the process keeps crashing


class Engine(Protocol):
    """An embedded engine (launcher.embedded): a daemon the supervisor watches and starts again."""

    name: str

    def alive(self) -> bool: ...

    def start_again(self) -> None: ...


@dataclass
class Child:
    """A service the launcher starts as its child process."""

    name: str
    argv: list[str]
    own_env: dict[str, str] = field(default_factory=dict)  # on top of the launcher's (one node's)
    before_start: Callable[[], None] | None = None  # run before every start (the portal's metrics folder)
    process: subprocess.Popen[bytes] | None = None

    def start(self, env: dict[str, str]) -> None:
        log.info("starting %s", self.name)
        if self.before_start:
            self.before_start()
        self.process = subprocess.Popen(self.argv, env={**env, **self.own_env})

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()

    def wait(self) -> None:
        if self.process:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


@dataclass
class Watch:
    """One supervised process's record: when it last started, its deaths in a row, its next try."""

    started_at: float = field(default_factory=time.monotonic)
    deaths: int = 0
    next_try: float | None = None  # set while it is down

    def died(self, now: float) -> float:
        """Count a death seen at `now`; the wait before the next start."""
        self.deaths = 1 if now - self.started_at >= STABLE_SECONDS else self.deaths + 1
        wait = (
            0.0
            if self.deaths == 1
            else min(FIRST_BACKOFF_SECONDS * 2 ** (self.deaths - 2), MAX_BACKOFF_SECONDS)
        )
        self.next_try = now + wait
        return wait


def _keep_up(name: str, watch: Watch, alive: bool, start: Callable[[], None], now: float) -> None:
    if alive:
        return
    due = watch.next_try
    if due is None:  # newly found dead
        wait = watch.died(now)
        due = now + wait
        if watch.deaths >= REPORT_AFTER:
            log.error("%s keeps crashing (%d times in a row); next try in %.0f s", name, watch.deaths, wait)
        else:
            log.warning("%s died; starting it again", name)
    if now < due:
        return
    watch.started_at, watch.next_try = now, None
    try:
        start()
    except Exception as exc:  # an engine that can't start yet counts as another death
        log.warning("%s did not start: %s", name, exc)


class Supervisor:
    """The children to start, the (already started) engines, each one's `Watch` by name."""

    def __init__(self, children: list[Child], env: dict[str, str], engines: Sequence[Engine]) -> None:
        self.children, self.env, self.engines = children, env, engines
        self.watches = {unit.name: Watch() for unit in [*engines, *children]}

    def run(self, stop: threading.Event) -> None:
        """Start the children, keep everything up until `stop` is set, then stop the children."""
        for child in self.children:
            if stop.is_set():  # asked to stop while starting: start no more
                break
            child.start(self.env)
        while not stop.wait(TICK_SECONDS):
            for engine in self.engines:  # first: a service started again needs its engine
                watch = self.watches[engine.name]
                _keep_up(engine.name, watch, engine.alive(), engine.start_again, time.monotonic())
            for child in self.children:
                start = partial(child.start, self.env)
                _keep_up(child.name, self.watches[child.name], child.alive(), start, time.monotonic())
        for child in self.children:
            child.stop()
        for child in self.children:
            child.wait()
