"""Real PostgreSQL and Redis for every test: thin fixtures over the test kit (testkit/).

The servers named by TEST_DATABASE_URL / TEST_REDIS_URL are used when set; otherwise embedded
ones start in `.test-data/`. Each run gets its own fresh database, migrated to head; a test that
took a database connection or ran Asterisk leaves empty tables behind it (countries kept), and
every test an empty Redis database.
"""

import contextlib
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from testkit.actors import Actor, make_actor
from testkit.databases import DatabaseUse, reset_state, servers, throwaway_database
from testkit.processes import RECEIVERS_ENV, REPO
from testkit.required import unavailable

_run = contextlib.ExitStack()
_state: dict[str, Any] = {}


def pytest_configure(config: pytest.Config) -> None:
    # A run beside another (testkit/suite.py) keeps its embedded engines in a folder of its own.
    data_dir = Path(os.environ.get("TEST_DATA_DIR") or REPO / ".test-data")
    server_url, redis_url = _run.enter_context(servers(data_dir))
    _state["server_url"] = server_url
    os.environ.pop("DATA_DIR", None)
    _run.enter_context(
        throwaway_database(
            server_url, "callroute_test", REDIS_URL=redis_url, ENVIRONMENT="development", **RECEIVERS_ENV
        )
    )
    from core.infra.db import session_scope
    from core.operations.seed import seed_countries

    with session_scope() as session:
        seed_countries(session)
    _state["use"] = DatabaseUse()


def pytest_unconfigure(config: pytest.Config) -> None:
    _run.close()


def _host_tool(command: str, missing: Callable[[str, str], NoReturn] = unavailable) -> str:
    from asterisk_config.errors import Unavailable
    from testkit.tools import host_tool

    try:
        return host_tool(command)
    except Unavailable as exc:
        missing(command, str(exc))


def _fail(what: str, reason: str) -> NoReturn:
    pytest.fail(f"{what} is needed here and could not be installed: {reason}")


# Every program a test needs that a machine may lack comes from one of these fixtures (the test asks
# for it), never from a test that happened to run before: tests/testkit/test_tools_from_fixtures.py checks.
@pytest.fixture(scope="session")
def sipp_binary() -> str:
    """sipp on the host (Debian's sip-tester, installed when missing): callers and targets."""
    return _host_tool("sipp")


@pytest.fixture(scope="session")
def mp3_tools() -> str:
    """mpg123, which the portal decodes an uploaded MP3 with, and lame, which encodes the tests' MP3s
    (both installed when missing); lame's path."""
    _host_tool("mpg123")
    return _host_tool("lame")


@pytest.fixture(scope="session")
def kamailio_binary() -> str:
    """Kamailio on the host (installed when missing): the proxy in front of several nodes."""
    return _host_tool("kamailio")


@pytest.fixture(scope="session")
def espeak_ng() -> str:
    """espeak-ng on the host (installed when missing): a whisper typed as text is spoken with it
    (core.calls.whisper; without it, only the Asterisk chroot's, which a fresh machine has not built yet)."""
    return _host_tool("espeak-ng")


@pytest.fixture(scope="session")
def chromium_binary() -> str:
    """Debian's Chromium (installed when missing), which the browser tests drive; they are no
    real-call tests: never skipped."""
    return _host_tool("chromium", _fail)


@pytest.fixture(scope="session")
def docker_engine(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Docker, its compose plugin and a running daemon (deploy/install-engine.sh, as root)."""
    from testkit.containers import EngineUnavailable, ensure_engine

    try:
        ensure_engine(tmp_path_factory.mktemp("docker"))
    except EngineUnavailable as exc:
        unavailable("docker", str(exc))


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A DATA_DIR of the test's own for a launcher it starts (`make run`, `python -m launcher`).
    Not pytest's tmp_path: that root is 0700, and embedded PostgreSQL runs as its own user as root."""
    path = REPO / ".test-data" / f"run-{uuid.uuid4().hex[:8]}"
    path.mkdir(parents=True)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def server_url() -> str:
    """The PostgreSQL server the suite runs on (for tests that need a database of their own)."""
    return str(_state["server_url"])


@pytest.fixture(autouse=True)
def _clean_state(request: pytest.FixtureRequest) -> Iterator[None]:
    use: DatabaseUse = _state["use"]
    use.clear()
    yield
    # A test's Asterisk writes its record of every call (CEL) over connections of its own.
    if use.used or {"asterisk", "cluster"} & set(request.fixturenames):
        reset_state()
    else:  # pure logic: the tables are as the last reset left them
        from core.infra.redis_client import get_redis

        get_redis().flushdb()


@pytest.fixture(scope="session")
def app() -> Any:
    from portal_api.app import create_app

    return create_app()


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app) as c:
        yield c


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
