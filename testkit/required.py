"""Tests that need what a machine may lack (root, Asterisk's chroot, sipp, docker): skipped where it
cannot run, but ASTERISK_TESTS_REQUIRED=1 (CI on a capable machine) turns that skip into a failure."""

import os
from typing import NoReturn

import pytest


def unavailable(what: str, reason: str) -> NoReturn:
    if os.environ.get("ASTERISK_TESTS_REQUIRED") == "1":
        pytest.fail(f"{what} not available but ASTERISK_TESTS_REQUIRED=1: {reason}")
    pytest.skip(f"{what} not available on this machine: {reason}")
