"""PostgreSQL or Redis away: the API answers 503 with Retry-After (never a 500), and a trunk saved
while Redis is away is saved once, with success."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.infra.db import autocommit_engine, get_engine, session_scope
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import Trunk
from testkit.processes import RedisServer, free_port, redis_server

TRUNK = {"name": "Carrier One", "direction": "outbound", "host": "sip.carrier-one.example"}


def _repoint(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for cached in (get_settings, get_engine, autocommit_engine, get_redis):
        cached.cache_clear()


@pytest.fixture
def repoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Lets a test point this process at other engines; the suite's own afterwards."""
    yield monkeypatch
    monkeypatch.undo()
    get_engine().dispose()
    for cached in (get_settings, get_engine, autocommit_engine, get_redis):
        cached.cache_clear()


@pytest.fixture
def own_redis(tmp_path: Path, repoint: pytest.MonkeyPatch) -> Iterator[RedisServer]:
    with redis_server(tmp_path) as server:
        _repoint(repoint, REDIS_URL=server.url)
        yield server


def test_postgresql_away_answers_503_with_retry_after(client, admin, repoint) -> None:
    _repoint(repoint, DATABASE_URL=f"postgresql://postgres@127.0.0.1:{free_port()}/gone")
    r = client.get("/api/trunk/details", headers=admin.headers)
    assert r.status_code == 503, r.text
    assert r.headers["Retry-After"] == "5" and "try again" in r.json()["message"]


def test_redis_away_answers_503_with_retry_after(client, own_redis) -> None:
    own_redis.stop()
    r = client.post("/api/login", json={"email": "nobody@example.com", "password": "wrong-pass"})
    assert r.status_code == 503, r.text
    assert r.headers["Retry-After"] == "5"


def test_trunk_saved_while_redis_is_away_answers_success_once(client, admin, own_redis) -> None:
    own_redis.stop()
    r = client.post("/api/trunk/add", json=TRUNK, headers=admin.headers)
    assert r.status_code == 201, r.text
    trunk_id = r.json()["data"]["id"]
    r = client.put(f"/api/trunk/{trunk_id}", json={"port": 5070}, headers=admin.headers)
    assert r.status_code == 200, r.text
    with session_scope() as s:
        assert s.scalar(select(func.count()).select_from(Trunk)) == 1
        assert s.get(Trunk, trunk_id).port == 5070
