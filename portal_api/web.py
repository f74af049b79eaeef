"""Serve the built portal (web/dist) at `/`, with client-side routes falling back to index.html.

The fallback matches no API or docs path, so a wrong method on an API path is the router's own
405 with `Allow`, and an unknown API path its 404, never the UI.

web/scripts/compress.mjs writes a `.br` and a `.gz` beside each text file at build time; the best
one the browser accepts is sent as is (no compression per request). Files under /assets carry a
content hash in their name, so they are cached for a year; index.html and the other unhashed
files are revalidated on every load, so a new build is picked up at once.
"""

import mimetypes
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import Scope

_RESERVED = ("/api/", "/docs", "/openapi.json", "/redoc")
# Preferred first: brotli is ~15% smaller than gzip on this bundle.
_ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def accepted_encodings(header: str) -> set[str]:
    """The codings an Accept-Encoding header allows (`q=0` refuses one)."""
    allowed = set()
    for part in header.split(","):
        name, *params = (p.strip() for p in part.split(";"))
        weight = 1.0
        for key, _, value in (p.partition("=") for p in params):
            if key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if name and weight > 0:
            allowed.add(name.lower())
    return allowed


def _send(file: Path, request: Request, cache: str) -> FileResponse:
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding"}
    accepted = accepted_encodings(request.headers.get("accept-encoding", ""))
    media_type = mimetypes.guess_type(file.name)[0]
    for coding, suffix in _ENCODINGS:
        packed = file.with_name(file.name + suffix)
        if coding in accepted and packed.is_file():
            headers["Content-Encoding"] = coding
            return FileResponse(packed, media_type=media_type, headers=headers)
    return FileResponse(file, media_type=media_type, headers=headers)


class _UiRoute(APIRoute):
    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and (scope["path"] == "/api" or scope["path"].startswith(_RESERVED)):
            return Match.NONE, {}
        return super().matches(scope)


def mount(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if not index.is_file():
        return
    root = dist.resolve()

    def spa(path: str, request: Request) -> FileResponse:
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return _send(candidate, request, IMMUTABLE if path.startswith("assets/") else REVALIDATE)
        if path.startswith("assets/"):
            # A missing script must fail as such, not arrive as index.html.
            raise HTTPException(404)  # answered "Nothing is at this address." (portal_api.errors)
        return _send(index, request, REVALIDATE)

    app.router.add_api_route(
        "/{path:path}", spa, methods=["GET"], include_in_schema=False, route_class_override=_UiRoute
    )
