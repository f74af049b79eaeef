"""Fast checks of config rendering, settings and mirror discovery (no Asterisk needed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asterisk_config import provision, runtime
from asterisk_config.chroot import PACKAGES, READY_MARKER, _missing_packages, discover_mirror
from asterisk_config.errors import ConfigError, Unavailable
from asterisk_config.render import render_config, render_text, write_config
from asterisk_config.settings import AsteriskSettings

BASE_ENV = {
    "ARI_USER": "ari_user",
    "ARI_PASSWORD": "ari-pass-1",
    "AMI_USER": "ami_user",
    "AMI_SECRET": "ami-secret-1",
    "ASTERISK_HTTP_PORT": "18088",
    "ASTERISK_AMI_PORT": "15038",
    "ASTERISK_SIP_PORT": "15060",
    "ASTERISK_RTP_START": "30000",
    "ASTERISK_RTP_END": "30100",
    "STASIS_APP": "routeapp",
}


def settings(**extra: str) -> AsteriskSettings:
    return AsteriskSettings.from_env({**BASE_ENV, **extra})


def test_renders_every_placeholder_and_the_env_values() -> None:
    files = render_config(settings())
    assert not any("{{" in text for text in files.values())
    assert "bindaddr = 127.0.0.1" in files["http.conf"]
    assert "bindport = 18088" in files["http.conf"]
    assert "[ari_user]" in files["ari.conf"] and "password = ari-pass-1" in files["ari.conf"]
    assert "port = 15038" in files["manager.conf"] and "bindaddr = 127.0.0.1" in files["manager.conf"]
    assert "secret = ami-secret-1" in files["manager.conf"]
    assert "bind = 127.0.0.1:15060" in files["pjsip.conf"]
    assert "rtpstart = 30000" in files["rtp.conf"] and "rtpend = 30100" in files["rtp.conf"]
    assert "Stasis(routeapp,${FILTER(0-9+,${EXTEN})}," in files["extensions.conf"]
    assert "exten => _X.," in files["extensions.conf"] and "exten => _+X.," in files["extensions.conf"]
    assert "MSet(CR_CAUSE=34," in files["extensions.conf"]  # the app away: refused as early media, 503
    assert "Playback(${CR_SOUND},noanswer)" in files["extensions.conf"]


def test_carrier_endpoint_matches_brief() -> None:
    pjsip = render_config(settings())["pjsip.conf"]
    for line in (
        "context = from-carrier",
        "send_connected_line = no",
        "direct_media = no",
        "allow = ulaw,alaw",
        "match = 127.0.0.1",
        "rtp_timeout = 120",  # a dead call (no RTP) ends: docs/bridge.md
    ):
        assert line in pjsip
    assert "rtp_timeout = 45" in render_config(settings(ASTERISK_RTP_TIMEOUT="45"))["pjsip.conf"]


def test_carriers_on_other_machines_reach_the_address_sip_is_bound_to() -> None:
    pjsip = render_config(
        settings(ASTERISK_SIP_BIND="10.0.0.5", ASTERISK_CARRIER_ADDRESSES="203.0.113.0/24, 198.51.100.7")
    )["pjsip.conf"]
    assert "bind = 10.0.0.5:15060" in pjsip
    assert "match = 203.0.113.0/24,198.51.100.7" in pjsip
    for bad in ({"ASTERISK_SIP_BIND": "carrier.example"}, {"ASTERISK_CARRIER_ADDRESSES": "10.0.0.300"}):
        with pytest.raises(ConfigError):
            settings(**bad)
    with pytest.raises(ConfigError, match="no carrier"):
        settings(ASTERISK_CARRIER_ADDRESSES=" , ")


def test_a_node_id_names_asterisk_so_every_linkedid_carries_it() -> None:
    assert "\nsystemname = n2\n" in render_config(settings(NODE_ID="n2"))["asterisk.conf"]
    assert "systemname =" not in render_config(settings())["asterisk.conf"]  # the only node


def test_without_postgres_no_channel_events_are_produced() -> None:
    files = render_config(settings())
    assert "cel_pgsql.conf" not in files
    assert "noload => cel_pgsql.so" in files["modules.conf"]
    assert "enable = no" in files["cel.conf"] and "enable = no" in files["cdr.conf"]


def test_postgres_dsn_sends_channel_events_to_postgres() -> None:
    files = render_config(settings(ASTERISK_PG_DSN="postgresql://cr:p%40ss@db.internal:6432/calls"))
    assert "load => cel_pgsql.so" in files["modules.conf"] and "enable = yes" in files["cel.conf"]
    cel = files["cel_pgsql.conf"]
    for line in ("hostname = db.internal", "port = 6432", "password = p@ss", "dbname = calls", "user = cr"):
        assert line in cel
    assert "LINKEDID_END" in files["cel.conf"]


def test_postgres_dsn_of_the_product_and_unix_sockets_are_understood() -> None:
    s = settings(ASTERISK_PG_DSN="postgresql+psycopg://postgres:@/callroute?host=/srv/pg/socket")
    assert s.pg is not None
    assert (s.pg.host, s.pg.dbname, s.pg.user) == ("/srv/pg/socket", "callroute", "postgres")
    assert "/srv/pg/socket" in runtime.bind_mounts(s)  # the socket must be reachable inside the chroot
    with pytest.raises(ConfigError):
        settings(ASTERISK_PG_DSN="mysql://a@b/c")


def test_postgres_single_vars_override_dsn() -> None:
    s = settings(ASTERISK_PG_DSN="postgresql://a:b@h1/d1", ASTERISK_PG_HOST="h2", ASTERISK_PG_PORT="7000")
    assert s.pg is not None
    assert (s.pg.host, s.pg.port, s.pg.dbname, s.pg.user, s.pg.password) == ("h2", 7000, "d1", "a", "b")
    assert settings(ASTERISK_PG_HOST="h2").pg is None  # dbname/user missing: not configured


@pytest.mark.parametrize("secret", ["has;semicolon", "line\nbreak", " padded", "[section]"])
def test_secrets_that_would_break_config_files_are_refused(secret: str) -> None:
    with pytest.raises(ConfigError):
        render_config(settings(ARI_PASSWORD=secret))


def test_missing_secrets_are_named() -> None:
    env = {k: v for k, v in BASE_ENV.items() if k not in ("AMI_SECRET", "ARI_PASSWORD")}
    with pytest.raises(ConfigError, match="ARI_PASSWORD, AMI_SECRET"):
        render_config(AsteriskSettings.from_env(env))


def test_bad_ports_are_refused() -> None:
    with pytest.raises(ConfigError):
        settings(ASTERISK_HTTP_PORT="http")
    with pytest.raises(ConfigError):
        settings(ASTERISK_RTP_START="30000", ASTERISK_RTP_END="20000")
    with pytest.raises(ConfigError):
        settings(ASTERISK_AMI_PORT="18088")
    with pytest.raises(ConfigError, match="ASTERISK_RTP_TIMEOUT"):
        settings(ASTERISK_RTP_TIMEOUT="0")


def test_unknown_placeholder_fails_loudly() -> None:
    with pytest.raises(ConfigError, match="TYPO"):
        render_text("x = {{ TYPO }}", {}, "x.conf")


def test_instances_get_separate_directories() -> None:
    default, other = settings(), settings(ASTERISK_INSTANCE="ci-1")
    assert default.etc_dir == "/etc/asterisk" and other.etc_dir == "/etc/asterisk-ci-1"
    assert default.run_dir != other.run_dir and default.db_dir != other.db_dir
    assert f"astetcdir => {other.etc_dir}" in render_config(other)["asterisk.conf"]


def test_host_path_never_escapes_the_chroot(tmp_path: Path) -> None:
    root = tmp_path / "chroot"
    (root / "var").mkdir(parents=True)
    (root / "var" / "run").symlink_to("/run")  # as in Debian
    s = settings(ASTERISK_CHROOT=str(root))
    with pytest.raises(ConfigError):
        s.host_path("/var/run/asterisk")
    assert s.host_path("/run/asterisk") == root.resolve() / "run" / "asterisk"


def test_write_config_replaces_foreign_files(tmp_path: Path) -> None:
    etc = tmp_path / "asterisk"
    etc.mkdir()
    (etc / "sip.conf").write_text("; package sample")
    written = write_config(settings(), etc)
    assert not (etc / "sip.conf").exists()
    assert (tmp_path / "asterisk.dist" / "sip.conf").exists()
    assert sorted(p.name for p in etc.iterdir()) == written
    assert oct((etc / "ari.conf").stat().st_mode & 0o777) == "0o600"


def test_discover_mirror_reads_deb822_and_one_line_sources(tmp_path: Path) -> None:
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\n# comment\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n"
        "Components: main\n\nTypes: deb\nURIs: http://archive.example/debian/\nSuites: bookworm\n"
    )
    assert discover_mirror((tmp_path / "sources.list.d",)) == "http://archive.example/debian"

    one_line = tmp_path / "sources.list"
    one_line.write_text(
        "# deb http://commented.example/debian bookworm main\n"
        "deb [arch=amd64 signed-by=/k.gpg] http://other.example/debian bookworm main\n"
    )
    assert discover_mirror((one_line,)) == "http://other.example/debian"


def test_discover_mirror_without_sources_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(Unavailable):
        discover_mirror((tmp_path / "missing.list",))


def test_cli_exits_3_when_not_root(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    for key, value in BASE_ENV.items():
        monkeypatch.setenv(key, value)
    assert provision.main(["start"]) == 3
    assert "needs root" in capsys.readouterr().err


def test_cli_exits_2_on_bad_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASTERISK_SIP_PORT", "not-a-port")
    assert provision.main(["status"]) == 2


def test_cli_render_writes_the_config_for_an_image_whose_asterisk_is_the_systems(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The container image renders into its own /etc/asterisk at start (ASTERISK_CHROOT=/); here the
    # root is a temporary folder. Without its secrets it refuses (2), writing nothing.
    monkeypatch.setenv("ASTERISK_CHROOT", str(tmp_path))
    monkeypatch.delenv("ARI_PASSWORD", raising=False)
    assert provision.main(["render"]) == 2
    assert not (tmp_path / "etc" / "asterisk").exists()
    for key, value in BASE_ENV.items():
        monkeypatch.setenv(key, value)
    assert provision.main(["render"]) == 0
    etc = tmp_path / "etc" / "asterisk"
    assert "password = ari-pass-1" in (etc / "ari.conf").read_text()
    assert "bindport = 18088" in (etc / "http.conf").read_text()
    assert (tmp_path / "var" / "spool" / "asterisk" / "recording").is_dir()


def test_a_chroot_built_before_a_package_joined_the_list_is_missing_only_that_one(tmp_path: Path) -> None:
    """The ready marker says what the chroot holds: one from before the list (no `packages=` line)
    held Asterisk alone, so espeak-ng (campaigns' whispers) is added in place; a new one lacks nothing."""
    (tmp_path / READY_MARKER).write_text("suite=sid\nasterisk=1:22.10.1\nbuilt=2026-11-26T07:34:11+0000\n")
    assert _missing_packages(tmp_path) == ["espeak-ng"]
    (tmp_path / READY_MARKER).write_text(f"suite=sid\npackages={','.join(PACKAGES)}\n")
    assert _missing_packages(tmp_path) == []
