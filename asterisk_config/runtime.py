"""Start, stop and watch Asterisk inside the cached sid chroot.

The process runs as ``chroot DIR /usr/sbin/asterisk -f -C <conf>``: in the
foreground (``-f``) so we own its PID and its exit, with a per-instance
asterisk.conf (``-C``) so several instances can share one chroot.  It runs as
root inside the chroot: ``-U root`` is deliberately not used, because then
Asterisk fails to open its astdb.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asterisk_config.chroot import (
    Log,
    build_chroot,
    is_built,
    is_mounted,
    mounts_under,
    no_log,
    processes_rooted_in,
    require_root,
    tail_file,
    unmount,
)
from asterisk_config.errors import ProvisionError, Unavailable
from asterisk_config.render import write_config
from asterisk_config.settings import AsteriskSettings

ASTERISK_BIN = "/usr/sbin/asterisk"
# Minimal, fixed environment for Asterisk: the caller's environment holds
# secrets (ARI/AMI/DB) that Asterisk does not need to inherit.
# PGOPTIONS (read by libpq): Asterisk's own record (CEL, a row per channel event, each insert its
# own transaction) is committed without waiting for the disk. A flush per event was most of
# PostgreSQL's work per call; a database crash can lose only the last instant of that record, and
# it is only read to complete call rows the bridge missed (the bridge's own writes stay durable).
CHILD_ENV = {
    "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/root",
    "PGOPTIONS": "-c synchronous_commit=off",
}
BIND_MOUNTS = ("/proc", "/dev")

# Popen objects of Asterisks started by this process, so we can reap them.
_children: dict[int, subprocess.Popen[bytes]] = {}


@dataclass(frozen=True)
class AsteriskProcess:
    pid: int
    settings: AsteriskSettings
    info: dict[str, Any]  # ARI's /asterisk/info JSON

    @property
    def version(self) -> str:
        return str(self.info.get("system", {}).get("version", ""))


# -- process helpers -------------------------------------------------------


def _alive(pid: int) -> bool:
    child = _children.get(pid)
    if child is not None:
        return child.poll() is None
    try:
        with open(f"/proc/{pid}/stat") as fh:
            # Field 3 is the state; a zombie has exited already.
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    if state == "Z":
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        return False
    return True


def _in_chroot(pid: int, settings: AsteriskSettings) -> bool:
    try:
        return os.readlink(f"/proc/{pid}/root") == str(settings.chroot.resolve())
    except PermissionError:
        # Non-root `status` cannot read another user's root link; the
        # command line is the best it can check.
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                return ASTERISK_BIN.encode() in fh.read()
        except OSError:
            return False
    except OSError:
        return False


def running_pid(settings: AsteriskSettings) -> int | None:
    """PID of this instance's Asterisk, or None.

    The recorded PID only counts if that process still lives inside our
    chroot, so a recycled PID never makes us signal an unrelated process.
    """
    # Our own pid file first; Asterisk's asterisk.pid covers a lost one.
    for pid_file in (settings.pid_file, settings.host_path(settings.run_dir) / "asterisk.pid"):
        try:
            pid = int(pid_file.read_text().strip())
        except (OSError, ValueError):
            continue
        if _alive(pid) and _in_chroot(pid, settings):
            return pid
    return None


def _wait_exit(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return not _alive(pid)


# -- mounts ----------------------------------------------------------------


def bind_mounts(settings: AsteriskSettings) -> tuple[str, ...]:
    """Host directories Asterisk needs inside the chroot, at the same path.

    /dev (urandom, null), /proc (its own fds, CPU info) and, when PostgreSQL is reached through a
    Unix socket (the embedded one), the socket's directory, so cel_pgsql can connect.
    """
    pg = settings.pg
    socket_dir = (pg.host,) if pg is not None and pg.host.startswith("/") else ()
    return (*BIND_MOUNTS, *socket_dir)


def ensure_mounts(settings: AsteriskSettings) -> None:
    """Bind-mount what `bind_mounts` lists into the chroot unless already there."""
    for source in bind_mounts(settings):
        target = settings.host_path(source)
        target.mkdir(parents=True, exist_ok=True)
        if is_mounted(target):
            continue
        result = subprocess.run(
            ["mount", "--bind", source, str(target)], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise Unavailable(f"cannot bind-mount {source} into {settings.chroot}: {result.stderr.strip()}")


def release_mounts(settings: AsteriskSettings) -> None:
    """Unmount everything mounted into the chroot once nothing runs in it.

    Another instance (e.g. a developer's while tests ran) may still use them; the last one to stop
    also takes away the socket directories of instances that stopped before it.
    """
    if processes_rooted_in(settings.chroot):
        return
    for mount in mounts_under(settings.chroot):
        if mount != settings.chroot.resolve():  # the cache itself may live on its own mount
            unmount(mount)


# -- readiness -------------------------------------------------------------


def _port_free(port: int, kind: int) -> bool:
    with socket.socket(socket.AF_INET, kind) as sock:
        if kind == socket.SOCK_STREAM:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def check_ports(settings: AsteriskSettings) -> None:
    """Fail early and clearly when a port is taken: Asterisk itself would
    start anyway and merely log a bind error for HTTP/AMI/SIP."""
    busy = [
        f"{name} {port}"
        for name, port, kind in (
            ("HTTP/ARI (ASTERISK_HTTP_PORT)", settings.http_port, socket.SOCK_STREAM),
            ("AMI (ASTERISK_AMI_PORT)", settings.ami_port, socket.SOCK_STREAM),
            ("SIP/UDP (ASTERISK_SIP_PORT)", settings.sip_port, socket.SOCK_DGRAM),
        )
        if not _port_free(port, kind)
    ]
    if busy:
        raise ProvisionError("ports already in use on 127.0.0.1: " + ", ".join(busy))


def ari_get(settings: AsteriskSettings, path: str, timeout: float = 5.0) -> Any:
    """GET an ARI resource with the configured credentials; parsed JSON (each resource its own shape)."""
    token = base64.b64encode(f"{settings.ari_user}:{settings.ari_password}".encode()).decode()
    request = urllib.request.Request(
        f"{settings.ari_base_url}/{path.lstrip('/')}",
        headers={"Authorization": f"Basic {token}", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:  # fixed http://127.0.0.1 URL
        return json.loads(response.read().decode())


def log_tail(settings: AsteriskSettings, lines: int = 30) -> str:
    parts = []
    for path in (settings.console_log, settings.messages_log):
        if path.exists():
            parts.append(f"--- {path} (last {lines} lines) ---\n{tail_file(path, lines)}")
    return "\n".join(parts) or "(no Asterisk log written yet)"


def wait_for_ari(
    settings: AsteriskSettings, timeout: float | None = None, pid: int | None = None
) -> dict[str, Any]:
    """Poll GET /ari/asterisk/info until it answers; returns its JSON.

    ARI answering is the best single readiness signal: it needs the HTTP
    server, res_ari and the credentials all working.  If ``pid`` dies while
    we wait, fail at once instead of waiting out the timeout.
    """
    timeout = settings.ari_timeout if timeout is None else timeout
    deadline = time.monotonic() + timeout
    last_error = "no answer yet"
    while time.monotonic() < deadline:
        if pid is not None and not _alive(pid):
            raise ProvisionError(f"Asterisk exited during startup.\n{log_tail(settings)}")
        try:
            info = ari_get(settings, "asterisk/info", timeout=2)
            if isinstance(info, dict):
                return info
            last_error = f"unexpected answer {info!r}"
        except urllib.error.HTTPError as exc:
            last_error = f"HTTP {exc.code}"
            if exc.code == 401:
                last_error += " (ARI credentials rejected: is another Asterisk on this port?)"
        except (OSError, ValueError) as exc:
            last_error = str(exc)
        time.sleep(0.25)
    raise ProvisionError(
        f"ARI at {settings.ari_base_url}/asterisk/info did not answer within {timeout:.0f} s "
        f"(last error: {last_error}).\n{log_tail(settings)}"
    )


# -- start / stop ------------------------------------------------------------


def prepare_instance(settings: AsteriskSettings) -> None:
    """Create the instance's directories and render its config into the chroot."""
    for inner in settings.instance_dirs:
        settings.host_path(inner).mkdir(parents=True, exist_ok=True)
    write_config(settings, settings.host_path(settings.etc_dir))


def start(settings: AsteriskSettings, log: Log = no_log, build: bool = True) -> AsteriskProcess:
    """Start this instance in the background and wait until ARI answers.

    Already running: returns it, provided ARI answers with these settings.
    """
    require_root("starting Asterisk")
    settings.validate_secrets()
    if build:
        build_chroot(settings, log)
    elif not is_built(settings):
        raise ProvisionError(f"no Asterisk chroot at {settings.chroot}; run `provision build` first")

    pid = running_pid(settings)
    if pid is not None:
        try:
            info = wait_for_ari(settings, timeout=5, pid=pid)
        except ProvisionError as exc:
            raise ProvisionError(
                f"Asterisk instance {settings.instance!r} already runs (pid {pid}) but does not answer "
                f"with the current settings; stop it first.\n{exc}"
            ) from None
        log(f"Asterisk already running (pid {pid})")
        return AsteriskProcess(pid, settings, info)

    check_ports(settings)
    prepare_instance(settings)
    ensure_mounts(settings)
    # Stale control socket/pid from a crash would make `asterisk -rx` talk
    # to nothing; Asterisk recreates them.
    for stale in ("asterisk.ctl", "asterisk.pid"):
        with contextlib.suppress(FileNotFoundError):
            (settings.host_path(settings.run_dir) / stale).unlink()

    cmd = ["chroot", str(settings.chroot), ASTERISK_BIN, "-f", "-n", "-C", settings.asterisk_conf]
    # Truncated per start: everything worth keeping also goes to messages.log.
    with open(settings.console_log, "wb") as console:
        console.write(f"\n=== {time.strftime('%F %T')} {' '.join(cmd)}\n".encode())
        console.flush()
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=console,
            stderr=subprocess.STDOUT,
            env=CHILD_ENV,
            # Own session: a Ctrl-C in the caller's terminal must not kill
            # Asterisk behind our back; stop() shuts it down in order.
            start_new_session=True,
        )
    _children[proc.pid] = proc
    settings.pid_file.write_text(f"{proc.pid}\n")
    log(f"Asterisk starting (pid {proc.pid}), waiting for ARI on {settings.ari_base_url}")
    try:
        info = wait_for_ari(settings, pid=proc.pid)
    except BaseException:
        stop(settings, log)
        raise
    log(f"Asterisk {info.get('system', {}).get('version', '?')} ready (pid {proc.pid})")
    return AsteriskProcess(proc.pid, settings, info)


