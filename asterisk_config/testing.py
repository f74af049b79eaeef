"""Helpers for tests that need a real, private Asterisk.

A test instance gets random free loopback ports, random credentials and its
own instance directories in the shared chroot, so it never collides with a
developer's Asterisk or another test run.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import socket
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from asterisk_config import chroot, runtime
from asterisk_config.chroot import Log
from asterisk_config.settings import AsteriskSettings


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    """A port the kernel reports free on 127.0.0.1 for ``kind`` (TCP/UDP)."""
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_test_settings(base_env: Mapping[str, str] | None = None) -> AsteriskSettings:
    """Settings for a throw-away instance; only chroot, mirror and database come from ``base_env``."""
    base = os.environ if base_env is None else base_env
    tcp: set[int] = set()
    while len(tcp) < 2:
        tcp.add(free_port())
    http_port, ami_port = sorted(tcp)
    sip_port = free_port(socket.SOCK_DGRAM)
    while sip_port in tcp:
        sip_port = free_port(socket.SOCK_DGRAM)
    # RTP clashes are harmless (Asterisk skips busy ports); a random small
    # range keeps parallel runs apart anyway.
    rtp_start = random.randrange(20000, 29000, 2)
    env = {
        "ASTERISK_CHROOT": base.get("ASTERISK_CHROOT", ""),
        "ASTERISK_DEBIAN_MIRROR": base.get("ASTERISK_DEBIAN_MIRROR", ""),
        "ASTERISK_INSTANCE": f"test-{os.getpid()}-{secrets.token_hex(3)}",
        "ASTERISK_HTTP_PORT": str(http_port),
        "ASTERISK_AMI_PORT": str(ami_port),
        "ASTERISK_SIP_PORT": str(sip_port),
        "ASTERISK_RTP_START": str(rtp_start),
        "ASTERISK_RTP_END": str(rtp_start + 200),
        "ARI_USER": f"ari_{secrets.token_hex(4)}",
        "ARI_PASSWORD": secrets.token_urlsafe(24),
        "AMI_USER": f"ami_{secrets.token_hex(4)}",
        "AMI_SECRET": secrets.token_urlsafe(24),
        "STASIS_APP": base.get("STASIS_APP", "callroute"),
        # Asterisk writes its channel event log into the database of the product under test.
        "ASTERISK_PG_DSN": base.get("ASTERISK_PG_DSN") or base.get("DATABASE_URL", ""),
    }
    return AsteriskSettings.from_env(env)


@dataclass(frozen=True)
class AsteriskUnderTest:
    settings: AsteriskSettings
    process: runtime.AsteriskProcess

    @property
    def ari_auth(self) -> tuple[str, str]:
        return self.settings.ari_user, self.settings.ari_password

    def events_url(self, app: str | None = None) -> str:
        """ARI event websocket URL registering Stasis app ``app``."""
        s = self.settings
        api_key = quote(f"{s.ari_user}:{s.ari_password}", safe=":")
        return (
            f"ws://127.0.0.1:{s.http_port}/ari/events?app={quote(app or s.stasis_app)}"
            f"&api_key={api_key}&subscribeAll=false"
        )


@contextlib.contextmanager
def running_test_instance(
    settings: AsteriskSettings | None = None,
    log: Log = print,
    keep_logs_in: Path | None = None,
) -> Iterator[AsteriskUnderTest]:
    """Build the chroot if needed, start a private instance, stop and remove it after.

    Raises errors.Unavailable where Asterisk cannot run (not root, ...).
    """
    settings = settings or make_test_settings()
    chroot.build_chroot(settings, log)
    process = runtime.start(settings, log)
    try:
        yield AsteriskUnderTest(settings=settings, process=process)
    finally:
        runtime.stop(settings, log)
        log_dir = settings.host_path(settings.log_dir)
        if keep_logs_in is not None and log_dir.is_dir():
            shutil.copytree(log_dir, keep_logs_in, dirs_exist_ok=True)
            log(f"Asterisk logs kept in {keep_logs_in}")
        runtime.remove_instance(settings)
