"""Real PostgreSQL and Redis for every test.

The servers named by TEST_DATABASE_URL / TEST_REDIS_URL are used when set; otherwise embedded
ones start in `.test-data/`. Each run gets its own fresh database, migrated to head; each test
starts from empty tables (countries kept) and an empty Redis database.
"""

import contextlib
import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
_state: dict[str, Any] = {}


def _server_urls() -> tuple[str, str]:
    from launcher.embedded import start_postgres, start_redis

    data = REPO / ".test-data"
    db = os.environ.get("TEST_DATABASE_URL")
    if not db:
        _state["pg"] = start_postgres(data)
        db = _state["pg"].url()
    redis_url = os.environ.get("TEST_REDIS_URL")
    if not redis_url:
        _state["redis"] = start_redis(data)
        redis_url = _state["redis"].url
    return db, redis_url


def pytest_configure(config: pytest.Config) -> None:
    from launcher.embedded import fresh_database

    server_url, redis_url = _server_urls()
    name = f"callroute_test_{os.getpid()}"
    url = fresh_database(server_url, name)
    _state.update(server_url=server_url, db_name=name)
    os.environ.update(DATABASE_URL=url, REDIS_URL=redis_url, ENVIRONMENT="development")
    os.environ.pop("DATA_DIR", None)

    from core.db import session_scope
    from core.migrate import upgrade
    from core.seed import seed_countries
    from core.settings import get_settings

    get_settings.cache_clear()
    upgrade(get_settings().sqlalchemy_url)
    with session_scope() as session:
        seed_countries(session)


def pytest_unconfigure(config: pytest.Config) -> None:
    from core.db import get_engine

    get_engine().dispose()
    if "db_name" in _state:
        from launcher.embedded import drop_database

        drop_database(_state["server_url"], _state["db_name"])
    for key in ("redis", "pg"):
        if key in _state:
            _state[key].stop()


@pytest.fixture(scope="session")
def server_url() -> str:
    """The PostgreSQL server the suite runs on (for tests that need a database of their own)."""
    return str(_state["server_url"])


def reset_state() -> None:
    """Empty every table but the countries and the catalogue's change count (a routing cache in a
    bridge that outlives the test must never meet an old count again), and the Redis database."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from core.db import get_engine
    from core.redis_client import get_redis

    tables = ", ".join(
        f'"{t.name}"'
        for t in SQLModel.metadata.sorted_tables
        if t.name not in ("country", "catalogue_version")
    )
    with get_engine().begin() as conn:
        conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    get_redis().flushdb()


@pytest.fixture(autouse=True)
def _clean_state() -> Iterator[None]:
    yield
    reset_state()


@pytest.fixture(scope="session")
def app() -> Any:
    from portal_api.app import create_app

    return create_app()


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c


@dataclass
class Actor:
    """A signed-in person for tests: their user row id, token and auth header."""

    id: int
    email: str
    password: str
    token: str
    buyer_id: int | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


PASSWORD = "s3cret-pass"


@functools.cache
def _password_hash() -> str:
    # Argon2 is slow on purpose; hash the shared test password once per run.
    from core.passwords import hash_password

    return hash_password(PASSWORD)


def make_actor(role: int, name: str, owner: "Actor | None" = None, **extra: Any) -> Actor:
    """Create a user (and for buyers, its buyer record under `owner`) with a live session token."""
    from core.db import session_scope
    from core.enums import TokenKind
    from core.models import Buyer, User
    from portal_api.auth import tokens

    email = f"{name.lower().replace(' ', '.')}@example.com"
    password = PASSWORD
    with session_scope() as session:
        user = User(email=email, password_hash=_password_hash(), name=name, role=role, **extra)
        session.add(user)
        session.flush()
        buyer_id = None
        if role == 3:
            assert owner is not None
            buyer = Buyer(user_id=owner.id, login_user_id=user.id, name=name, email=email)
            session.add(buyer)
            session.flush()
            buyer_id = buyer.id
        token, _ = tokens.issue(session, user.id or 0, TokenKind.SESSION, 24)
        return Actor(user.id or 0, email, password, token, buyer_id)


@pytest.fixture
def admin() -> Actor:
    return make_actor(1, "Ada Admin")


@pytest.fixture
def customer_a() -> Actor:
    return make_actor(2, "Alice Customer", timezone="Europe/Berlin")


@pytest.fixture
def customer_b() -> Actor:
    return make_actor(2, "Bob Customer")


@pytest.fixture
def buyer_a(customer_a: Actor) -> Actor:
    return make_actor(3, "Bea Buyer", owner=customer_a)


@contextlib.contextmanager
def api_server(**env: str) -> Iterator[str]:
    """The API as a real uvicorn process on a free port (for browsers and real WebSockets)."""
    import socket
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "portal_api.app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--timeout-graceful-shutdown",
            "3",
        ],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                httpx.get(f"{base}/docs", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the API did not start")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_worker(log: str) -> subprocess.Popen[bytes]:
    """A real Celery worker (its own process group, so a test can kill all of it)."""
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
    ]
    with open(log, "ab") as out:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            env=os.environ.copy(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