def asterisk_cli(
    settings: AsteriskSettings, command: str, timeout: float = 10
) -> subprocess.CompletedProcess[str]:
    """Run an Asterisk CLI command through the control socket in the chroot."""
    return subprocess.run(
        ["chroot", str(settings.chroot), ASTERISK_BIN, "-C", settings.asterisk_conf, "-rx", command],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=CHILD_ENV,
        check=False,
    )


def stop(settings: AsteriskSettings, log: Log = no_log, timeout: float = 15) -> bool:
    """Stop this instance: 'core stop now', then SIGTERM, then SIGKILL.

    Returns True if an Asterisk was running.  Unmounts /proc and /dev from the
    chroot when no other instance still runs there.
    """
    require_root("stopping Asterisk")
    pid = running_pid(settings)
    if pid is not None:
        log(f"stopping Asterisk (pid {pid})")
        with contextlib.suppress(subprocess.TimeoutExpired):
            asterisk_cli(settings, "core stop now", timeout=timeout / 2)
        if not _wait_exit(pid, timeout / 2):
            log("Asterisk ignored 'core stop now'; sending SIGTERM")
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            if not _wait_exit(pid, 5):
                log("sending SIGKILL")
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                _wait_exit(pid, 5)
        _children.pop(pid, None)
    with contextlib.suppress(FileNotFoundError):
        settings.pid_file.unlink()
    if settings.host_path("/proc").exists():
        release_mounts(settings)
    return pid is not None


