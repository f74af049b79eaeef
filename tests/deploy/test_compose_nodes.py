"""deploy/compose.nodes.yml as Compose renders it on top of compose.yml (`docker compose config`):
Kamailio where carriers sent to the single Asterisk, dispatching to both nodes' own SIP ports; each
node an id and ports of its own, both recording into the volume the portal reads. The docker CLI and
its compose plugin come from the `docker_engine` fixture, as for every test that runs docker."""

from pathlib import Path

from testkit.containers import rendered


def test_kamailio_takes_the_carriers_and_dispatches_to_both_nodes(
    docker_engine: None, tmp_path: Path
) -> None:
    services = rendered(tmp_path, "compose.nodes.yml")
    one, two = services["asterisk"]["environment"], services["asterisk-n2"]["environment"]
    proxy = services["kamailio"]
    assert proxy["command"] == ["kamailio"] and proxy["network_mode"] == "host"
    assert proxy["environment"]["KAMAILIO_SIP_PORT"] == "5060"  # where the single Asterisk was
    assert proxy["environment"]["KAMAILIO_SIP_BIND"] == one["ASTERISK_SIP_BIND"]
    nodes = [f"127.0.0.1:{node['ASTERISK_SIP_PORT']}" for node in (one, two)]
    assert proxy["environment"]["KAMAILIO_NODES"] == ",".join(nodes)
    for node in ("asterisk", "bridge"):  # each node's Asterisk and bridge agree
        assert services[node]["environment"]["NODE_ID"] == "n1"
        assert services[f"{node}-n2"]["environment"]["NODE_ID"] == "n2"
    bridge_two = services["bridge-n2"]["environment"]
    for setting in ("ASTERISK_SIP_PORT", "ASTERISK_HTTP_PORT", "ASTERISK_AMI_PORT"):
        assert bridge_two[setting] == two[setting] != one[setting]
    assert bridge_two["BRIDGE_METRICS_PORT"] != services["bridge"]["environment"]["BRIDGE_METRICS_PORT"]
    assert int(one["ASTERISK_RTP_END"]) < int(two["ASTERISK_RTP_START"])
    assert one["ASTERISK_CARRIER_ADDRESSES"] == two["ASTERISK_CARRIER_ADDRESSES"] == one["ASTERISK_SIP_BIND"]
    volumes = [
        {v["source"] for v in services[name]["volumes"]} for name in ("asterisk", "asterisk-n2", "portal")
    ]
    assert all("recordings" in held for held in volumes)
