"""deploy/compose.tls.yml as Compose renders it on top of compose.yml (`docker compose config`, no
engine needed): TLS terminated in front of the portal, which trusts forwarded headers from that
proxy only and sends HSTS; the portal's own port stays on loopback."""

import shutil
from pathlib import Path

from testkit.containers import rendered
from testkit.required import unavailable


def test_tls_in_front_of_the_portal(tmp_path: Path) -> None:
    if shutil.which("docker") is None:
        unavailable("docker", "the docker CLI is not installed")
    services = rendered(tmp_path, "compose.tls.yml")
    proxy, portal = services["tls"], services["portal"]
    assert [p["target"] for p in proxy["ports"]] == [443, 80]
    address = proxy["networks"]["edge"]["ipv4_address"]
    assert portal["environment"]["FORWARDED_ALLOW_IPS"] == address
    assert int(portal["environment"]["HSTS_SECONDS"]) >= 15_552_000  # at least 180 days
    assert {p["host_ip"] for p in portal["ports"]} == {"127.0.0.1"}
    assert set(portal["networks"]) == {"default", "edge"}
