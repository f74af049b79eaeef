"""Alembic environment: the URL comes from the caller's config, or from the settings."""

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import core.models  # noqa: F401  (registers every table on SQLModel.metadata)
from core.calls.call_partitions import not_a_partition
from core.infra.settings import get_settings

target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    url = context.config.get_main_option("sqlalchemy.url") or get_settings().sqlalchemy_url
    engine = create_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            compare_type=True,
            include_name=not_a_partition,  # the call table's months: core.calls.call_partitions makes them
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
