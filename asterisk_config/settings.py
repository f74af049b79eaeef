"""Settings for the project's Asterisk, as the product's one settings reader (core.infra.settings) reads
them: the same variables and the same defaults as the bridge and the portal.

Secrets (ARI/AMI credentials, database password) only ever come from the
environment; nothing secret is stored in the repository.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from pydantic import ValidationError

from asterisk_config.errors import ConfigError
from core.infra.settings import Settings, settings_from

DEFAULT_INSTANCE = Settings.model_fields["asterisk_instance"].default

# Names end up in file names, URLs (api_key=user:pass) and config section
# headers, so keep them to a boring character set.
_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
# Asterisk's config parser treats ';' as a comment start and line breaks as
# record ends; '[' / ']' could open a section when a value is unquoted.
_FORBIDDEN_SECRET_CHARS = set(";\r\n\x00[]")


@dataclass(frozen=True)
class PgSettings:
    """PostgreSQL connection Asterisk writes its channel event log (CEL) through."""

    host: str
    dbname: str
    user: str
    password: str = ""
    port: int = 5432


@dataclass(frozen=True)
class AsteriskSettings:
    chroot: Path
    # Several Asterisks may share one chroot (a developer's plus a test run);
    # each instance gets its own etc/run/log/spool/db directories.
    instance: str
    suite: str
    mirror: str | None
    http_port: int
    ami_port: int
    sip_port: int
    sip_bind: str
    carrier_addresses: tuple[str, ...]
    rtp_start: int
    rtp_end: int
    rtp_timeout: int  # seconds without a carrier's RTP before its call is hung up
    ari_user: str
    ari_password: str = field(repr=False)
    ami_user: str
    ami_secret: str = field(repr=False)
    stasis_app: str
    pg: PgSettings | None = field(repr=False)
    ari_timeout: float
    node_id: str  # starts every uniqueid (core.pbx.nodes); '' for the only node

    # -- construction -----------------------------------------------------

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AsteriskSettings:
        """This process's settings, or those `env` alone gives (for an instance about to start)."""
        try:
            s = Settings() if env is None else settings_from(env)
        except ValidationError as exc:
            bad = exc.errors()[0]
            name = str(bad["loc"][0]).upper() if bad["loc"] else "a setting"
            raise ConfigError(f"{name}={bad.get('input')!r}: {bad['msg']}") from None
        settings = cls(
            chroot=s.asterisk_chroot,
            instance=s.asterisk_instance,
            suite=s.asterisk_debian_suite,
            mirror=s.asterisk_debian_mirror or None,
            http_port=s.asterisk_http_port,
            ami_port=s.asterisk_ami_port,
            sip_port=s.asterisk_sip_port,
            sip_bind=s.asterisk_sip_bind,
            carrier_addresses=tuple(a.strip() for a in s.asterisk_carrier_addresses.split(",") if a.strip()),
            rtp_start=s.asterisk_rtp_start,
            rtp_end=s.asterisk_rtp_end,
            rtp_timeout=s.asterisk_rtp_timeout,
            ari_user=s.ari_user,
            ari_password=s.ari_password,
            ami_user=s.ami_user,
            ami_secret=s.ami_secret,
            stasis_app=s.stasis_app,
            pg=pg_from(s),
            ari_timeout=s.asterisk_start_timeout,
            node_id=s.node_id,
        )
        settings.validate_basic()
        return settings

    def with_(self, **changes: Any) -> AsteriskSettings:
        new = replace(self, **changes)
        new.validate_basic()
        return new

    # -- validation -------------------------------------------------------

    def validate_basic(self) -> None:
        """Checks that do not need secrets (enough for build/stop/status)."""
        if not self.chroot.is_absolute():
            raise ConfigError(f"ASTERISK_CHROOT must be an absolute path, got {self.chroot}")
        if not _NAME_RE.match(self.instance):
            raise ConfigError(f"ASTERISK_INSTANCE {self.instance!r} must match {_NAME_RE.pattern}")
        if not _NAME_RE.match(self.stasis_app):
            raise ConfigError(f"STASIS_APP {self.stasis_app!r} must match {_NAME_RE.pattern}")
        for name, port in (
            ("ASTERISK_HTTP_PORT", self.http_port),
            ("ASTERISK_AMI_PORT", self.ami_port),
            ("ASTERISK_SIP_PORT", self.sip_port),
            ("ASTERISK_RTP_START", self.rtp_start),
            ("ASTERISK_RTP_END", self.rtp_end),
        ):
            if not 1 <= port <= 65535:
                raise ConfigError(f"{name}={port} is not a valid port")
        if self.rtp_timeout < 1:
            raise ConfigError(f"ASTERISK_RTP_TIMEOUT={self.rtp_timeout}: a dead call must end (1 s or more)")
        try:
            ipaddress.ip_address(self.sip_bind)
            for address in self.carrier_addresses:
                ipaddress.ip_network(address, strict=False)
        except ValueError as exc:
            raise ConfigError(f"ASTERISK_SIP_BIND / ASTERISK_CARRIER_ADDRESSES: {exc}") from None
        if not self.carrier_addresses:
            raise ConfigError("ASTERISK_CARRIER_ADDRESSES names no address: no carrier could call in")
        if self.rtp_start >= self.rtp_end:
            raise ConfigError("ASTERISK_RTP_START must be below ASTERISK_RTP_END")
        if len({self.http_port, self.ami_port, self.sip_port}) != 3:
            raise ConfigError("HTTP, AMI and SIP ports must differ")

    def validate_secrets(self) -> None:
        """Checks needed before rendering configuration (start/run)."""
        missing = [
            name
            for name, value in (
                ("ARI_USER", self.ari_user),
                ("ARI_PASSWORD", self.ari_password),
                ("AMI_USER", self.ami_user),
                ("AMI_SECRET", self.ami_secret),
            )
            if not value
        ]
        if missing:
            raise ConfigError("missing environment variables: " + ", ".join(missing))
        for name, user in (("ARI_USER", self.ari_user), ("AMI_USER", self.ami_user)):
            if not _NAME_RE.match(user):
                raise ConfigError(f"{name} must match {_NAME_RE.pattern}")
        secrets = [("ARI_PASSWORD", self.ari_password), ("AMI_SECRET", self.ami_secret)]
        if self.pg is not None:
            secrets.append(("ASTERISK_PG_PASSWORD", self.pg.password))
        for name, secret in secrets:
            bad = _FORBIDDEN_SECRET_CHARS.intersection(secret)
            if bad or secret != secret.strip():
                raise ConfigError(
                    f"{name} contains characters Asterisk config files cannot carry "
                    "(';', '[', ']', line breaks, NUL, surrounding spaces)"
                )

    # -- paths inside the chroot ------------------------------------------

    def _suffix(self) -> str:
        return "" if self.instance == DEFAULT_INSTANCE else f"-{self.instance}"

    @property
    def etc_dir(self) -> str:
        return f"/etc/asterisk{self._suffix()}"

    @property
    def run_dir(self) -> str:
        # /run rather than /var/run: in Debian /var/run is an absolute symlink
        # to /run, which from outside the chroot would point at the host's /run.
        return f"/run/asterisk{self._suffix()}"

    @property
    def log_dir(self) -> str:
        return f"/var/log/asterisk{self._suffix()}"

    @property
    def spool_dir(self) -> str:
        return f"/var/spool/asterisk{self._suffix()}"

    @property
    def db_dir(self) -> str:
        return f"/var/lib/asterisk{self._suffix()}"

    @property
    def instance_dirs(self) -> tuple[str, ...]:
        # /var/lib/asterisk is always needed: it is astvarlibdir for everyone.
        return (
            self.etc_dir,
            self.run_dir,
            self.log_dir,
            self.spool_dir,
            f"{self.spool_dir}/recording",  # ARI's bridge recordings: Asterisk does not create it
            self.db_dir,
            "/var/lib/asterisk",
            "/var/lib/asterisk/keys",
        )

    @property
    def asterisk_conf(self) -> str:
        return f"{self.etc_dir}/asterisk.conf"

    def host_path(self, inner: str) -> Path:
        """Host path of ``inner`` (an absolute path inside the chroot).

        Refuses paths that escape the chroot through symlinks, so that host
        files are never written, mounted over or deleted by mistake.
        """
        if not inner.startswith("/"):
            raise ValueError(f"{inner!r} is not absolute")
        candidate = self.chroot / inner.lstrip("/")
        root = self.chroot.resolve()
        resolved = candidate.resolve()
        if resolved != root and root not in resolved.parents:
            raise ConfigError(f"{inner} inside the chroot resolves outside it ({resolved})")
        return resolved

    @property
    def pid_file(self) -> Path:
        return self.host_path(self.run_dir) / "provision.pid"

    @property
    def console_log(self) -> Path:
        """Asterisk's stdout/stderr (errors before its logger is up)."""
        return self.host_path(self.log_dir) / "console.log"

    @property
    def messages_log(self) -> Path:
        return self.host_path(self.log_dir) / "messages.log"

    @property
    def ari_base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/ari"


