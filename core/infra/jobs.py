"""Background work by task name (core.infra.names), so services enqueue without importing `workers/`.

The Celery settings live here too: the worker app (`workers.app`) and this client are configured
from the same function, on the same broker (REDIS_URL).
"""

from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

from celery import Celery

from core.infra import names
from core.infra.settings import get_settings

# Hard limit per task; a message is redelivered only after the visibility timeout, so keep it larger.
TASK_TIME_LIMIT = 300
VISIBILITY_TIMEOUT = 3 * TASK_TIME_LIMIT


def broker_url(redis_url: str) -> str:
    """Celery's spelling of a Redis URL: kombu reads a unix socket (embedded Redis) as redis+socket://."""
    if not redis_url.startswith("unix://"):
        return redis_url
    parts = urlsplit(redis_url)
    db = parse_qs(parts.query).get("db", ["0"])[0]
    return f"redis+socket://{parts.path}?virtual_host={db}"


def celery_config() -> dict[str, object]:
    return {
        "broker_url": broker_url(get_settings().redis_url),
        # Redis away, at start or later: the worker keeps trying (2, 4, 6 ... up to every 30 s) for
        # as long as it takes instead of exiting after 100 tries; its /health/ready says 503 meanwhile.
        "broker_connection_retry_on_startup": True,
        "broker_connection_retry": True,
        "broker_connection_max_retries": None,
        "task_default_queue": names.CELERY_QUEUE,
        # Transcription's own queue, which only its own worker reads (`-Q transcribe`).
        "task_routes": {
            names.TRANSCRIBE_CALL: {"queue": names.TRANSCRIBE_QUEUE},
            names.REAPPLY_RULES: {"queue": names.TRANSCRIBE_QUEUE},
        },
        # Keepalive and a health check every 30 s: a connection a restart or a NAT dropped silently is
        # noticed and made again, rather than waited on.
        "broker_transport_options": {
            "visibility_timeout": VISIBILITY_TIMEOUT,
            "socket_keepalive": True,
            "health_check_interval": 30,
        },
        "task_serializer": "json",
        "accept_content": ["json"],
        "timezone": "UTC",
        "enable_utc": True,
        # Delivered at least once: a task is acknowledged only when done, and every task is safe
        # to run twice (ledger references, row locks and status checks make repeats no-ops).
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_time_limit": TASK_TIME_LIMIT,
        "task_soft_time_limit": TASK_TIME_LIMIT - 30,
        "task_ignore_result": True,
    }


@lru_cache
def client() -> Celery:
    app = Celery("callroute")
    app.conf.update(celery_config())
    return app


def enqueue(name: str, *args: object) -> None:
    """Queue task `name` with JSON-serialisable `args`, e.g. enqueue(names.RATE_CALL, linkedid)."""
    client().send_task(name, args=list(args))
