"""`make run` with NODES=N (N > 1): N nodes (Asterisk + bridge) on this machine behind Kamailio, to
try the scale-out of docs/scale.md on one box. Node i (n1, n2, ...) runs its own Asterisk instance
(`{ASTERISK_INSTANCE}-n{i}`) with every port of the single-node settings moved up by 10 * i, and its
share of the RTP range; Kamailio takes the carriers on KAMAILIO_SIP_PORT and dispatches to them."""

import sys

from asterisk_config import chroot
from asterisk_config.errors import Unavailable
from asterisk_config.kamailio.config import module_dir
from core.infra.settings import Settings
from launcher.supervisor import Child

PORT_STEP = 10  # node i's ports: the single node's + PORT_STEP * i


def node_env(s: Settings, index: int) -> dict[str, str]:
    """Node `index`'s (1-based) id, Asterisk instance and ports, for its Asterisk and its bridge."""
    span = (s.asterisk_rtp_end - s.asterisk_rtp_start) // s.nodes
    rtp_start = s.asterisk_rtp_start + span * (index - 1)
    shift = PORT_STEP * index
    return {
        "NODE_ID": f"n{index}",
        "ASTERISK_INSTANCE": f"{s.asterisk_instance}-n{index}",
        "ASTERISK_SIP_PORT": str(s.asterisk_sip_port + shift),
        "ASTERISK_HTTP_PORT": str(s.asterisk_http_port + shift),
        "ASTERISK_AMI_PORT": str(s.asterisk_ami_port + shift),
        "ASTERISK_RTP_START": str(rtp_start + rtp_start % 2),  # RTP ports are even
        "ASTERISK_RTP_END": str(rtp_start + span - 1),
        "BRIDGE_METRICS_PORT": str(s.bridge_metrics_port + shift),
    }


def node_children(s: Settings, with_kamailio: bool) -> list[Child]:
    """Each node's Asterisk and bridge, and Kamailio in front of them (unless it can't run here:
    then carriers call the nodes' own ports)."""
    py = sys.executable
    children, addresses = [], []
    for index in range(1, s.nodes + 1):
        env = node_env(s, index)
        addresses.append(f"127.0.0.1:{env['ASTERISK_SIP_PORT']}")
        children += [
            Child(f"asterisk-n{index}", [py, "-m", "asterisk_config.provision", "run"], env),
            Child(f"bridge-n{index}", [py, "-m", "pbx_bridge"], env),
        ]
    if with_kamailio:
        kamailio = {"KAMAILIO_NODES": ",".join(addresses)}
        children.append(Child("kamailio", [py, "-m", "asterisk_config.kamailio", "run"], kamailio))
    return children


def kamailio_installed() -> bool:
    """Kamailio is here, or was installed now (Debian's package, as root); said plainly if not."""
    try:
        chroot.ensure_host_tool("kamailio", "kamailio", lambda line: print(f"  {line}", flush=True))
        module_dir()
    except Unavailable as exc:
        print(f"  Kamailio not started ({exc}): carriers call the nodes' own SIP ports", flush=True)
        return False
    return True
