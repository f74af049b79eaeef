"""Every response carries the security headers, every request leaves one access-log line without
secrets, and a wrong method on an API path is a 405 with Allow even beside the UI's catch-all."""

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from core.infra.settings import get_settings
from portal_api.app import create_app
from portal_api.middleware import CSP, DOCS_CSP


@pytest.fixture
def ui_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The API with a (tiny) built UI, as `make run` serves web/dist."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><div id=root></div>")
    (tmp_path / "assets" / "app.js").write_text("console.log('ui')")
    monkeypatch.setenv("WEB_DIST", str(tmp_path))
    get_settings.cache_clear()
    try:
        app = create_app()
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    with TestClient(app) as client:
        yield client


def _has_security_headers(response, csp: str = CSP) -> None:
    assert response.headers["Content-Security-Policy"] == csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_every_kind_of_response_carries_the_security_headers(ui_client, customer_a) -> None:
    answers = [
        ui_client.post("/api/login", json={"email": customer_a.email, "password": customer_a.password}),
        ui_client.get("/api/profile", headers=customer_a.headers),
        ui_client.get("/api/profile"),  # 401
        ui_client.post("/api/login", json={"email": "x"}),  # 422
        ui_client.get("/api/nothing-here"),  # 404
        ui_client.get("/api/login"),  # 405
        ui_client.post("/api/login", content=b"x" * 2_000_000, headers={"Content-Type": "application/json"}),
        ui_client.get("/"),
        ui_client.get("/campaigns/7"),  # a client-side route
        ui_client.get("/assets/app.js"),
    ]
    assert [r.status_code for r in answers] == [200, 200, 401, 422, 404, 405, 413, 200, 200, 200]
    for r in answers:
        _has_security_headers(r)
    # Swagger UI loads from its CDN with an inline script: its own policy, still never framed.
    _has_security_headers(ui_client.get("/docs"), DOCS_CSP)


def test_an_unexpected_failure_answers_500_with_the_headers_too() -> None:
    app = create_app()

    def boom() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/boom")
    assert r.status_code == 500
    assert r.json() == {"message": "Something went wrong on our side; please try again."}
    _has_security_headers(r)


def test_a_wrong_method_on_an_api_path_is_405_with_allow_not_the_ui(ui_client, customer_a) -> None:
    r = ui_client.get("/api/login")
    assert r.status_code == 405 and r.headers["Allow"] == "OPTIONS, POST"
    assert r.json() == {"message": "This method is not allowed here."}
    # Every method of the path, though GET and PUT /profile are two routes.
    r = ui_client.delete("/api/profile", headers=customer_a.headers)
    assert r.status_code == 405 and r.headers["Allow"] == "GET, HEAD, OPTIONS, PUT"
    unknown = ui_client.get("/api/no/such/path")
    assert unknown.status_code == 404 and unknown.json() == {"message": "Nothing is at this address."}
    # The UI still answers its own routes, and nothing else but GET.
    assert ui_client.get("/login").text.startswith("<!doctype html>")
    assert ui_client.post("/login").status_code == 405


def test_head_answers_as_get_without_a_body(ui_client, customer_a) -> None:
    for path, headers in (
        ("/api/profile", customer_a.headers),
        ("/api/country", customer_a.headers),
        ("/login", {}),
    ):
        got, head = ui_client.get(path, headers=headers), ui_client.head(path, headers=headers)
        assert (head.status_code, got.status_code) == (200, 200), (path, head.text)
        assert head.content == b"" and head.headers["content-length"] == str(len(got.content)), path
        assert head.headers["content-type"] == got.headers["content-type"]
        _has_security_headers(head)
    assert ui_client.head("/api/profile").status_code == 401  # the same checks as GET
    assert ui_client.head("/api/login").status_code == 405  # no GET, no HEAD


def test_options_answers_204_with_allow_and_no_cors(ui_client) -> None:
    r = ui_client.options("/api/profile", headers={"Origin": "https://elsewhere.example"})
    assert r.status_code == 204 and r.content == b""
    assert r.headers["Allow"] == "GET, HEAD, OPTIONS, PUT"
    assert not [h for h in r.headers if h.lower().startswith("access-control-")]
    _has_security_headers(r)
    assert ui_client.options("/api/login").headers["Allow"] == "OPTIONS, POST"
    assert ui_client.options("/api/no/such/path").status_code == 404


def _app_with(monkeypatch: pytest.MonkeyPatch, **env: str):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        return create_app()
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


def test_hsts_only_on_https_and_only_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app_with(monkeypatch, HSTS_SECONDS="31536000")
    with TestClient(app, base_url="https://portal.example") as tls:
        r = tls.get("/api/country")
        assert r.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
        assert tls.get("/api/nothing-here").headers["Strict-Transport-Security"]
    with TestClient(app) as plain:  # plain HTTP: a client's header does not make it HTTPS
        r = plain.get("/api/country", headers={"X-Forwarded-Proto": "https"})
        assert "Strict-Transport-Security" not in r.headers
    with TestClient(_app_with(monkeypatch), base_url="https://portal.example") as unset:
        assert "Strict-Transport-Security" not in unset.get("/api/country").headers


def test_hsts_behind_a_trusted_tls_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A TLS proxy speaks plain HTTP to the portal: its X-Forwarded-Proto counts, a client's does not."""
    app = _app_with(monkeypatch, HSTS_SECONDS="600", TRUSTED_PROXIES="10.0.0.2")
    monkeypatch.setattr(get_settings(), "trusted_proxies", "10.0.0.2")
    with TestClient(app, client=("10.0.0.2", 50000)) as proxy:
        forwarded = proxy.get("/api/country", headers={"X-Forwarded-Proto": "https"})
        assert forwarded.headers["Strict-Transport-Security"] == "max-age=600; includeSubDomains"
        assert "Strict-Transport-Security" not in proxy.get("/api/country").headers
    with TestClient(app, client=("192.0.2.9", 50000)) as direct:
        r = direct.get("/api/country", headers={"X-Forwarded-Proto": "https"})
        assert "Strict-Transport-Security" not in r.headers


def test_each_request_logs_one_line_without_tokens_or_query(client, customer_a, caplog) -> None:
    access = logging.getLogger("portal_api.access")
    access.addHandler(caplog.handler)  # it writes its own lines rather than propagating
    try:
        client.get("/api/profile?token=query-secret&q=x", headers=customer_a.headers)
        client.get("/api/profile")
    finally:
        access.removeHandler(caplog.handler)
    lines = [r.getMessage() for r in caplog.records if r.name == "portal_api.access"]
    assert len(lines) == 2
    ok, refused = (line.split() for line in lines)
    assert ok[:4] == ["testclient", "GET", "/api/profile", "200"] and ok[4].endswith("ms")
    assert refused[1:4] == ["GET", "/api/profile", "401"]
    assert not any(secret in line for line in lines for secret in ("query-secret", customer_a.token, "q=x"))
