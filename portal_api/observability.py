"""What Prometheus and the orchestrator ask the portal, outside /api and its envelope: `/metrics`,
`/health/live` (the process answers) and `/health/ready` (PostgreSQL and Redis answer, and the
database is at this code's migrations). docs/operations.md describes them.
"""

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST

from core.infra import health
from core.infra.metrics import exposition

router = APIRouter(include_in_schema=False)

READY_CHECKS: dict[str, health.Check] = {
    "database": health.database,
    "redis": health.redis_server,
    "migrations": health.migrations,
}


@router.get("/metrics")
def metrics() -> Response:
    return Response(exposition(), media_type=CONTENT_TYPE_LATEST)


@router.get("/health/live")
def live() -> JSONResponse:
    status, body = health.answer({})
    return JSONResponse(body, status_code=status)


@router.get("/health/ready")
def ready() -> JSONResponse:
    status, body = health.answer(health.run(READY_CHECKS))
    return JSONResponse(body, status_code=status)