def status(settings: AsteriskSettings) -> tuple[bool, str]:
    """(running, human readable line)."""
    if not is_built(settings):
        return False, f"not running (no chroot built at {settings.chroot})"
    pid = running_pid(settings)
    if pid is None:
        return False, f"not running (instance {settings.instance!r}, chroot {settings.chroot})"
    line = f"running (pid {pid}, instance {settings.instance!r}, chroot {settings.chroot})"
    if settings.ari_user and settings.ari_password:
        try:
            info = ari_get(settings, "asterisk/info", timeout=2)
            line += f"; ARI {settings.ari_base_url} answers, Asterisk {info['system']['version']}"
        except (OSError, ValueError, KeyError) as exc:
            line += f"; ARI {settings.ari_base_url} not answering ({exc})"
    return True, line


def remove_instance(settings: AsteriskSettings) -> None:
    """Delete a stopped non-default instance's directories (test cleanup)."""
    if settings.instance == "default":
        raise ProvisionError("refusing to remove the default instance's directories")
    if running_pid(settings) is not None:
        raise ProvisionError(f"instance {settings.instance!r} is still running")
    for inner in settings.instance_dirs:
        if inner == "/var/lib/asterisk":
            continue  # shared by all instances
        path: Path = settings.host_path(inner)
        if path.is_dir():
            shutil.rmtree(path)
