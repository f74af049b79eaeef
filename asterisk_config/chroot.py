"""Build (once) and cache a Debian sid chroot that carries Asterisk 22.

Debian stable only ships older Asterisk (or none), while sid has 22.x, so the
project runs Asterisk from a ``debootstrap``-ed sid tree kept outside the
repository (default /var/cache/callroute/asterisk-sid).  Building takes about a
minute; afterwards the tree is reused until someone deletes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from asterisk_config.errors import ProvisionError, Unavailable
from asterisk_config.settings import AsteriskSettings

READY_MARKER = ".callroute-chroot-ready"
# espeak-ng speaks campaigns' whispers (core.calls.whisper) where the host has none of its own.
PACKAGES = ("asterisk", "asterisk-modules", "espeak-ng")
_FIRST_PACKAGES = ("asterisk", "asterisk-modules")  # what a chroot whose marker lists none was built with
APT_SOURCES = (Path("/etc/apt/sources.list"), Path("/etc/apt/sources.list.d"))

Log = Callable[[str], None]


def no_log(_: str) -> None:
    pass


# -- host prerequisites ---------------------------------------------------


def require_root(action: str) -> None:
    if os.geteuid() != 0:
        raise Unavailable(f"{action} needs root; running as uid {os.geteuid()}")


_apt_updated = False
# Installs on one machine wait for each other (two test sessions side by side, a launcher beside
# them): apt-get refuses at once while another holds dpkg's lock.
HOST_INSTALL_LOCK = Path("/var/lock/callroute-host-install.lock")
_APT_WAIT = ["-o", "DPkg::Lock::Timeout=600"]  # another apt user on the machine (not one of ours)


@contextlib.contextmanager
def host_install_lock() -> Iterator[None]:
    """Held while installing anything on the host, so concurrent installers take turns."""
    HOST_INSTALL_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(HOST_INSTALL_LOCK, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield


def ensure_host_tool(command: str, package: str, log: Log = no_log) -> str:
    """Path of ``command``, installing Debian ``package`` with apt-get if missing.

    Installing on demand keeps a fresh machine (or CI) working without a
    separate manual step; anything that stops it is reported as Unavailable.
    """
    found = shutil.which(command)
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise Unavailable(
            f"{command} is not installed (Debian package {package}) and cannot be installed here"
        )
    with host_install_lock():
        return shutil.which(command) or _apt_install(command, package, log)


def _apt_install(command: str, package: str, log: Log) -> str:
    global _apt_updated
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log(f"installing {package} with apt-get")
    steps = [["apt-get", *_APT_WAIT, "install", "-y", "-q", "--no-install-recommends", package]]
    if not _apt_updated:
        steps.insert(0, ["apt-get", *_APT_WAIT, "update", "-q"])
    for step in steps:
        result = subprocess.run(step, env=env, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            tail = "\n".join((result.stdout + result.stderr).splitlines()[-10:])
            raise Unavailable(f"{command} is missing and `{' '.join(step)}` failed:\n{tail}")
        if "update" in step:
            _apt_updated = True
    found = shutil.which(command)
    if not found:
        raise Unavailable(f"{package} installed but {command} is still not on PATH")
    return found


# -- Debian mirror discovery ----------------------------------------------


def _deb822_paragraphs(text: str) -> Iterator[dict[str, str]]:
    fields: dict[str, str] = {}
    key = None
    for line in [*text.splitlines(), ""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                yield fields
            fields, key = {}, None
        elif line[0] in " \t" and key:
            fields[key] += " " + line.strip()
        elif ":" in line:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            fields[key] = value.strip()


def _apt_entries(paths: tuple[Path, ...]) -> Iterator[tuple[str, list[str]]]:
    """(uri, suites) of every enabled binary ``deb`` source, in apt's order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir() if p.suffix in (".list", ".sources")))
        elif path.is_file():
            files.append(path)
    for file in files:
        try:
            text = file.read_text(errors="replace")
        except OSError:
            continue
        if file.suffix == ".sources":
            for para in _deb822_paragraphs(text):
                if "deb" not in para.get("types", "").split():
                    continue
                if para.get("enabled", "yes").lower() == "no":
                    continue
                for uri in para.get("uris", "").split():
                    yield uri, para.get("suites", "").split()
        else:
            for raw in text.splitlines():
                words = raw.split("#", 1)[0].split()
                if not words or words[0] != "deb":
                    continue
                words = words[1:]
                if words and words[0].startswith("["):
                    # Skip "[arch=amd64 signed-by=...]" options, possibly spread over words.
                    while words and not words[0].endswith("]"):
                        words = words[1:]
                    words = words[1:]
                if len(words) >= 2:
                    yield words[0], [words[1]]


