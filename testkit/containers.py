"""The container stack of deploy/ under test: the engine made ready as deploy/install-engine.sh does
it, the Debian bases made locally where no registry answers, and one compose project (its own name,
free ports, fresh secrets) built, started, inspected and removed."""

import json
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asterisk_config.chroot import host_install_lock
from testkit.processes import REPO, free_port
from testkit.waiting import eventually

DEPLOY = REPO / "deploy"
LOCAL_CA_DIR = Path("/usr/local/share/ca-certificates")


class EngineUnavailable(RuntimeError):
    """Docker cannot be installed or started on this machine."""


def _run(
    argv: list[str], timeout: float, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False, env=env)


def _engine_ready() -> bool:
    """The docker CLI, its compose plugin and a daemon that answers (a CLI alone is not enough:
    without the plugin `docker compose` is an unknown command)."""
    return bool(
        shutil.which("docker")
        and _run(["docker", "info"], 30).returncode == 0
        and _run(["docker", "compose", "version"], 30).returncode == 0
    )


def ensure_engine(log_dir: Path) -> None:
    """Docker Engine, Compose and a running daemon (deploy/install-engine.sh does what is missing).
    The `docker_engine` fixture (tests/conftest.py) is the one caller in the tests."""
    if _engine_ready():
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise EngineUnavailable("docker is not ready and installing it needs root and apt-get")
    with host_install_lock():
        if _engine_ready():  # installed meanwhile by another session
            return
        done = _run(
            [str(DEPLOY / "install-engine.sh")],
            900,
            env={**os.environ, "DOCKERD_LOG": str(log_dir / "dockerd.log")},
        )
    if done.returncode != 0:
        raise EngineUnavailable(f"deploy/install-engine.sh failed:\n{(done.stdout + done.stderr)[-3000:]}")


def ensure_base_images() -> None:
    """debian:bookworm-slim and debian:sid-slim: pulled where a registry answers, else made locally
    with this machine's quirks (its extra CA certificates; a sid mirror copy past its Valid-Until)."""
    wanted = ["debian:bookworm-slim", "debian:sid-slim"]
    missing = [i for i in wanted if _run(["docker", "image", "inspect", i], 30).returncode != 0]
    missing = [i for i in missing if _run(["docker", "pull", "-q", i], 120).returncode != 0]
    if not missing:
        return
    flags = ["--no-valid-until"]
    if list(LOCAL_CA_DIR.glob("*.crt")):
        flags += ["--extra-ca-certs", str(LOCAL_CA_DIR)]
    suites = [i.split(":")[1].removesuffix("-slim") for i in missing]
    made = _run([str(DEPLOY / "make-base-images.sh"), *flags, *suites], 900)
    assert made.returncode == 0, made.stdout + made.stderr


@dataclass
class Stack:
    """One compose project of deploy/compose.yml (+ compose.local.yml) with its own settings."""

    project: str
    env: dict[str, str]
    workdir: Path
    files: tuple[str, ...] = ("compose.yml", "compose.local.yml")
    profiles: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def env_file(self) -> Path:
        return self.workdir / "stack.env"

    def compose(self, *args: str, timeout: float = 600, check: bool = True) -> str:
        argv = ["docker", "compose", "-p", self.project, "--env-file", str(self.env_file)]
        for name in self.files:
            argv += ["-f", str(DEPLOY / name)]
        for profile in self.profiles:
            argv += ["--profile", profile]
        done = _run([*argv, *args], timeout)
        out = done.stdout + done.stderr
        assert not check or done.returncode == 0, f"docker compose {' '.join(args)} failed:\n{out[-4000:]}"
        return out

    def timed(self, what: str, *args: str, timeout: float = 1200) -> str:
        started = time.monotonic()
        out = self.compose(*args, timeout=timeout)
        self.timings[what] = time.monotonic() - started
        return out

    def states(self) -> dict[str, tuple[str, str]]:
        """Service -> (state, health) of every container, one-shot ones included."""
        out = self.compose("ps", "--all", "--format", "json")
        rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        if len(rows) == 1 and isinstance(rows[0], list):  # older compose prints one JSON array
            rows = rows[0]
        return {r["Service"]: (r["State"], r.get("Health", "")) for r in rows}

    def wait_healthy(self, services: list[str], timeout: float = 180) -> None:
        """Every service running and healthy (those with a health check), migrate exited 0."""

        def healthy() -> bool:
            states = self.states()
            migrate = states.get("migrate", ("", ""))
            assert migrate[0] in ("running", "exited", "created"), f"migrate: {migrate}"
            bad = {s: states.get(s) for s in services if states.get(s, ("", ""))[1] not in ("healthy", "")}
            bad |= {s: states.get(s) for s in services if states.get(s, ("", ""))[0] != "running"}
            assert not bad, f"not healthy yet: {bad}"
            return True

        eventually(healthy, timeout, interval=1, what=lambda: self.logs())

    def logs(self, *services: str, tail: int = 60) -> str:
        return self.compose("logs", "--no-color", "--tail", str(tail), *services, check=False)


