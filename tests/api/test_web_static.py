"""The built UI as portal_api/web.py serves it: precompressed files, cache headers, SPA fallback."""

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from portal_api import errors, web

SCRIPT = b"console.log('portal');" * 200


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_bytes(b"<!doctype html><div id=root></div>")
    (tmp_path / "index.html.br").write_bytes(b"BR-INDEX")
    script = tmp_path / "assets" / "index-AbC123.js"
    script.write_bytes(SCRIPT)
    (tmp_path / "assets" / "index-AbC123.js.br").write_bytes(b"BR" * 10)
    (tmp_path / "assets" / "index-AbC123.js.gz").write_bytes(b"GZ" * 20)
    (tmp_path / "assets" / "font-latin-400.woff2").write_bytes(b"wOF2" * 10)
    app = FastAPI()
    errors.install(app)
    web.mount(app, tmp_path)
    return TestClient(app)


def _raw(client: TestClient, path: str, encoding: str) -> tuple[dict[str, str], bytes]:
    with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as response:
        assert response.status_code == 200
        return dict(response.headers), b"".join(response.iter_raw())


@pytest.mark.parametrize(
    ("accept", "coding", "body"),
    [
        ("gzip, deflate, br, zstd", "br", b"BR" * 10),
        ("gzip, deflate", "gzip", b"GZ" * 20),
        ("br;q=0, gzip;q=0.5", "gzip", b"GZ" * 20),
        ("identity", None, SCRIPT),
    ],
)
def test_a_hashed_asset_comes_in_the_best_accepted_encoding_cached_for_a_year(
    client: TestClient, accept: str, coding: str | None, body: bytes
) -> None:
    headers, raw = _raw(client, "/assets/index-AbC123.js", accept)
    assert raw == body
    assert headers.get("content-encoding") == coding
    assert headers["content-length"] == str(len(body))
    assert "javascript" in headers["content-type"]
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["vary"] == "Accept-Encoding"


def test_index_and_client_routes_are_revalidated_and_compressed(client: TestClient) -> None:
    for path in ("/", "/report", "/login"):
        headers, raw = _raw(client, path, "br, gzip")
        assert raw == b"BR-INDEX"
        assert headers["content-encoding"] == "br"
        assert headers["content-type"].startswith("text/html")
        assert headers["cache-control"] == "no-cache"


def test_fonts_are_sent_as_they_are(client: TestClient) -> None:
    headers, raw = _raw(client, "/assets/font-latin-400.woff2", "br, gzip")
    assert raw == b"wOF2" * 10
    assert "content-encoding" not in headers
    assert headers["cache-control"].endswith("immutable")


def test_a_missing_asset_is_a_404_not_the_page(client: TestClient) -> None:
    assert client.get("/assets/gone-123.js").status_code == 404
    assert client.get("/api/nothing").status_code == 404
