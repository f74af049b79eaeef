"""The client's address, which every limit and access-log line uses: the connection's peer, and
X-Forwarded-For only from the proxies TRUSTED_PROXIES names (docs/security.md, "The client's address")."""

from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from core.infra.settings import get_settings
from testkit.actors import Actor
from testkit.processes import api_server
from testkit.waiting import eventually


def sign_in(client, email: str, forwarded_for: str):
    body = {"email": email, "password": "wrong-pass-1"}
    return client.post("/api/login", json=body, headers={"X-Forwarded-For": forwarded_for})


def test_a_real_portal_believes_no_forwarded_for_unless_told(tmp_path: Path, customer_a: Actor) -> None:
    """Uvicorn believes X-Forwarded-For from loopback by default: as `make run` starts it, it must
    not, or every guess names a new address and no per-address limit holds."""
    limit = get_settings().login_max_failures_per_address
    log = tmp_path / "portal.log"
    with api_server(log=log) as base, httpx.Client(base_url=base, timeout=10) as client:
        codes = [sign_in(client, f"guess{i}@example.com", f"203.0.113.{i}").status_code for i in range(limit)]
        assert codes == [401] * limit
        assert sign_in(client, "guess-new@example.com", "198.51.100.77").status_code == 429

        def sign_up(n: int):
            body = {"name": f"New {n}", "email": f"new{n}@example.com", "password": "first-pass-1"}
            return client.post("/api/register", json=body, headers={"X-Forwarded-For": f"192.0.2.{n}"})

        allowed = get_settings().signup_max_per_address
        assert [sign_up(n).status_code for n in range(allowed)] == [201] * allowed
        assert sign_up(allowed).status_code == 429
        # The access log names the peer, not what the client wrote.
        eventually(lambda: "POST /api/register 429" in log.read_text(), timeout=10, what="the access line")
    access = [line for line in log.read_text().splitlines() if " POST /api/" in line]
    assert access and all(" 127.0.0.1 POST " in line for line in access)
    assert not any(ip in log.read_text() for ip in ("203.0.113.", "192.0.2.", "198.51.100."))


@pytest.fixture
def behind_proxy(app, monkeypatch: pytest.MonkeyPatch):
    """The portal behind a proxy at 10.0.0.2, which TRUSTED_PROXIES names (with its network)."""
    monkeypatch.setattr(get_settings(), "trusted_proxies", "10.0.0.0/24")
    with TestClient(app, client=("10.0.0.2", 50000)) as client:
        yield client


def test_behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_forwarded_address(
    behind_proxy, app, customer_a: Actor
) -> None:
    limit = get_settings().login_max_failures_per_address
    for i in range(limit):
        # What the client wrote (left) varies; what the proxies appended (right) does not.
        chain = f"198.51.100.{i}, 203.0.113.5, 10.0.0.7"
        assert sign_in(behind_proxy, f"guess{i}@example.com", chain).status_code == 401
    assert sign_in(behind_proxy, "guess-new@example.com", "203.0.113.5").status_code == 429
    # Another client behind the same proxy is another address.
    assert sign_in(behind_proxy, "guess-new@example.com", "203.0.113.6").status_code == 401
    # A client that is no proxy of ours is its own address, whatever it writes.
    with TestClient(app, client=("192.0.2.9", 50000)) as direct:
        assert sign_in(direct, "guess-new@example.com", "203.0.113.7").status_code == 401
        for i in range(limit - 1):
            sign_in(direct, f"guess{i}@example.com", f"203.0.113.{i + 10}")
        assert sign_in(direct, "guess-new@example.com", "203.0.113.99").status_code == 429


def test_a_malformed_trusted_proxies_entry_stops_the_start_with_the_entry_named() -> None:
    from core.infra.settings import settings_from

    with pytest.raises(ValueError, match=r"TRUSTED_PROXIES: 'proxy\.internal' is no network"):
        settings_from({"TRUSTED_PROXIES": "10.0.0.2, proxy.internal"})
