"""The call-flow tests clean up by deleting rows, not truncating every table: a truncate costs
about half a second a test here, the tests themselves milliseconds."""

from collections.abc import Iterator

import pytest

from testkit.databases import reset_state


@pytest.fixture(autouse=True)
def _clean_state() -> Iterator[None]:
    yield
    reset_state(quick=True)
