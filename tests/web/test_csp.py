"""The built portal works under the API's Content-Security-Policy: signed in, page after page,
Chromium refuses nothing and MUI's injected styles apply."""

import json
import os
import subprocess

import pytest

from testkit.actors import PASSWORD, make_actor
from testkit.processes import REPO, api_server

pytestmark = pytest.mark.slow


def test_the_portal_runs_under_its_content_security_policy(chromium_binary: str) -> None:
    dist = REPO / "web" / "dist"
    if not (dist / "index.html").is_file():
        pytest.fail("web/dist is missing: `make test` builds it (make web)")
    admin = make_actor(1, "Ada Admin")
    with api_server(WEB_DIST=str(dist)) as base:
        run = subprocess.run(
            ["node", str(REPO / "tests" / "web" / "csp_check.mjs"), base, admin.email, PASSWORD],
            env={**os.environ, "CHROMIUM_PATH": chromium_binary},
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["refused"] == []
    assert len(seen["visited"]) == 8
    # The sign-in button is MUI's primary blue: emotion's <style> elements were applied.
    assert seen["button"] not in ("rgba(0, 0, 0, 0)", "rgb(239, 239, 239)")