def rendered(workdir: Path, *overlays: str) -> dict[str, Any]:
    """The services of compose.yml with `overlays` on top, as `docker compose config` renders them
    (no engine needed), with placeholder secrets and public address."""
    env = workdir / "env"
    env.write_text(
        "POSTGRES_PASSWORD=x\nREDIS_PASSWORD=x\nARI_PASSWORD=x\nAMI_SECRET=x\n"
        "PUBLIC_URL=https://portal.example.com\n"
    )
    files = [arg for name in ("compose.yml", *overlays) for arg in ("-f", name)]
    done = subprocess.run(
        ["docker", "compose", "--env-file", str(env), *files, "config", "--format", "json"],
        cwd=DEPLOY,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    services: dict[str, Any] = json.loads(done.stdout)["services"]
    return services


def image_size_mb(image: str) -> float:
    done = _run(["docker", "image", "inspect", "-f", "{{.Size}}", image], 30)
    return int(done.stdout.strip() or 0) / 1e6


def stack_settings() -> dict[str, str]:
    """Free ports and fresh secrets: the stack never meets another's, nor the machine's own
    PostgreSQL, Redis or Asterisk."""
    rtp = 42000 + secrets.randbelow(900) * 20
    portal_port = free_port()
    return {
        "POSTGRES_PASSWORD": secrets.token_hex(16),
        "REDIS_PASSWORD": secrets.token_hex(16),
        "ARI_PASSWORD": secrets.token_hex(16),
        "AMI_SECRET": secrets.token_hex(16),
        "ADMIN_EMAIL": "ops@example.com",
        "ADMIN_PASSWORD": secrets.token_hex(12),
        "PORTAL_PORT": str(portal_port),
        "PUBLIC_URL": f"http://127.0.0.1:{portal_port}",
        "POSTGRES_HOST_PORT": str(free_port()),
        "REDIS_HOST_PORT": str(free_port()),
        "WORKER_METRICS_HOST_PORT": str(free_port()),
        "BRIDGE_METRICS_PORT": str(free_port()),
        "PROMETHEUS_PORT": str(free_port()),
        # Scraped every few seconds: a test sees every target's first scrape soon after the start.
        "PROMETHEUS_SCRAPE_INTERVAL": "3s",
        "ASTERISK_HTTP_PORT": str(free_port()),
        "ASTERISK_AMI_PORT": str(free_port()),
        "ASTERISK_SIP_PORT": str(free_port(socket.SOCK_DGRAM)),
        "ASTERISK_RTP_START": str(rtp),
        "ASTERISK_RTP_END": str(rtp + 19),
        # Trunks answer OPTIONS at once in a test: their reachability shows within a second or two.
        "TRUNK_QUALIFY_SECONDS": "2",
        "CALLROUTE_TAG": "test",
    }


@contextmanager
def running_stack(workdir: Path, services: list[str], profiles: tuple[str, ...] = ()) -> Iterator[Stack]:
    """Build (with the build cache) and start a stack with the services of `profiles` too, wait
    until `services` are healthy; remove it with its volumes after."""
    stack = Stack(f"callroute-test-{secrets.token_hex(3)}", stack_settings(), workdir, profiles=profiles)
    stack.env_file.write_text("".join(f"{k}={v}\n" for k, v in stack.env.items()))
    try:
        stack.timed("build", "build")
        stack.timed("up", "up", "-d")
        started = time.monotonic()
        stack.wait_healthy(services)
        stack.timings["healthy"] = time.monotonic() - started
        yield stack
    finally:
        (workdir / "stack.log").write_text(stack.logs(tail=400))
        stack.compose("down", "--volumes", "--remove-orphans", "--timeout", "20", check=False)
