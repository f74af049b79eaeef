"""Process settings, read from the environment (and an optional `.env`): the one reader and the one
set of defaults for every process, Asterisk's provisioning included (asterisk_config.settings)."""

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


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
    max_body_bytes: int = 1_000_000
    max_upload_bytes: int = 10_000_000
    # Numbers per uploaded CSV file (POST /number/vcr): more is refused whole, with this figure.
    max_upload_rows: int = Field(default=100_000, ge=1)

    low_balance_threshold: float = Field(default=50)

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
    asterisk_rtp_start: int = 10000
    asterisk_rtp_end: int = 20000
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
    # How often Asterisk sends OPTIONS to each outbound trunk: the trunk list's status is this fresh.
    trunk_qualify_seconds: int = Field(default=30, ge=1)

    @model_validator(mode="after")
    def _production_needs_real_services(self) -> "Settings":
        if self.environment == "production":
            missing = [n for n in ("database_url", "redis_url") if not getattr(self, n)]
            if missing:
                raise ValueError(f"production mode needs {', '.join(m.upper() for m in missing)} set")
        return self

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
