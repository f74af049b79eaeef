"""One launcher per data folder: `make run` holds a lock on DATA_DIR for its whole life.

A second launcher on the same folder would use the first one's embedded PostgreSQL and Redis, and
lose both when the first stops them. So it refuses, naming the process that holds the folder; if
that one is only stopping (Ctrl-C pressed, children and engines on their way down), it waits for it
to finish first. The lock is the kernel's (flock): it goes with its process, however that ends.
"""

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

LOCK_FILE = "launcher.lock"  # in DATA_DIR: "<pid> running|stopping"
WAIT_SECONDS = 60.0  # how long a stopping launcher is waited for
POLL_SECONDS = 0.2


class DataDirInUse(SystemExit):
    """DATA_DIR is held by another launcher (the message says which, and what to do)."""


class DataDirLock:
    """The held lock: says whether its launcher is running or stopping."""

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle
        self._say("running")

    def stopping(self) -> None:
        self._say("stopping")

    def _say(self, state: str) -> None:
        # One write from the start, then the length cut: a reader never sees an empty file.
        line = f"{os.getpid()} {state}\n".encode()
        os.pwrite(self.handle.fileno(), line, 0)
        os.ftruncate(self.handle.fileno(), len(line))


@contextmanager
def holding(data_dir: Path, wait_seconds: float = WAIT_SECONDS) -> Iterator[DataDirLock]:
    """Hold DATA_DIR's lock while the block runs; raises DataDirInUse when another launcher holds
    it (after waiting up to `wait_seconds` for one that is stopping)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    # Read-write, not append: pwrite on an O_APPEND file appends (Linux), whatever the offset.
    fd = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    with open(fd, "r+") as handle:
        _acquire(handle, data_dir, wait_seconds)
        yield DataDirLock(handle)


def _acquire(handle: IO[str], data_dir: Path, wait_seconds: float) -> None:
    deadline: float | None = None
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        pid, state = _holder(handle)
        if state != "stopping":
            raise DataDirInUse(
                f"{data_dir} is in use by another launcher (pid {pid}): stop it first (Ctrl-C where it"
                f" runs, or kill -INT {pid}), or start this one with another DATA_DIR"
            )
        if deadline is None:
            print(f"  waiting for the launcher (pid {pid}) to finish stopping on {data_dir}", flush=True)
            deadline = time.monotonic() + wait_seconds
        elif time.monotonic() > deadline:
            raise DataDirInUse(
                f"{data_dir} is still held by a launcher stopping for over {wait_seconds:.0f} s"
                f" (pid {pid}): end it (kill {pid}) or start this one with another DATA_DIR"
            )
        time.sleep(POLL_SECONDS)  # the holder's stop is seconds away; flock itself cannot time out


def _holder(handle: IO[str]) -> tuple[str, str]:
    """The holding launcher's pid and state, as it wrote them."""
    handle.seek(0)
    words = handle.readline().split()
    return (words[0], words[1]) if len(words) == 2 else ("unknown", "running")
