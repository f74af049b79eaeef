"""A throw-away database for a benchmark: created on BENCH_DATABASE_URL's server, migrated, dropped."""

import os
from collections.abc import Iterator
from contextlib import contextmanager

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


@contextmanager
def throwaway_database(**extra_env: str) -> Iterator[str]:
    """Point this process (DATABASE_URL and `extra_env`) at a fresh, migrated database until exit."""
    from core.migrate import upgrade
    from core.settings import get_settings
    from launcher.embedded import drop_database, fresh_database

    name = f"callroute_bench_{os.getpid()}"
    os.environ.update(DATABASE_URL=fresh_database(SERVER, name), **extra_env)
    get_settings.cache_clear()
    upgrade(get_settings().sqlalchemy_url)
    try:
        yield os.environ["DATABASE_URL"]
    finally:
        from core.db import get_engine

        get_engine().dispose()
        drop_database(SERVER, name)
