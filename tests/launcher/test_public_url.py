"""PUBLIC_URL: the address every link the product writes starts with (docs/security.md, "Links in
mails"); required in production, where a portal without it refuses to start and says why."""

import os
import subprocess

import pytest

from core.infra.settings import settings_from
from launcher.portal import portal_argv
from testkit.processes import REPO, free_port

SERVERS = {"DATABASE_URL": "postgresql://db.example/callroute", "REDIS_URL": "redis://redis.example/0"}


def test_production_needs_a_public_url_and_development_defaults_to_where_it_serves() -> None:
    with pytest.raises(ValueError, match="production mode needs PUBLIC_URL set"):
        settings_from({"ENVIRONMENT": "production", **SERVERS})
    given = settings_from(
        {"ENVIRONMENT": "production", "PUBLIC_URL": "https://portal.example.com/", **SERVERS}
    )
    assert given.portal_url == "https://portal.example.com"
    assert settings_from({}).portal_url == "http://127.0.0.1:8000"
    assert settings_from({"HOST": "0.0.0.0", "PORT": "8100"}).portal_url == "http://127.0.0.1:8100"
    assert settings_from({"HOST": "::1"}).portal_url == "http://[::1]:8000"


@pytest.mark.parametrize("bad", ["portal.example.com", "ftp://portal.example.com", "https://x.example/?a=1"])
def test_a_public_url_that_is_no_address_is_refused_with_the_setting_named(bad: str) -> None:
    with pytest.raises(ValueError, match=r"PUBLIC_URL: .* e\.g\. https://portal\.example\.com"):
        settings_from({"PUBLIC_URL": bad})


def test_a_production_portal_without_a_public_url_refuses_to_start_and_says_why() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PUBLIC_URL"}
    started = subprocess.run(
        portal_argv("127.0.0.1", free_port()),
        cwd=REPO,
        env={**env, "ENVIRONMENT": "production", **SERVERS},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode != 0
    assert "production mode needs PUBLIC_URL set" in started.stderr
