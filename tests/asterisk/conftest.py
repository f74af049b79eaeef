"""Fixtures for tests against a real Asterisk 22 (Debian sid chroot).

The session fixture builds the cached chroot if needed (~1 min, once per
machine), then starts a private Asterisk instance on random free loopback
ports with random credentials (testkit.asterisk), so it never
collides with a developer's Asterisk or another test run.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from asterisk_config.errors import Unavailable
from core.infra.db import session_scope
from core.models import Call
from testkit.asterisk import AsteriskUnderTest, running_bridge, running_test_instance
from testkit.nodes import Cluster, running_cluster
from testkit.required import unavailable


@pytest.fixture(scope="session")
def asterisk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AsteriskUnderTest]:
    if os.geteuid() != 0:
        unavailable("Asterisk", "tests need root (chroot + bind mounts)")
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        try:
            instance = stack.enter_context(
                running_test_instance(keep_logs_in=tmp_path_factory.mktemp("asterisk-logs"))
            )
        except Unavailable as exc:
            unavailable("Asterisk", str(exc))
        print(f"Asterisk {instance.process.version} ready after {time.monotonic() - started:.1f} s")
        yield instance


@pytest.fixture(scope="module")
def bridge(asterisk: AsteriskUnderTest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The bridge, shared by a module's calls; its log's path."""
    log = tmp_path_factory.mktemp("bridge") / "bridge.log"
    with running_bridge(asterisk, log):
        yield log


@pytest.fixture(scope="module")
def cluster(
    sipp_binary: str, kamailio_binary: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    """Two nodes (Asterisk + bridge, ids n1 and n2) behind Kamailio, shared by a module's calls."""
    if os.geteuid() != 0:
        unavailable("Asterisk", "tests need root (chroot + bind mounts)")
    try:
        with running_cluster(2, tmp_path_factory.mktemp("cluster")) as running:
            yield running
    except Unavailable as exc:
        unavailable("Asterisk", str(exc))


@pytest.fixture(autouse=True)
def _every_call_says_why_it_ended() -> Iterator[None]:
    """Every call a test made, once over, has its Q.850 cause and who ended it on its row (checked
    here, before the state is cleaned, so no test can forget it)."""
    yield
    with session_scope() as s:
        ended = s.exec(select(Call).where(Call.ended_at.is_not(None))).all()
        unsaid = [(c.disposition, c.hangup_cause, c.hangup_by, c.trail) for c in ended]
    assert [u for u in unsaid if u[1] is None or u[2] is None] == []
