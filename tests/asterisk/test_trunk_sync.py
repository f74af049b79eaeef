"""A trunk saved while Redis is away: the API answers success, and Asterisk gets the trunk from
PostgreSQL (the bridge's resync), with no pub/sub message ever arriving."""

from functools import partial
from pathlib import Path

import httpx
import pytest

from testkit.actors import Actor
from testkit.asterisk import AsteriskUnderTest, running_bridge, trunk_pushed
from testkit.processes import api_server, free_port, redis_server
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk


def test_trunk_written_while_redis_is_down_reaches_asterisk(
    asterisk: AsteriskUnderTest, admin: Actor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with redis_server(tmp_path) as redis:
        monkeypatch.setenv("REDIS_URL", redis.url)
        monkeypatch.setenv("TRUNK_RESYNC_SECONDS", "1")
        with running_bridge(asterisk, tmp_path / "bridge.log"), api_server() as api:
            redis.stop()
            first, second = free_port(), free_port()
            body = {"name": "Carrier", "direction": "outbound", "host": "127.0.0.1", "port": first}
            created = httpx.post(f"{api}/api/trunk/add", json=body, headers=admin.headers, timeout=10)
            assert created.status_code == 201, created.text
            trunk_id = created.json()["data"]["id"]
            eventually(partial(trunk_pushed, asterisk, trunk_id, first), timeout=15, what="the new trunk")
            changed = httpx.put(
                f"{api}/api/trunk/{trunk_id}", json={"port": second}, headers=admin.headers, timeout=10
            )
            assert changed.status_code == 200, changed.text
            eventually(partial(trunk_pushed, asterisk, trunk_id, second), timeout=15, what="the new port")
            assert "pub/sub lost" in (tmp_path / "bridge.log").read_text()  # it really was away