def pg_from(settings: Settings) -> PgSettings | None:
    """PostgreSQL settings from ASTERISK_PG_DSN (postgresql://user:pw@host:port/db, or
    postgresql://user@/db?host=/socket/dir; the product's DATABASE_URL by default) and/or
    ASTERISK_PG_HOST/PORT/DBNAME/USER/PASSWORD (which win over the DSN). A host starting with '/'
    is a Unix socket directory.

    Returns None unless host, dbname and user are all known: without them the
    pgsql modules are not loaded at all.
    """
    values: dict[str, str] = {}
    dsn = settings.cel_dsn.strip()
    if dsn:
        # The product's own DATABASE_URL may name its driver (postgresql+psycopg://); libpq does not.
        dsn = re.sub(r"^postgres(?:ql)?\+\w+://", "postgresql://", dsn)
        if not dsn.startswith(("postgres://", "postgresql://")):
            raise ConfigError("ASTERISK_PG_DSN must look like postgresql://user:password@host:port/dbname")
        try:
            parsed = conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise ConfigError(f"ASTERISK_PG_DSN is not a valid PostgreSQL URL: {exc}") from None
        values = {key: str(parsed.get(key) or "") for key in ("host", "port", "dbname", "user", "password")}
    for key in ("host", "port", "dbname", "user", "password"):
        override = str(getattr(settings, f"asterisk_pg_{key}"))
        if override:
            values[key] = override
    if not (values.get("host") and values.get("dbname") and values.get("user")):
        return None
    port_raw = values.get("port") or "5432"
    try:
        port = int(port_raw)
    except ValueError:
        raise ConfigError(f"PostgreSQL port {port_raw!r} is not an integer") from None
    for key in ("host", "dbname", "user"):
        if _FORBIDDEN_SECRET_CHARS.intersection(values[key]) or " " in values[key]:
            raise ConfigError(f"PostgreSQL {key} contains characters Asterisk config cannot carry")
    return PgSettings(
        host=values["host"],
        port=port,
        dbname=values["dbname"],
        user=values["user"],
        password=values.get("password", ""),
    )