def discover_mirror(paths: tuple[Path, ...] = APT_SOURCES) -> str:
    """The Debian archive this machine's apt already uses.

    The mirror is taken from apt's configuration at run time rather than
    written into the repository, so each machine uses the one it is allowed
    to reach.  Security/updates/backports archives do not carry sid.
    """
    candidates: list[tuple[int, str]] = []
    for uri, suites in _apt_entries(paths):
        parts = urlsplit(uri)
        if parts.scheme not in ("http", "https", "file", "ftp"):
            continue
        main_suites = [
            s for s in suites if not any(t in s for t in ("-security", "/updates", "-updates", "-backports"))
        ]
        if not main_suites or "security" in parts.path:
            continue
        # Prefer URIs that look like a Debian archive root (".../debian").
        score = 0 if parts.path.rstrip("/").endswith("/debian") else 1
        candidates.append((score, uri.rstrip("/")))
    if not candidates:
        raise Unavailable(
            "no Debian mirror found in /etc/apt/sources.list(.d); "
            "set ASTERISK_DEBIAN_MIRROR to a Debian archive URL"
        )
    return min(candidates, key=lambda c: c[0])[1]


# -- mounts -----------------------------------------------------------------


def _unescape_mount_path(raw: str) -> str:
    # /proc/self/mountinfo escapes space, tab, newline and backslash as \ooo.
    out, i = [], 0
    while i < len(raw):
        if raw[i] == "\\" and i + 3 < len(raw) and raw[i + 1 : i + 4].isdigit():
            out.append(chr(int(raw[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return "".join(out)


def mount_points() -> list[Path]:
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
        return [Path(_unescape_mount_path(line.split()[4])) for line in fh if line.strip()]


def is_mounted(path: Path) -> bool:
    return path.resolve() in mount_points()


def mounts_under(path: Path) -> list[Path]:
    """Mount points at or below ``path``, deepest first (the order to unmount)."""
    root = path.resolve()
    found = [m for m in mount_points() if m == root or root in m.parents]
    return sorted(set(found), key=lambda m: len(m.parts), reverse=True)


def unmount(path: Path) -> None:
    result = subprocess.run(["umount", str(path)], capture_output=True, text=True, check=False)
    if result.returncode != 0 and is_mounted(path):
        # Busy (a straggling process still has a cwd there): detach lazily so
        # the chroot is not left with host /dev or /proc attached.
        subprocess.run(["umount", "-l", str(path)], capture_output=True, text=True, check=False)


def safe_rmtree(path: Path) -> None:
    """Delete a chroot tree, never following into host mounts.

    A chroot with /dev or /proc bind-mounted inside must never be removed
    with rmtree: it would delete the host's device nodes.
    """
    if not path.exists() and not path.is_symlink():
        return
    for mount in mounts_under(path):
        unmount(mount)
    left = mounts_under(path)
    if left:
        raise ProvisionError(f"refusing to delete {path}: still mounted: {', '.join(map(str, left))}")
    shutil.rmtree(path)


# -- processes --------------------------------------------------------------


def processes_rooted_in(root: Path) -> list[int]:
    """PIDs whose root directory is ``root`` (i.e. running inside the chroot)."""
    target = str(root.resolve())
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/root") == target:
                pids.append(int(entry))
        except OSError:
            continue
    return pids


# -- building ---------------------------------------------------------------


def is_built(settings: AsteriskSettings) -> bool:
    return (settings.chroot / READY_MARKER).is_file() and (settings.chroot / "usr/sbin/asterisk").exists()


@contextlib.contextmanager
def _build_lock(chroot: Path) -> Iterator[None]:
    # Two test sessions starting at once must not debootstrap the same tree.
    chroot.parent.mkdir(parents=True, exist_ok=True)
    with open(chroot.parent / f".{chroot.name}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def build_chroot(settings: AsteriskSettings, log: Log = no_log, force: bool = False) -> Path:
    """Create the cached sid chroot with Asterisk unless it already exists.

    Builds into a temporary sibling directory and renames it into place only
    after debootstrap succeeded and the ready marker is written, so a
    half-built tree (interrupted build, full disk) is never mistaken for a
    good one.
    """
    chroot = settings.chroot
    if is_built(settings) and not force:
        if _missing_packages(chroot):  # built before a package joined the list: added in place, once
            with _build_lock(chroot):
                if missing := _missing_packages(chroot):
                    _add_packages(chroot, missing, log)
        return chroot
    require_root("building the Asterisk chroot")
    debootstrap = ensure_host_tool("debootstrap", "debootstrap", log)
    mirror = settings.mirror or discover_mirror()

    with _build_lock(chroot):
        if is_built(settings) and not force:
            return chroot  # another process finished it while we waited
        if chroot.exists() and processes_rooted_in(chroot):
            raise ProvisionError(f"Asterisk still runs in {chroot}; stop it before rebuilding")
        # Leftovers of interrupted builds: we hold the lock, so nobody uses them.
        for stale in chroot.parent.glob(f".{chroot.name}.tmp-*"):
            log(f"removing stale partial build {stale}")
            safe_rmtree(stale)
        tmp = chroot.parent / f".{chroot.name}.tmp-{os.getpid()}"
        build_log = chroot.parent / f"{chroot.name}.build.log"
        cmd = [
            debootstrap,
            "--variant=minbase",
            "--include=" + ",".join(PACKAGES),
            settings.suite,
            str(tmp),
            mirror,
        ]
        log(f"building {settings.suite} chroot with Asterisk in {chroot} (about a minute; log: {build_log})")
        started = time.monotonic()
        try:
            with open(build_log, "w") as out:
                out.write("$ " + " ".join(cmd) + "\n")
                out.flush()
                returncode = _run_process_group(cmd, out)
            if returncode != 0:
                raise ProvisionError(
                    f"debootstrap failed with exit code {returncode}; last lines of {build_log}:\n"
                    + tail_file(build_log, 25)
                )
            if not (tmp / "usr/sbin/asterisk").exists():
                raise ProvisionError(f"debootstrap finished but {tmp}/usr/sbin/asterisk is missing")
            # Package scripts may not leave daemons or mounts behind in the tree.
            for pid in processes_rooted_in(tmp):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            for mount in mounts_under(tmp):
                unmount(mount)
            version = _package_version(tmp, "asterisk")
            (tmp / READY_MARKER).write_text(
                f"suite={settings.suite}\nasterisk={version}\nbuilt={time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n"
                f"packages={','.join(PACKAGES)}\n"
            )
            if chroot.exists() or chroot.is_symlink():
                safe_rmtree(chroot)  # --force, or an old tree without the marker
            tmp.rename(chroot)
        except BaseException:
            safe_rmtree(tmp)
            raise
        log(f"chroot ready in {time.monotonic() - started:.0f} s (asterisk {version})")
    return chroot


def _missing_packages(chroot: Path) -> list[str]:
    """PACKAGES the chroot's ready marker does not list (read from the marker: no process started)."""
    fields = dict(
        line.split("=", 1) for line in (chroot / READY_MARKER).read_text().splitlines() if "=" in line
    )
    listed = fields["packages"].split(",") if "packages" in fields else _FIRST_PACKAGES
    return [package for package in PACKAGES if package not in listed]


def _add_packages(chroot: Path, packages: list[str], log: Log) -> None:
    """Install `packages` into the built chroot with its own apt, then list them in its marker. Safe
    while Asterisk runs from it (nothing of Asterisk's changes)."""
    require_root("adding packages to the Asterisk chroot")
    log(f"adding {', '.join(packages)} to the Asterisk chroot {chroot}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    for step in (["apt-get", *_host_apt_options(), "update", "-q"], install):
        result = subprocess.run(
            ["chroot", str(chroot), *step], env=env, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            tail = "\n".join((result.stdout + result.stderr).splitlines()[-10:])
            raise ProvisionError(f"`{' '.join(step)}` in {chroot} failed:\n{tail}")
    marker = chroot / READY_MARKER
    kept = [line for line in marker.read_text().splitlines() if not line.startswith("packages=")]
    marker.write_text("\n".join([*kept, f"packages={','.join(PACKAGES)}"]) + "\n")


def _host_apt_options() -> list[str]:
    """The host's apt option the chroot's apt needs to read the same mirror: a snapshot mirror's
    Release files are past their Valid-Until date, which the host's apt is set to accept."""
    dump = subprocess.run(
        ["apt-config", "dump", "Acquire::Check-Valid-Until"], capture_output=True, text=True, check=False
    )
    return ["-o", "Acquire::Check-Valid-Until=false"] if '"false"' in dump.stdout else []


def _run_process_group(cmd: list[str], out: IO[str]) -> int:
    """Run ``cmd`` in its own process group; on interruption kill the whole group.

    debootstrap is a shell script: killing only its PID would leave wget/dpkg
    children writing into the tree while we delete it.
    """
    proc = subprocess.Popen(
        cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
    )
    try:
        return proc.wait()
    except BaseException:
        _kill_group(proc)
        raise


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.1)
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return  # every process of the group is gone


def _package_version(root: Path, package: str) -> str:
    result = subprocess.run(
        ["chroot", str(root), "dpkg-query", "-W", "-f=${Version}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() or "unknown"


def tail_file(path: Path, lines: int = 40) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 64 * 1024))
            data = fh.read().decode(errors="replace")
    except OSError as exc:
        return f"({path}: {exc.strerror})"
    return "\n".join(data.splitlines()[-lines:])
