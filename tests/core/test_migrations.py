"""One migration history: empty → head builds exactly the schema the models describe, and its files
read in the order they run."""

import ast
from pathlib import Path

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect
from sqlmodel import SQLModel

import core.models  # noqa: F401
from core.calls.call_partitions import not_a_partition
from core.infra.migrate import alembic_config, upgrade
from core.infra.settings import get_settings
from testkit.databases import drop_database, fresh_database


def _sa(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def test_upgrade_from_empty_matches_models_and_downgrades_cleanly(server_url: str) -> None:
    name = f"{get_settings().sqlalchemy_url.rsplit('/', 1)[-1].split('?')[0]}_mig"
    url = _sa(fresh_database(server_url, name))
    try:
        upgrade(url)
        engine = create_engine(url)
        with engine.connect() as conn:
            diff = compare_metadata(
                MigrationContext.configure(
                    conn, opts={"compare_type": True, "include_name": not_a_partition}
                ),
                SQLModel.metadata,
            )
            assert diff == [], f"models and migrations disagree: {diff}"
            assert set(SQLModel.metadata.tables) <= set(inspect(conn).get_table_names())

        command.downgrade(alembic_config(url), "base")
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == ["alembic_version"]
        upgrade(url)
        engine.dispose()
    finally:
        drop_database(server_url, name)


def test_files_are_numbered_in_the_order_they_run() -> None:
    """A reader (and `ls`) meets the migrations in the order they run: file N is the N-th of the
    chain, and its header names its own ids. The ids themselves stay as they are (some repeat or
    disagree with their file's number: `0013_report_indexes` runs before `0013`), because every
    existing database records them."""
    chain = list(reversed(list(ScriptDirectory.from_config(alembic_config("")).walk_revisions())))
    files = [Path(script.path).name for script in chain]
    assert [int(name[:4]) for name in files] == list(range(1, len(chain) + 1)), files
    for script in chain:
        header = ast.get_docstring(ast.parse(Path(script.path).read_text())) or ""
        assert f"Revision ID: {script.revision}\n" in header, script.path
        assert f"Revises: {script.down_revision or ''}".rstrip() in header.splitlines(), script.path
