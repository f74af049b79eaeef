"""Every failure answers `{"message": ..., "errors": {...}}` with a status that means what happened.

Rules refuse by raising core.values.errors.DomainError (services, auth, core alike); this is the one place
that says which HTTP status each kind of refusal answers. The rest are the framework's own errors
(validation, unknown paths) and the engines' (the database refusing a value, an engine away)."""

import logging
from collections.abc import Mapping

import kombu.exceptions
import redis
import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, IntegrityError
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.values.errors import DomainError, Kind
from portal_api.methods import allowed_methods
from portal_api.middleware import security_headers

log = logging.getLogger(__name__)


def _body(message: str, errors: dict[str, list[str]] | None = None) -> dict[str, object]:
    return {"message": message, "errors": errors} if errors else {"message": message}


def _field_name(loc: tuple[object, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


_VALIDATION_TEXT = {
    "missing": "is required",
    "int_parsing": "must be a whole number",
    "float_parsing": "must be a number",
    "decimal_parsing": "must be a number",
    "string_too_short": "is too short",
    "string_too_long": "is too long",
}


def _validation_message(err: Mapping[str, object]) -> str:
    """`err` is one of pydantic's error details (FastAPI hands them over untyped)."""
    text = _VALIDATION_TEXT.get(str(err["type"]))
    if text:
        return text
    msg = str(err.get("msg", "is invalid"))
    # Pydantic prefixes custom ValueErrors; people do not need that prefix.
    return msg.removeprefix("Value error, ")


async def _validation_handler(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors: dict[str, list[str]] = {}
    for err in exc.errors():
        if err["type"] == "json_invalid":
            return JSONResponse(_body("The request body is not valid JSON."), status_code=400)
        if err["type"] == "missing" and tuple(err["loc"]) == ("body",):
            return JSONResponse(_body("A JSON request body is required."), status_code=422)
        errors.setdefault(_field_name(tuple(err["loc"])), []).append(_validation_message(err))
    field, messages = next(iter(errors.items()))
    message = f"{field} {messages[0]}." if messages[0][:1].islower() else messages[0]
    if len(errors) > 1:
        message += f" ({len(errors) - 1} more field{'s' if len(errors) > 2 else ''} to fix.)"
    return JSONResponse(_body(message, errors), status_code=422)


# What each kind of domain error answers; the message (and its fields) is the rule's own.
STATUS_OF_KIND = {
    Kind.NOT_FOUND: 404,
    Kind.CONFLICT: 409,
    Kind.PAYMENT_REQUIRED: 402,
    Kind.INVALID: 422,
    Kind.UNAUTHENTICATED: 401,
    Kind.FORBIDDEN: 403,
    Kind.TOO_LARGE: 413,
    Kind.THROTTLED: 429,
    Kind.UNAVAILABLE: 503,
    Kind.UPSTREAM_FAILED: 502,
}


async def _domain_error_handler(request: Request, exc: DomainError) -> JSONResponse:
    headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
    return JSONResponse(_body(exc.message, exc.errors), status_code=STATUS_OF_KIND[exc.kind], headers=headers)


_HTTP_TEXT = {
    404: "Nothing is at this address.",
    405: "This method is not allowed here.",
    413: "The request body is too large.",
}


async def _http_error_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    detail = exc.detail if isinstance(exc.detail, str) else None
    message = (
        _HTTP_TEXT.get(exc.status_code) if detail in (None, "Not Found", "Method Not Allowed") else detail
    )
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        # Starlette's 405 names only the first route that matched the path.
        headers["Allow"] = allowed_methods(request.app.routes, request.scope)
    return JSONResponse(_body(message or "The request failed."), status_code=exc.status_code, headers=headers)


# PostgreSQL SQLSTATEs a request can trip over: answer what it means, never a 500.
_REFERENCED = (
    409,
    "This record is still referenced by other records (such as call history); deactivate it instead.",
)
_INTEGRITY = {
    "23505": (409, "A record with these details already exists."),
    "23503": _REFERENCED,  # foreign_key_violation
    "23001": _REFERENCED,  # restrict_violation: a foreign key declared ON DELETE RESTRICT
    "23514": (422, "A value is outside what is allowed."),
    "23502": (422, "A required value is missing."),
}


async def _integrity_handler(request: Request, exc: IntegrityError) -> JSONResponse:
    code = getattr(exc.orig, "sqlstate", None)
    status, message = _INTEGRITY.get(code or "", (409, "The change conflicts with existing records."))
    return JSONResponse(_body(message), status_code=status)


async def _data_error_handler(request: Request, exc: DataError) -> JSONResponse:
    # SQLSTATE class 22: a value PostgreSQL can't store (a NUL character, a number out of range).
    return JSONResponse(
        _body("A value can't be stored: check for control characters or numbers out of range."),
        status_code=422,
    )


# An engine away (PostgreSQL or Redis restarting, the broker unreachable): the launcher brings it
# back within seconds, so the request is worth repeating. Connection refused or lost, a pool
# exhausted, a transaction PostgreSQL rolled back (deadlock, shutdown) all land here.
ENGINE_AWAY = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,
    redis.ConnectionError,
    redis.TimeoutError,
    kombu.exceptions.OperationalError,
)
RETRY_AFTER_SECONDS = 5


async def _engine_away_handler(request: Request, exc: Exception) -> JSONResponse:
    log.warning("%s %s: an engine is away (%s)", request.method, request.url.path, type(exc).__name__)
    return JSONResponse(
        _body("The service is briefly unavailable; please try again in a few seconds."),
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


async def _unexpected_handler(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    # Answered outside the middleware (Starlette's outermost error layer): the headers come with it.
    return JSONResponse(
        _body("Something went wrong on our side; please try again."),
        status_code=500,
        headers=security_headers(request.url.path),
    )


def install(app: FastAPI) -> None:
    # The decorator form registers each handler as add_exception_handler does; its type accepts a
    # handler of one exception class, which add_exception_handler's (any Exception) does not.
    app.exception_handler(DomainError)(_domain_error_handler)
    app.exception_handler(RequestValidationError)(_validation_handler)
    app.exception_handler(StarletteHTTPException)(_http_error_handler)
    app.exception_handler(IntegrityError)(_integrity_handler)
    app.exception_handler(DataError)(_data_error_handler)
    for away in ENGINE_AWAY:
        app.add_exception_handler(away, _engine_away_handler)
    app.add_exception_handler(Exception, _unexpected_handler)
