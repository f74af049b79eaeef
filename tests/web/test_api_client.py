"""The web's API client is what the API publishes: web/openapi.json is the API's document as the code
builds it, and web/src/client is what the generator makes of it. A route or schema changed without
`make client` fails here, naming the command."""

import filecmp
import os
import subprocess
import tempfile
from pathlib import Path

from portal_api.openapi_export import document
from testkit.processes import REPO

WEB = REPO / "web"
STALE = "stale: run `make client` and commit web/openapi.json and web/src/client"


def _differences(left: Path, right: Path) -> list[str]:
    compared = filecmp.dircmp(left, right)
    found = [str(Path(left.name) / name) for name in compared.left_only + compared.right_only + compared.diff_files]
    for name in compared.common_dirs:
        found += _differences(left / name, right / name)
    return found


def test_the_checked_in_openapi_document_is_the_apis() -> None:
    assert (WEB / "openapi.json").read_text(encoding="utf-8") == document(), f"web/openapi.json is {STALE}"


def test_the_checked_in_client_is_generated_from_that_document() -> None:
    # Generated inside web/, so the generator's Prettier pass finds the web's settings.
    with tempfile.TemporaryDirectory(dir=WEB, prefix=".client-check-") as scratch:
        out = Path(scratch) / "client"
        _generate(out)
        assert _differences(WEB / "src" / "client", out) == [], f"web/src/client is {STALE}"


def _generate(out: Path) -> None:
    run = subprocess.run(
        ["npx", "--no-install", "openapi-ts"],
        cwd=WEB,
        env={**os.environ, "CLIENT_OUT": str(out)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
