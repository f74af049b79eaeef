"""Apply the Alembic migrations programmatically (used by the launcher and the tests), and say
whether a database is at this code's head (the portal's readiness)."""

from functools import lru_cache

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from core.infra.settings import REPO_ROOT


def alembic_config(url: str) -> Config:
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


@lru_cache
def script_heads() -> frozenset[str]:
    """The revisions this code's migrations end at."""
    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())


def database_heads(connection: Connection) -> frozenset[str]:
    """The revisions the database is at (read directly: alembic's MigrationContext logs two lines
    each time, and the readiness check asks every few seconds)."""
    if not inspect(connection).has_table("alembic_version"):
        return frozenset()
    return frozenset(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())
