"""Kamailio's configuration, rendered from `kamailio.cfg` with the product's settings (core.infra.settings):
where it listens, the nodes it dispatches to, how often it probes them, its flood limits."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from asterisk_config.errors import ConfigError, Unavailable
from asterisk_config.render import render_text
from core.infra.settings import Settings

TEMPLATE = Path(__file__).resolve().parent / "kamailio.cfg"
# A node is out after this many unanswered probes (each waits for the transaction's timeout).
PROBE_FAILURES = 1
# An INVITE a node has not acknowledged (100 Trying) in this time (ms) goes to the next node. A node
# at load average 20 on 2 cores took up to about 2 s, and a cluster's first calls more than 4 s: a
# live node that got the INVITE late set up the same call the next node had taken (two rows for one
# call in the 200-call test at 4 s), so a node is given 10 s (docs/scale.md, "Failover").
NODE_TRYING_MS = 10000


@dataclass(frozen=True)
class KamailioSettings:
    work_dir: Path  # the rendered files, the address list and the RPC socket
    sip_port: int
    nodes: tuple[str, ...]  # each node's Asterisk SIP address, "host:port"
    probe_seconds: int
    flood_requests: int
    flood_seconds: int
    listen: str = "127.0.0.1"
    children: int = 2

    @classmethod
    def of(cls, s: Settings, work_dir: Path | None = None) -> KamailioSettings:
        nodes = tuple(n.strip() for n in s.kamailio_nodes.split(",") if n.strip())
        return cls(
            work_dir=work_dir or s.data_dir / "kamailio",
            sip_port=s.kamailio_sip_port,
            nodes=nodes,
            probe_seconds=s.kamailio_probe_seconds,
            flood_requests=s.kamailio_flood_requests,
            flood_seconds=s.kamailio_flood_seconds,
            listen=s.kamailio_sip_bind,
        )

    @property
    def config_file(self) -> Path:
        return self.work_dir / "kamailio.cfg"

    @property
    def address_file(self) -> Path:
        return self.work_dir / "address.list"

    @property
    def dispatcher_file(self) -> Path:
        return self.work_dir / "dispatcher.list"

    @property
    def ctl_socket(self) -> Path:
        return self.work_dir / "kamailio.ctl"


def module_dir() -> Path:
    """Where Debian's package put Kamailio's modules (the path names the architecture)."""
    found = sorted(Path("/usr/lib").glob("*/kamailio/modules/dispatcher.so"))
    if not found:
        raise Unavailable("Kamailio is not installed (apt-get install kamailio)")
    return found[0].parent


def dispatcher_list(nodes: tuple[str, ...]) -> str:
    """Set 1: every node, as dispatcher's list file has it."""
    if not nodes:
        raise ConfigError("KAMAILIO_NODES names no node (host:port, comma-separated)")
    return "".join(f"1 sip:{node}\n" for node in nodes)


def render(settings: KamailioSettings) -> dict[Path, str]:
    """Each file Kamailio reads at start, by path; the address list is the carriers' (`carriers`)."""
    try:
        ipaddress.ip_address(settings.listen)
    except ValueError:
        raise ConfigError(f"KAMAILIO_SIP_BIND={settings.listen!r} is not an IP address") from None
    values = {
        "LISTEN": settings.listen,
        "SIP_PORT": str(settings.sip_port),
        "CHILDREN": str(settings.children),
        "MODULE_DIR": f"{module_dir()}/",
        "CTL_SOCKET": str(settings.ctl_socket),
        "ADDRESS_FILE": str(settings.address_file),
        "DISPATCHER_FILE": str(settings.dispatcher_file),
        "PROBE_SECONDS": str(settings.probe_seconds),
        "PROBE_FAILURES": str(PROBE_FAILURES),
        "NODE_TRYING_MS": str(NODE_TRYING_MS),
        "FLOOD_REQUESTS": str(settings.flood_requests),
        "FLOOD_SECONDS": str(settings.flood_seconds),
    }
    return {
        settings.config_file: render_text(TEMPLATE.read_text(), values, TEMPLATE.name),
        settings.dispatcher_file: dispatcher_list(settings.nodes),
    }


def write(path: Path, text: str) -> None:
    """Write-then-rename: a reload never reads half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)
