"""The call-flow tests clean up after themselves by deleting rows, not truncating every table: a
truncate costs about half a second a test here, the tests themselves milliseconds."""

from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel

from core.db import get_engine
from core.redis_client import get_redis


@pytest.fixture(autouse=True)
def _clean_state() -> Iterator[None]:
    """As tests/conftest.py's: every table but the countries and the catalogue's change count
    emptied, and the Redis database (children before parents, so no cascade is needed)."""
    yield
    tables = [t.name for t in reversed(SQLModel.metadata.sorted_tables)]
    with get_engine().begin() as conn:
        for table in tables:
            if table not in ("country", "catalogue_version"):
                conn.execute(text(f'DELETE FROM "{table}"'))
    get_redis().flushdb()
