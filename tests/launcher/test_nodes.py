"""`make run` with NODES=N: each node's id, Asterisk instance and ports (launcher.nodes); the run
itself, two nodes behind Kamailio under real calls, is tests/launcher/test_run_command.py's."""

import sys

from asterisk_config.settings import AsteriskSettings
from core.infra.settings import settings_from
from launcher.nodes import node_children, node_env


def test_each_node_has_its_own_id_instance_and_ports_apart_from_kamailio_and_the_others() -> None:
    env = {"NODES": "3", "ASTERISK_INSTANCE": "demo"}
    s = settings_from(env)
    nodes = [node_env(s, index) for index in (1, 2, 3)]
    assert [n["NODE_ID"] for n in nodes] == ["n1", "n2", "n3"]
    assert [n["ASTERISK_INSTANCE"] for n in nodes] == ["demo-n1", "demo-n2", "demo-n3"]
    held: list[set[int]] = []
    for node in nodes:
        a = AsteriskSettings.from_env({**env, **node})  # each a valid Asterisk of its own
        metrics = int(node["BRIDGE_METRICS_PORT"])
        held.append({a.sip_port, a.http_port, a.ami_port, metrics, *range(a.rtp_start, a.rtp_end + 1)})
        assert a.rtp_start % 2 == 0 and a.rtp_start < a.rtp_end
    shared = {s.kamailio_sip_port, s.port, s.worker_metrics_port}
    for index, ports in enumerate(held):
        assert ports.isdisjoint(shared)
        assert all(ports.isdisjoint(other) for other in held[index + 1 :])


def test_kamailio_dispatches_to_every_node_started() -> None:
    s = settings_from({"NODES": "2"})
    children = node_children(s, with_kamailio=True)
    assert [c.name for c in children] == ["asterisk-n1", "bridge-n1", "asterisk-n2", "bridge-n2", "kamailio"]
    assert children[-1].own_env == {"KAMAILIO_NODES": "127.0.0.1:5070,127.0.0.1:5080"}
    assert children[-1].argv == [sys.executable, "-m", "asterisk_config.kamailio", "run"]
    assert [c.name for c in node_children(s, with_kamailio=False)][-1] == "bridge-n2"
