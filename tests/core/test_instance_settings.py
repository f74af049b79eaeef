"""The README's "Two instances on one machine" names every port, directory and instance setting the
product has, each one settable through core/infra/settings.py; the example second instance it gives
shares no port and no directory with the first."""

import re

from asterisk_config.settings import AsteriskSettings
from core.infra.settings import REPO_ROOT, Settings, settings_from

# Settings that hold something on the machine, by their shape: ports, port ranges, directories,
# the instance name, the engines' addresses.
HELD = re.compile(r"(^port$|_port$|_dir$|_instance$|^asterisk_rtp_(start|end)$|^database_url$|^redis_url$)")
# Covered by the row of their DSN: they override its parts one by one.
PARTS_OF = {
    f"asterisk_pg_{part}": "asterisk_pg_dsn" for part in ("host", "port", "dbname", "user", "password")
}
SHARED = {"asterisk_chroot"}  # one chroot, each instance its own directories in it


def _section() -> str:
    readme = (REPO_ROOT / "README.md").read_text()
    return readme.split("## Two instances on one machine", 1)[1].split("\n## ", 1)[0]


def _rows() -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in _section().splitlines()
        if line.startswith("| `")
    ]


def test_the_readme_lists_every_setting_an_instance_holds_on_the_machine() -> None:
    named = {var.lower() for row in _rows() for var in re.findall(r"`([A-Z_]+)`", row[0])}
    assert named <= set(Settings.model_fields), "each variable listed is read by core/infra/settings.py"
    held = {name for name in Settings.model_fields if HELD.search(name)}
    missing = {name for name in held - named if PARTS_OF.get(name) not in named} - SHARED
    assert missing == set()
    for name in SHARED:
        assert f"`{name.upper()}`" in _section()


def test_the_example_second_instance_collides_with_the_first_nowhere() -> None:
    """The table's example column, as the second instance's environment."""
    second = {"DATA_DIR": "/tmp/callroute/var-2", "ASTERISK_INSTANCE": "second"}
    for row in _rows():
        variables = re.findall(r"`([A-Z_]+)`", row[0])
        numbers = re.findall(r"\d+", row[3])
        if re.fullmatch(r"([A-Z_]+_)?PORT", variables[0]):
            second[variables[0]] = numbers[0]
        elif variables[0] == "ASTERISK_RTP_START":
            second["ASTERISK_RTP_START"], second["ASTERISK_RTP_END"] = numbers
    assert len(second) == 12
    first_s, second_s = settings_from({}), settings_from(second)
    first, other = AsteriskSettings.from_env({}), AsteriskSettings.from_env(second)

    def ports(s: Settings, a: AsteriskSettings) -> set[int]:
        held = {s.port, s.bridge_metrics_port, s.worker_metrics_port, s.transcriber_metrics_port}
        held.add(s.kamailio_sip_port)
        return held | {a.sip_port, a.http_port, a.ami_port, *range(a.rtp_start, a.rtp_end + 1)}

    assert ports(first_s, first).isdisjoint(ports(second_s, other))
    assert first_s.data_dir != second_s.data_dir
    for folder in ("etc_dir", "run_dir", "log_dir", "spool_dir", "db_dir"):
        assert getattr(first, folder) != getattr(other, folder)
