"""Redis restarted under a real Celery worker (killed, as a crash would, then back empty on the same
port): the worker stays up, says it is not ready meanwhile, and takes tasks again once Redis is back;
no supervisor restart is needed."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from core.infra import jobs, names
from core.infra.db import session_scope
from core.infra.settings import get_settings
from core.models import Call
from testkit import rows
from testkit.processes import free_port, redis_server, start_worker
from testkit.waiting import eventually

pytestmark = pytest.mark.slow


def _ready(port: int) -> int:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/health/ready", timeout=2).status_code
    except httpx.TransportError:
        return 0


def _rated(call_id: int) -> bool:
    with session_scope() as s:
        return s.get(Call, call_id).rating_status == "rated"


def test_the_worker_reconnects_after_redis_restarts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = rows.customer_id("10", rows.tariff(("44", "0.10"), increments=(1, 1)))
    ended = datetime.now(UTC) - timedelta(minutes=5)
    with redis_server(tmp_path) as redis:
        monkeypatch.setenv("REDIS_URL", redis.url)  # jobs.enqueue below sends to this Redis
        get_settings.cache_clear()
        jobs.client.cache_clear()
        port, log = free_port(), tmp_path / "worker.log"
        worker = start_worker(str(log), metrics_port=port, env={"REDIS_URL": redis.url})
        try:
            eventually(lambda: _ready(port) == 200, 60, 0.2, "the worker ready")
            redis.stop()
            eventually(lambda: _ready(port) == 503, 30, 0.2, "the worker not ready without Redis")
            # Away long enough for the worker to lose its consumer and retry (every 2, 4, 6 ... s).
            eventually(lambda: log.read_text().count("Cannot connect") >= 2, 30, 0.2, "the worker retrying")
            assert worker.poll() is None, log.read_text()[-3000:]
            redis.start()  # empty, on the same port
            eventually(lambda: _ready(port) == 200, 60, 0.2, "the worker ready again")
            assert worker.poll() is None, log.read_text()[-3000:]

            call_id = rows.call(owner, 30, started_at=ended)
            jobs.enqueue(names.RATE_PENDING)
            eventually(lambda: _rated(call_id), 60, 0.2, "a task taken after the restart")
            assert worker.poll() is None, "the worker stayed up"
        finally:
            worker.terminate()
            worker.wait(timeout=30)
            monkeypatch.undo()
            get_settings.cache_clear()
            jobs.client.cache_clear()
