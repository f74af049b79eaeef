"""The database engine and sessions, shared by every service."""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import orjson
from sqlalchemy import Engine
from sqlmodel import Session, create_engine

from core.infra.settings import get_settings


@lru_cache
def get_engine() -> Engine:
    settings = get_settings()
    if not settings.database_url:
        raise RuntimeError("DATABASE_URL is not set; start the product with `make run` or set it")
    # hide_parameters: a database error logged by the API must never print a value (a trunk secret).
    # JSON columns (a call's trail, written with every call) serialised by orjson, as the stdlib
    # would but several times faster: non-string keys become strings, as json.dumps makes them.
    # The pool keeps 20 connections, so 20 requests at once each find a warm one: with 10, those past
    # ten opened a fresh backend (cold caches) and closed it again, and 20 clients were served about
    # a quarter fewer requests (docs/reports.md). Up to 40 in all: the API's thread pool (anyio's 40
    # threads run its sync endpoints) never waits for a connection.
    return create_engine(
        settings.sqlalchemy_url,
        pool_pre_ping=True,
        pool_size=20,
        max_overflow=20,
        hide_parameters=True,
        json_serializer=json_text,
    )


def json_text(value: object) -> str:
    """A value as a JSONB column stores it (the engine's serializer), for a statement that passes
    JSON as text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


@lru_cache
def autocommit_engine() -> Engine:
    """The engine, its connections in autocommit: for a single statement that needs no transaction
    (one round trip, where BEGIN and COMMIT would add two). Shares the engine's pool."""
    return get_engine().execution_options(isolation_level="AUTOCOMMIT")


@contextmanager
def session_scope() -> Iterator[Session]:
    """A session that commits on success and rolls back on any error."""
    with Session(get_engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
