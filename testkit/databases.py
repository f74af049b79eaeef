"""Throw-away databases for tests and benchmarks, and the state reset between tests.

A run gets a database of its own on a real PostgreSQL server (created, migrated, dropped after),
so parallel runs never meet. Where no server is named, embedded engines start in a folder.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.pool import Pool


@contextmanager
def servers(data_dir: Path) -> Iterator[tuple[str, str]]:
    """(PostgreSQL server URL, Redis URL): TEST_DATABASE_URL / TEST_REDIS_URL when set, else embedded
    engines kept in `data_dir` and stopped at exit."""
    from launcher.embedded import EmbeddedPostgres, EmbeddedRedis, start_postgres, start_redis

    started: list[EmbeddedPostgres | EmbeddedRedis] = []
    try:
        db = os.environ.get("TEST_DATABASE_URL")
        if not db:
            pg = start_postgres(data_dir)
            started.append(pg)
            db = pg.url()
        redis_url = os.environ.get("TEST_REDIS_URL")
        if not redis_url:
            redis = start_redis(data_dir)
            started.append(redis)
            redis_url = redis.url
        yield db, redis_url
    finally:
        for engine in reversed(started):
            engine.stop()


def fresh_database(server_url: str, name: str) -> str:
    """Database `name` created empty on the server (dropped first if it exists); returns its URL."""
    import psycopg
    from psycopg import sql

    from launcher.embedded import replace_database

    drop_database(server_url, name)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return replace_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextmanager
def throwaway_database(server_url: str, prefix: str, **extra_env: str) -> Iterator[str]:
    """Point this process (DATABASE_URL and `extra_env`) at a fresh, migrated database named for
    `prefix` and this process until exit; its URL."""
    from core.infra.migrate import upgrade
    from core.infra.settings import get_settings

    name = f"{prefix}_{os.getpid()}"
    os.environ.update(DATABASE_URL=fresh_database(server_url, name), **extra_env)
    get_settings.cache_clear()
    upgrade(get_settings().sqlalchemy_url)
    try:
        yield os.environ["DATABASE_URL"]
    finally:
        from core.infra.db import get_engine

        get_engine().dispose()
        drop_database(server_url, name)


class DatabaseUse:
    """Whether this process took a database connection since the last `clear()`: a test that never
    did (pure logic) has nothing to reset."""

    def __init__(self) -> None:
        self.used = False
        event.listen(Pool, "checkout", self._checked_out)

    def _checked_out(self, *_: object) -> None:
        self.used = True

    def clear(self) -> None:
        self.used = False


def reset_state(quick: bool = False) -> None:
    """Empty every table but the countries, the catalogue's change count (a routing cache in a
    bridge that outlives the test must never meet an old count again) and the nodes' ARI logins (a
    test's cluster outlives the test too), and the Redis database.

    `quick` deletes the rows instead (children first, so no cascade): for tests that write a few
    rows and take milliseconds, where a truncate costs half a second; ids then keep counting."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from core.infra.db import get_engine
    from core.infra.redis_client import get_redis

    tables = [
        f'"{t.name}"'
        for t in SQLModel.metadata.sorted_tables
        if t.name not in ("country", "catalogue_version", "pbx_node_login")
    ]
    with get_engine().begin() as conn:
        if quick:
            for table in reversed(tables):
                conn.execute(text(f"DELETE FROM {table}"))
        else:
            conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
    get_redis().flushdb()
