"""Serve the built portal (web/dist) at `/`, with client-side routes falling back to index.html.

The fallback matches no API or docs path, so a wrong method on an API path is the router's own
405 with `Allow`, and an unknown API path its 404, never the UI.
"""

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match
from starlette.types import Scope

_RESERVED = ("/api/", "/docs", "/openapi.json", "/redoc")


class _UiRoute(APIRoute):
    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and (scope["path"] == "/api" or scope["path"].startswith(_RESERVED)):
            return Match.NONE, {}
        return super().matches(scope)


def mount(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if not index.is_file():
        return
    if (dist / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=dist / "assets"), name="assets")

    def spa(path: str) -> FileResponse:
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(dist.resolve()):
            return FileResponse(candidate)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.router.add_api_route(
        "/{path:path}", spa, methods=["GET"], include_in_schema=False, route_class_override=_UiRoute
    )
