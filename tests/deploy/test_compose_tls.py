"""deploy/compose.tls.yml as Compose renders it on top of compose.yml (`docker compose config`; the
CLI and its compose plugin from the `docker_engine` fixture): TLS terminated in front of the portal,
which trusts forwarded headers from that proxy only and sends HSTS; the portal's own port stays on
loopback."""

from pathlib import Path

from testkit.containers import rendered


def test_tls_in_front_of_the_portal(docker_engine: None, tmp_path: Path) -> None:
    services = rendered(tmp_path, "compose.tls.yml")
    proxy, portal = services["tls"], services["portal"]
    assert [p["target"] for p in proxy["ports"]] == [443, 80]
    address = proxy["networks"]["edge"]["ipv4_address"]
    assert portal["environment"]["TRUSTED_PROXIES"] == address
    assert int(portal["environment"]["HSTS_SECONDS"]) >= 15_552_000  # at least 180 days
    assert {p["host_ip"] for p in portal["ports"]} == {"127.0.0.1"}
    assert set(portal["networks"]) == {"default", "edge"}
