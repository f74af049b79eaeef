"""Process settings, read from the environment (and an optional `.env`): the one reader and the one
set of defaults for every process, Asterisk's provisioning included (asterisk_config.settings)."""

import os
from collections.abc import Mapping
from functools import lru_cache
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]

Network = IPv4Network | IPv6Network


def parse_networks(value: str, setting: str = "OUTBOUND_ALLOW_NETWORKS") -> tuple[Network, ...]:
    """A list of CIDRs (or single addresses) separated by commas or spaces (OUTBOUND_ALLOW_NETWORKS,
    TRUSTED_PROXIES). Raises ValueError naming the setting and the entry that is no network."""
    networks: list[Network] = []
    for item in value.replace(",", " ").split():
        try:
            networks.append(ip_network(item, strict=True))
        except ValueError as exc:
            raise ValueError(f"{setting}: {item!r} is no network ({exc})") from None
    return tuple(networks)


def check_public_url(value: str) -> str:
    """PUBLIC_URL: an http(s) address with a host and nothing after its path. Raises ValueError."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(
            f"PUBLIC_URL: {value!r} is no address the portal can be reached at: write its "
            "scheme and host, e.g. https://portal.example.com"
        )
    return value.rstrip("/")


class Settings(BaseSettings):
    # An empty variable means "the default", as an unset one does.
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_ignore_empty=True)

    environment: Literal["development", "production"] = "development"
    # Empty means "start the embedded engine" (see launcher.embedded); production requires both.
    database_url: str = ""
    redis_url: str = ""
    data_dir: Path = REPO_ROOT / "var"
    web_dist: Path = REPO_ROOT / "web" / "dist"

    host: str = "127.0.0.1"
    port: int = 8000
    # The portal's processes (uvicorn workers) under `make run`; 0: one per CPU core. Each process
    # serves at most PORTAL_CONCURRENCY API requests at once (its database pool keeps 20 warm
    # connections) and lets at most PORTAL_QUEUE more wait, each up to PORTAL_QUEUE_SECONDS; past
    # that it answers 503 with Retry-After at once (portal_api.load_shedding): a bounded wait
    # instead of a queue that grows until every request times out.
    portal_workers: int = Field(default=0, ge=0, le=64)
    portal_concurrency: int = Field(default=20, ge=1)
    portal_queue: int = Field(default=100, ge=0)
    portal_queue_seconds: float = Field(default=2.0, gt=0)
    # The portal's address as its users reach it (https://portal.example.com): every link the
    # product writes (a mailed reset or sign-up link) starts with it, never with what a request
    # says its host is. Required in production; in development the address HOST and PORT serve.
    public_url: str = ""
    # The reverse proxies (CIDRs, comma-separated) whose X-Forwarded-For is believed: a request
    # from one of them is from the right-most address of that header that is not one of them
    # (portal_api/client_address.py). Empty: nobody's; the client is the connection's peer.
    trusted_proxies: str = ""

    admin_email: str = ""
    admin_password: str = ""
    # Outgoing mail (password resets), sent by the workers: smtp://user:password@host:587 (STARTTLS)
    # or smtps://...:465. Empty: no mail; a forgotten password is reset by an administrator.
    smtp_url: str = ""
    mail_from: str = "Callroute <no-reply@callroute.local>"

    session_hours: int = 24 * 7
    login_max_failures_per_account: int = 5
    login_max_failures_per_address: int = 20
    login_window_seconds: int = 15 * 60
    # An impersonation token lives this long from its last use (docs/security.md).
    impersonation_minutes: int = Field(default=60, ge=1)
    # How often an open live-call WebSocket checks that its token still works (besides every message).
    live_token_check_seconds: float = Field(default=5, gt=0)
    signup_max_per_address: int = Field(default=5, ge=1)
    signup_window_seconds: int = Field(default=3600, ge=1)
    # The website script's public endpoints (docs/attribution.md): requests a minute per client
    # address, and per customer's script key (all its visitors together).
    dni_max_per_address: int = Field(default=120, ge=1)
    dni_max_per_key: int = Field(default=6000, ge=1)
    # Who may sign up (docs/security.md, "Sign-up"): `confirm` by a mailed link (needs SMTP_URL),
    # `instant` (signed in at once; a taken address is a 409), `closed` (administrators add
    # customers). Unset: `confirm` with mail, else `instant` in development and `closed` in production.
    signup_mode: Literal["confirm", "instant", "closed"] | None = None
    # Strict-Transport-Security's max-age on answers to HTTPS requests (docs/security.md, "HTTPS");
    # 0 sends none. Set it where the portal is served over TLS (deploy/ sets a year).
    hsts_seconds: int = Field(default=0, ge=0)
    max_body_bytes: int = 1_000_000
    max_upload_bytes: int = 10_000_000
    # Numbers per uploaded CSV file (POST /number/vcr): more is refused whole, with this figure.
    max_upload_rows: int = Field(default=100_000, ge=1)

    # Internal networks (CIDRs, comma-separated) that customers' webhook and bidding URLs may
    # reach all the same (docs/security.md, "Requests to customers' URLs"); any other address that
    # is not public (loopback, private, link-local, ...) is refused. Empty: none.
    outbound_allow_networks: str = ""

    low_balance_threshold: float = Field(default=50)

    # Months of calls kept in the database besides the current one; older months are archived to
    # files in CALL_ARCHIVE_DIR (default DATA_DIR/call-archive) and dropped. 0 keeps every call
    # (docs/reports.md, "Retention").
    call_retention_months: int = Field(default=0, ge=0)
    call_archive_dir: Path | None = None

    # `off`: `make run` starts neither Asterisk nor the bridge.
    callroute_asterisk: Literal["on", "off"] = "on"
    # Asterisk runs from a Debian chroot built once (asterisk_config/README.md); several instances
    # (a developer's, a test run's) may share it, each with its own directories.
    asterisk_chroot: Path = Path("/var/cache/callroute/asterisk-sid")
    asterisk_instance: str = "default"
    asterisk_debian_suite: str = "sid"
    asterisk_debian_mirror: str = ""
    asterisk_start_timeout: float = 60
    asterisk_sip_port: int = 5060
    # Where carriers reach Asterisk's SIP, and the source addresses (IPs or CIDRs) its calls come from:
    # loopback for one machine; a public address and the carriers' for a real deployment.
    asterisk_sip_bind: str = "127.0.0.1"
    asterisk_carrier_addresses: str = "127.0.0.1"
    asterisk_rtp_start: int = 10000
    asterisk_rtp_end: int = 20000
    # Seconds without RTP from a carrier before Asterisk hangs its call up: a call whose BYE was lost
    # (or whose carrier died) would otherwise stay up, its row open and its credit held, for ever.
    asterisk_rtp_timeout: int = 120
    # Asterisk REST Interface, bound to loopback (asterisk_config renders the same values).
    asterisk_http_port: int = 8088
    ari_user: str = "callroute"
    ari_password: str = ""
    stasis_app: str = "callroute"
    # Asterisk Manager Interface, on loopback too: the bridge reads trunk reachability from it.
    asterisk_ami_port: int = 5038
    ami_user: str = "callroute"
    ami_secret: str = ""
    # The database Asterisk writes its record of every call (CEL) into: the product's unless named
    # (a DSN, each part overridable by ASTERISK_PG_HOST/PORT/DBNAME/USER/PASSWORD).
    asterisk_pg_dsn: str = ""
    asterisk_pg_host: str = ""
    asterisk_pg_port: str = ""
    asterisk_pg_dbname: str = ""
    asterisk_pg_user: str = ""
    asterisk_pg_password: str = ""
    # Where Asterisk's recordings are as files, when the portal shares that folder with it (a volume
    # in deploy/compose.yml, where the portal cannot reach Asterisk's loopback ARI): the portal
    # streams them from there. Unset: over ARI, from the Asterisk beside it.
    recordings_dir: Path | None = None
    # Where the bridge writes whispers' audio for its Asterisk, as the bridge sees the folder
    # Asterisk plays them from (core.infra.names.WHISPER_SOUNDS): a volume both share in deploy/compose.yml.
    # Unset: that folder inside the Asterisk chroot.
    whisper_dir: Path | None = None
    # How often Asterisk sends OPTIONS to each outbound trunk: the trunk list's status is this fresh.
    trunk_qualify_seconds: int = Field(default=30, ge=1)
    # How often the bridge compares Asterisk's trunks with PostgreSQL's (a change announced while
    # Redis was away reaches Asterisk within this); one small query when nothing changed.
    trunk_resync_seconds: float = Field(default=5, gt=0)

    # Transcription of recorded calls (docs/conversation.md): the engine, and for faster-whisper the
    # model folder the operator provides (CTranslate2 format) and its device. The bundled engine,
    # pocketsphinx, is US English only and needs nothing else.
    transcribe_engine: Literal["pocketsphinx", "faster-whisper"] = "pocketsphinx"
    transcribe_model_dir: Path | None = None
    transcribe_device: Literal["auto", "cpu", "cuda"] = "auto"

    # Logs: JSON lines or text; unset, JSON in production and text in development.
    log_format: Literal["json", "text"] | None = None
    # Prometheus metrics and health checks of the bridge and the Celery worker (the portal serves
    # its own on its HTTP port). docs/operations.md lists them.
    # Loopback unless set: only what runs on this machine reads them (deploy/ sets 0.0.0.0 where
    # Prometheus scrapes from another container).
    bridge_metrics_host: str = "127.0.0.1"
    bridge_metrics_port: int = 9101
    worker_metrics_host: str = "127.0.0.1"
    worker_metrics_port: int = 9102
    transcriber_metrics_port: int = 9103  # the transcription worker's (docs/conversation.md)
    # Set (in the environment, which prometheus_client reads too) when the portal runs several
    # worker processes: each writes its metrics there and /metrics adds them up.
    prometheus_multiproc_dir: str = ""

    # Several nodes (one Asterisk + one bridge each) behind Kamailio (docs/scale.md). Each node's
    # id starts its Asterisk's uniqueids, so every call's linkedid, on its row and in CEL, names
    # the node that holds it. Empty: the only node, which answers for every call.
    node_id: str = Field(default="", pattern=r"^[A-Za-z0-9_]{0,32}$")
    # A node with an id says it is up every NODE_BEAT_SECONDS (core.pbx.node_registry), with the address
    # the portal reaches its Asterisk's ARI at (for its recordings); one unheard of for
    # NODE_GONE_SECONDS is gone for good: the other nodes complete its open calls.
    node_address: str = "127.0.0.1"
    # `make run` only: how many nodes to start on this machine, behind Kamailio when more than one
    # (launcher.nodes gives each its id, instance and ports).
    nodes: int = Field(default=1, ge=1, le=9)
    node_beat_seconds: float = Field(default=5, gt=0)
    # PostgreSQL away (docs/scale.md, "PostgreSQL away"): the bridge routes from what it last read
    # for up to OUTAGE_ROUTE_SECONDS, keeping its rows and credit holds in a journal of at most
    # OUTAGE_JOURNAL_BYTES under OUTAGE_JOURNAL_DIR (DATA_DIR/journal unless set), written to the
    # database when it answers again. Past either bound, new calls are refused as before.
    outage_route_seconds: float = Field(default=900, ge=0)
    outage_journal_bytes: int = Field(default=64 * 1024 * 1024, ge=0)
    outage_journal_dir: Path | None = None
    node_gone_seconds: float = Field(default=300, gt=0)
    # Kamailio, the one address carriers send to (asterisk_config/kamailio): where it listens,
    # the nodes' SIP addresses it dispatches to ("host:port", comma-separated), how often it
    # probes them with OPTIONS, and its flood guard (pike: requests per source per window).
    kamailio_sip_port: int = 5060
    kamailio_sip_bind: str = "127.0.0.1"  # the address carriers send to (the host's, for carriers elsewhere)
    kamailio_nodes: str = ""
    kamailio_probe_seconds: int = Field(default=2, ge=1)
    kamailio_flood_requests: int = Field(default=200, ge=1)
    kamailio_flood_seconds: int = Field(default=2, ge=1)

    @field_validator("outbound_allow_networks")
    @classmethod
    def _networks(cls, value: str) -> str:
        parse_networks(value)
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        parse_networks(value, "TRUSTED_PROXIES")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str) -> str:
        return check_public_url(value) if value else value

    @model_validator(mode="after")
    def _production_needs_real_services(self) -> "Settings":
        if self.environment == "production":
            missing = [n for n in ("database_url", "redis_url") if not getattr(self, n)]
            if missing:
                raise ValueError(f"production mode needs {', '.join(m.upper() for m in missing)} set")
            if not self.public_url:
                raise ValueError(
                    "production mode needs PUBLIC_URL set: the portal's address as its users reach "
                    "it (e.g. https://portal.example.com), which mailed links start with"
                )
        if self.signup_mode == "confirm" and not self.smtp_url:
            raise ValueError("SIGNUP_MODE=confirm needs SMTP_URL set (the link is mailed)")
        return self

    @property
    def signup(self) -> Literal["confirm", "instant", "closed"]:
        if self.signup_mode:
            return self.signup_mode
        if self.smtp_url:
            return "confirm"
        return "closed" if self.environment == "production" else "instant"

    @property
    def outbound_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.outbound_allow_networks)

    @property
    def proxy_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies, "TRUSTED_PROXIES")

    @property
    def portal_processes(self) -> int:
        """PORTAL_WORKERS, or one process per CPU core when it is 0."""
        return self.portal_workers or os.cpu_count() or 1

    @property
    def portal_url(self) -> str:
        """Where links point: PUBLIC_URL, else (development) the address `make run` serves."""
        if self.public_url:
            return self.public_url
        host = self.host if self.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def logs_as_json(self) -> bool:
        return (self.log_format or ("json" if self.environment == "production" else "text")) == "json"

    @property
    def cel_dsn(self) -> str:
        return self.asterisk_pg_dsn or self.database_url

    @property
    def sqlalchemy_url(self) -> str:
        """The URL with the psycopg 3 driver named, whatever scheme the operator wrote."""
        url = self.database_url
        for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix) :]
        return url


@lru_cache
def get_settings() -> Settings:
    return Settings()


class _GivenSettings(Settings):
    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def settings_from(env: Mapping[str, str]) -> Settings:
    """The settings `env` gives (variable names as in the environment), with the same defaults,
    ignoring this process's own environment and `.env`: for a process about to be started with
    `env`, or a test."""
    given: dict[str, Any] = {name.lower(): value for name, value in env.items() if value != ""}
    return _GivenSettings(**given)  # strings, parsed and checked as the environment's are
