"""Provision the project's Asterisk 22 (Debian sid chroot).

    python -m asterisk_config.provision build    # create the cached chroot (once)
    python -m asterisk_config.provision start    # render config, start, wait for ARI
    python -m asterisk_config.provision status   # is it running?
    python -m asterisk_config.provision stop     # core stop now / SIGTERM / SIGKILL
    python -m asterisk_config.provision run      # start, stay in foreground until SIGINT/SIGTERM
    python -m asterisk_config.provision deps     # apt-get install debootstrap + sip-tester
    python -m asterisk_config.provision render   # only write the config and directories (an image
                                                 # whose Asterisk is the system's: ASTERISK_CHROOT=/)

Exit codes: 0 ok; 1 failed (details printed); 2 bad settings; 3 Asterisk
cannot run on this machine (not root, no debootstrap, mounts refused) - the
caller can print "Asterisk not started: <reason>"; status: 1 = not running.
Settings come from the environment; see asterisk_config/README.md.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from asterisk_config import chroot, node_login, runtime
from asterisk_config.errors import ProvisionError, Unavailable
from asterisk_config.settings import AsteriskSettings


def _log(message: str) -> None:
    print(f"[asterisk] {message}", flush=True)


def cmd_build(settings: AsteriskSettings, args: argparse.Namespace) -> int:
    path = chroot.build_chroot(settings, _log, force=args.force)
    _log(f"chroot ready at {path}")
    return 0


def cmd_start(settings: AsteriskSettings, _: argparse.Namespace) -> int:
    proc = runtime.start(settings, _log)
    _log(
        f"Asterisk {proc.version} running: pid {proc.pid}, ARI {settings.ari_base_url}, "
        f"AMI 127.0.0.1:{settings.ami_port}, SIP udp 127.0.0.1:{settings.sip_port}, "
        f"log {settings.messages_log}"
    )
    return 0


def cmd_stop(settings: AsteriskSettings, _: argparse.Namespace) -> int:
    if not chroot.is_built(settings):
        _log("not running (no chroot)")
        return 0
    _log("stopped" if runtime.stop(settings, _log) else "was not running")
    return 0


def cmd_status(settings: AsteriskSettings, _: argparse.Namespace) -> int:
    running, line = runtime.status(settings)
    print(line)
    return 0 if running else 1


def cmd_run(settings: AsteriskSettings, _: argparse.Namespace) -> int:
    """Foreground mode for a supervisor: stop Asterisk when we are told to."""
    stop_requested = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        _log(f"received {signal.Signals(signum).name}, stopping")
        stop_requested.set()

    # Install handlers before starting so a signal during startup still
    # leads to a clean stop rather than an orphaned Asterisk.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        proc = runtime.start(settings, _log)
        while not stop_requested.wait(1.0):
            if runtime.running_pid(settings) != proc.pid:
                _log("Asterisk exited unexpectedly\n" + runtime.log_tail(settings))
                runtime.stop(settings, _log)  # cleans pid file and mounts
                return 1
    finally:
        if stop_requested.is_set():
            runtime.stop(settings, _log)
    return 0


def cmd_render(settings: AsteriskSettings, _: argparse.Namespace) -> int:
    settings.validate_basic()
    settings.validate_secrets()  # before any folder is made: a refused render leaves nothing
    runtime.prepare_instance(settings)
    _log(f"configuration written to {settings.host_path(settings.etc_dir)}")
    return 0


def cmd_deps(_: AsteriskSettings, __: argparse.Namespace) -> int:
    chroot.require_root("installing host packages")
    for command, package in (("debootstrap", "debootstrap"), ("sipp", "sip-tester")):
        _log(f"{command}: {chroot.ensure_host_tool(command, package, _log)}")
    return 0


def _raise_interrupt(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


COMMANDS = {
    "build": cmd_build,
    "start": cmd_start,
    "stop": cmd_stop,
    "status": cmd_status,
    "run": cmd_run,
    "deps": cmd_deps,
    "render": cmd_render,
}


def with_node_login(settings: AsteriskSettings, command: str) -> AsteriskSettings:
    """A node's own ARI login (asterisk_config.node_login): a new one for an Asterisk about to be
    configured, the stored one for one already running (its ari.conf has it) or asked about."""
    if command in ("start", "run", "render") and runtime.running_pid(settings) is None:
        return node_login.rotated(settings)
    if command in ("start", "run", "status"):
        return node_login.current(settings)
    return settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m asterisk_config.provision", description=__doc__.split("\n")[0]
    )
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("--force", action="store_true", help="build: rebuild the chroot even if cached")
    args = parser.parse_args(argv)
    previous_handler = signal.getsignal(signal.SIGTERM)
    if args.command != "run":
        # SIGTERM (e.g. a CI timeout) must unwind like Ctrl-C, so a build
        # kills debootstrap and removes its partial tree, and a start that
        # was interrupted stops the half-started Asterisk.
        signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        settings = with_node_login(AsteriskSettings.from_env(), args.command)
        return COMMANDS[args.command](settings, args)
    except Unavailable as exc:
        print(f"Asterisk cannot run on this machine: {exc}", file=sys.stderr)
        return exc.exit_code
    except ProvisionError as exc:
        print(f"Asterisk {args.command} failed: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous_handler)


if __name__ == "__main__":
    sys.exit(main())
