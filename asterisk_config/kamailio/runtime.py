"""Kamailio as a child process: rendered, started in the foreground (its log on stderr), ready once
its RPC socket answers; stopped with SIGTERM."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from asterisk_config.errors import ProvisionError, Unavailable
from asterisk_config.kamailio import carriers
from asterisk_config.kamailio.config import KamailioSettings, render, write

KAMAILIO = "kamailio"
START_TIMEOUT = 15.0


def answers(settings: KamailioSettings) -> bool:
    """Whether Kamailio's RPC socket answers."""
    try:
        done = subprocess.run(
            [carriers.KAMCMD, "-s", f"unix:{settings.ctl_socket}", "core.version"],
            capture_output=True,
            timeout=5,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def start(settings: KamailioSettings, log: IO[bytes] | None = None) -> subprocess.Popen[bytes]:
    """Render the configuration and the carriers' list, start Kamailio, wait until it answers."""
    for path, text in render(settings).items():
        write(path, text)
    carriers.push(settings, running=False)
    settings.ctl_socket.unlink(missing_ok=True)
    try:
        proc = subprocess.Popen(
            [KAMAILIO, "-f", str(settings.config_file), "-DD", "-E"],
            stdout=log or subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its children go with it (stop)
        )
    except FileNotFoundError:
        raise Unavailable("Kamailio is not installed (apt-get install kamailio)") from None
    deadline = time.monotonic() + START_TIMEOUT
    while not answers(settings):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise ProvisionError(f"Kamailio did not start (exit {proc.returncode}); see its log")
        time.sleep(0.1)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def running(settings: KamailioSettings, log_file: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(log_file.open("ab")) if log_file else None
        proc = start(settings, log)
        try:
            yield proc
        finally:
            stop(proc)
