"""The portal in Chromium against the real API: web/e2e/run.mjs drives it (playwright-core).

The API is started here on a free port serving the built UI (web/dist), with an admin, a
customer and the customer's buyer to sign in as.
"""

import os
import subprocess
from collections.abc import Iterator

import pytest

from testkit.actors import PASSWORD, make_actor
from testkit.processes import REPO, api_server

pytestmark = pytest.mark.slow
WEB = REPO / "web"


@pytest.fixture
def portal() -> Iterator[str]:
    if not (WEB / "dist" / "index.html").is_file():
        pytest.fail("web/dist is missing: `make test` builds it (make web)")
    with api_server(WEB_DIST=str(WEB / "dist")) as base:
        yield base


def test_portal_in_chromium(portal: str, chromium_binary: str) -> None:
    make_actor(1, "Ada Admin")
    customer = make_actor(2, "Alice Customer", timezone="Europe/Berlin")
    make_actor(3, "Bea Buyer", owner=customer)
    env = {
        **os.environ,
        "BASE_URL": portal,
        "CHROMIUM_PATH": chromium_binary,
        "ADMIN_EMAIL": "ada.admin@example.com",
        "ADMIN_PASSWORD": PASSWORD,
        "CUSTOMER_EMAIL": customer.email,
        "CUSTOMER_PASSWORD": PASSWORD,
        "CUSTOMER_NAME": "Alice Customer",
        "BUYER_EMAIL": "bea.buyer@example.com",
        "BUYER_PASSWORD": PASSWORD,
    }
    # About 8 minutes on a 2-core machine busy with other suites (one scenario imports 100,000 rates).
    run = subprocess.run(
        ["npm", "run", "--silent", "e2e"], cwd=WEB, env=env, capture_output=True, text=True, timeout=1200
    )
    print(run.stdout[-6000:], run.stderr[-3000:])
    assert run.returncode == 0, f"browser tests failed:\n{run.stdout[-6000:]}\n{run.stderr[-3000:]}"
