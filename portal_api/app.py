"""The FastAPI application: every REST path under /api, the built UI at /."""

import importlib
import logging
import pkgutil
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from core.infra import logs
from core.infra.settings import get_settings
from portal_api import errors, observability, routers, web
from portal_api.body_limit import BodyLimit
from portal_api.envelope import ErrorBody
from portal_api.load_shedding import LoadShedding
from portal_api.methods import HeadAndOptions
from portal_api.middleware import AccessLog, SecurityHeaders

API_PREFIX = "/api"

# FastAPI's type for `responses` (and for the OpenAPI document below): JSON, untyped.
_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in {
        400: "Malformed request",
        401: "Not signed in, or the token was revoked",
        403: "Signed in, but not allowed",
        404: "No such row for this caller",
        409: "Conflicts with existing data",
        413: "Body too large",
        422: "A field is invalid",
        429: "Too many attempts",
        503: "Busy (Retry-After says when to try again), or a part it needs is away",
    }.items()
}


# Uvicorn's own loggers (set up before it imports the app) write in the product's format too.
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error")


def operation_id(route: APIRoute) -> str:
    """`<router module>_<function>` (`campaigns_details`), unique as a module's functions are: the name
    the generated web client gives the call."""
    return f"{route.endpoint.__module__.rsplit('.', 1)[-1]}_{route.name}"


def create_app() -> FastAPI:
    settings = get_settings()
    logs.configure(loggers=UVICORN_LOGGERS)
    # Uvicorn's access lines carry the query string, where the live socket sends its token, however
    # the server was started; AccessLog writes one line per request without it.
    logging.getLogger("uvicorn.access").disabled = True
    app = FastAPI(
        title="Callroute portal API",
        version="0.1.0",
        description="Call tracking and routing on Asterisk. Envelope: `{message, data}`; "
        "failures: `{message, errors}`.",
        generate_unique_id_function=operation_id,
    )
    # Every module in portal_api/routers serves its `router`: adding a file adds its paths.
    for info in sorted(pkgutil.iter_modules(routers.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{routers.__name__}.{info.name}")
        app.include_router(module.router, prefix=API_PREFIX, responses=_ERRORS)
    app.include_router(observability.router)  # before the UI's catch-all route
    errors.install(app)
    app.add_middleware(
        BodyLimit,
        limit_for=lambda ctype: (
            settings.max_upload_bytes if ctype.startswith("multipart/") else settings.max_body_bytes
        ),
    )
    app.add_middleware(HeadAndOptions)
    # Outside the body limit (a refused request's body is never read), inside the headers and the
    # log (a 503 for load gets both).
    app.add_middleware(
        LoadShedding,
        concurrency=settings.portal_concurrency,
        queue=settings.portal_queue,
        wait_seconds=settings.portal_queue_seconds,
    )
    # Added last, so outermost: a 413 gets the headers too, and the log sees every answer.
    app.add_middleware(SecurityHeaders, hsts_seconds=settings.hsts_seconds)
    app.add_middleware(AccessLog)
    _document_errors_as_envelope(app)
    web.mount(app, settings.web_dist)
    return app


def _document_errors_as_envelope(app: FastAPI) -> None:
    """FastAPI documents 422 as its own shape; this API answers every error as ErrorBody."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        ref = {"$ref": "#/components/schemas/ErrorBody"}
        for path in schema["paths"].values():
            for op in path.values():
                for status, response in op.get("responses", {}).items():
                    if status.startswith(("4", "5")):
                        response["content"] = {"application/json": {"schema": ref}}
        for unused in ("HTTPValidationError", "ValidationError"):
            schema["components"]["schemas"].pop(unused, None)
        app.openapi_schema = schema
        return schema

    # Replacing the method is FastAPI's documented way to adjust the schema; mypy flags any method assignment.
    app.openapi = openapi  # type: ignore[method-assign]


app = create_app()
