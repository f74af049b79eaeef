"""`python -m asterisk_config.kamailio run`: render Kamailio's configuration, let in the portal's
carriers, start it, and keep the carriers in step with the portal's trunks until SIGINT/SIGTERM.
`render` only writes the files (for a Kamailio run some other way)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from asterisk_config.errors import ProvisionError
from asterisk_config.kamailio import carriers, runtime
from asterisk_config.kamailio.config import KamailioSettings, render, write
from core.infra.settings import get_settings


async def _run(settings: KamailioSettings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Before the start: Kamailio runs in a session of its own, which the terminal's Ctrl-C does not
    # reach, so a signal while it starts must let the start finish and then stop it (interrupting
    # the start left it running, bound to its port, after everything else had stopped).
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    proc = await asyncio.to_thread(runtime.start, settings, sys.stderr.buffer)
    follower = asyncio.create_task(carriers.follow(settings, stop))
    try:
        while not stop.is_set() and proc.poll() is None:
            await asyncio.sleep(1)  # a supervisor's poll of its child, not a test's wait
    finally:
        stop.set()
        try:
            await follower
        finally:  # Kamailio runs in a session of its own: nothing else stops it
            runtime.stop(proc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asterisk_config.kamailio")
    parser.add_argument("command", choices=["run", "render"])
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    settings = KamailioSettings.of(get_settings())
    try:
        if args.command == "render":
            for path, text in render(settings).items():
                write(path, text)
            carriers.push(settings, running=False)
            print(settings.config_file)
            return 0
        asyncio.run(_run(settings))
        return 0
    except ProvisionError as exc:  # Unavailable (3) included: Kamailio is not installed
        print(exc, file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
