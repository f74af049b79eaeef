"""Serve the built portal (web/dist) at `/`, with client-side routes falling back to index.html.

web/scripts/compress.mjs writes a `.br` and a `.gz` beside each text file at build time; the best
one the browser accepts is sent as is (no compression per request). Files under /assets carry a
content hash in their name, so they are cached for a year; index.html and the other unhashed
files are revalidated on every load, so a new build is picked up at once.
"""

import mimetypes
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse

from portal_api.errors import ApiError

_RESERVED = ("api/", "docs", "openapi.json", "redoc")
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


def mount(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if not index.is_file():
        return
    root = dist.resolve()

    @app.get("/{path:path}", include_in_schema=False)
    def spa(path: str, request: Request) -> FileResponse:
        if path.startswith(_RESERVED):
            raise ApiError(404, "Nothing is at this address.")
        candidate = (dist / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return _send(candidate, request, IMMUTABLE if path.startswith("assets/") else REVALIDATE)
        if path.startswith("assets/"):
            # A missing script must fail as such, not arrive as index.html.
            raise ApiError(404, "Nothing is at this address.")
        return _send(index, request, REVALIDATE)
