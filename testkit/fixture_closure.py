"""A pytest plugin for tests about the suite itself: `-p testkit.fixture_closure` with
FIXTURE_CLOSURE_OUT=<file> writes, at the end of collection, every collected test's id and the
fixtures it gets (pytest's own closure: those its fixtures ask for included) as JSON."""

import json
import os
from pathlib import Path

import pytest


def pytest_collection_finish(session: pytest.Session) -> None:
    out = os.environ.get("FIXTURE_CLOSURE_OUT")
    if out:
        closure = {item.nodeid: sorted(getattr(item, "fixturenames", ())) for item in session.items}
        Path(out).write_text(json.dumps(closure))
