"""Readiness checks, and the one shape every service answers its health endpoints in.

`/health/live`: the process is up and answering. `/health/ready`: what the service needs answers
too (the portal: PostgreSQL, Redis, the schema at this code's migrations; the bridge: ARI). An
orchestrator sends traffic only to a ready service and restarts one that is not live.
"""

from collections.abc import Callable

import redis
from sqlalchemy import text

from core.infra.db import get_engine
from core.infra.migrate import database_heads, script_heads
from core.infra.settings import get_settings

TIMEOUT_SECONDS = 2  # a dependency slower than this to answer counts as away

Check = Callable[[], None]  # raises when what it checks does not answer


def database() -> None:
    with get_engine().connect() as connection:
        connection.execute(text("SET LOCAL statement_timeout = 2000"))
        connection.execute(text("SELECT 1"))


def redis_server() -> None:
    url = get_settings().redis_url
    with redis.Redis.from_url(
        url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
    ) as client:
        client.ping()


def migrations() -> None:
    with get_engine().connect() as connection:
        at = database_heads(connection)
    if at != script_heads():
        raise RuntimeError(f"database at {sorted(at) or 'no revision'}, code at {sorted(script_heads())}")


def run(checks: dict[str, Check]) -> dict[str, str]:
    """Each check's outcome: "ok", or why not."""
    outcome: dict[str, str] = {}
    for name, check in checks.items():
        try:
            check()
            outcome[name] = "ok"
        except Exception as exc:
            outcome[name] = f"{type(exc).__name__}: {exc}".strip()[:300]
    return outcome


def answer(outcome: dict[str, str]) -> tuple[int, dict[str, str | dict[str, str]]]:
    """The HTTP status and JSON body for `outcome`: 200 when every check is ok, else 503."""
    ok = all(result == "ok" for result in outcome.values())
    return (200 if ok else 503), {"status": "ok" if ok else "unavailable", "checks": outcome}
