"""Every program a test needs that a fresh machine may lack (docker and its compose plugin, sipp,
Kamailio, Chromium, espeak-ng) comes from its one session fixture (tests/conftest.py over
testkit/tools.py), which the test asks for: whichever runs first installs it. A test that relied on
another having installed it passed only where that other ran first (issue 36: the compose check
failed with `unknown flag: --env-file` on a machine without the compose plugin)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from testkit.processes import REPO

TESTS = REPO / "tests"

# fixture -> the tests (path::name prefix) that run the program it provides
NEEDED_BY = {
    "docker_engine": ["tests/deploy/test_compose_nodes.py::", "tests/deploy/test_stack.py::"],
    "sipp_binary": [
        "tests/launcher/test_run_command.py::test_make_run_serves",
        "tests/launcher/test_run_command.py::test_make_run_with_nodes_2",
        "tests/asterisk/test_nodes.py::",
        "tests/deploy/test_stack.py::test_a_call_through_the_stack",
    ],
    "kamailio_binary": [
        "tests/launcher/test_run_command.py::test_make_run_with_nodes_2",
        "tests/asterisk/test_nodes.py::",
        "tests/launcher/test_lifecycle.py::test_ctrl_c_while_kamailio_starts",
    ],
    "chromium_binary": [
        "tests/web/test_e2e.py::",
        "tests/web/test_csp.py::",
        "tests/asterisk/test_browser_real_call.py::",
        "tests/asterisk/test_calls.py::test_customer_watches_and_hangs_up_a_real_call_in_the_browser",
    ],
    "mp3_tools": [
        "tests/api/test_ivr_prompts.py::test_an_mp3",
        "tests/api/test_ivr_prompts.py::test_a_file_that_cant",
        "tests/api/test_whisper.py::test_a_file_that_is_no_wav",
    ],
    "espeak_ng": [
        "tests/api/test_whisper.py::test_text_is_spoken",
        "tests/api/test_whisper.py::test_bad_input",
        "tests/api/test_whisper.py::test_another_customers_campaign",
        "tests/api/test_whisper.py::test_the_dry_run",
        "tests/api/test_access_matrix.py::test_spoken_whisper_route_access",
        "tests/bridge/call/test_talk.py::test_a_whisper",
        "tests/bridge/call/test_talk.py::test_a_whispered_call",
        "tests/bridge/call/test_talk.py::test_a_call_that_ends_during_the_whisper",
        "tests/asterisk/test_whisper.py::",
    ],
}


def test_each_test_running_an_installable_program_asks_for_its_fixture(
    server_url: str, tmp_path: Path
) -> None:
    files = sorted({prefix.split("::")[0] for prefixes in NEEDED_BY.values() for prefix in prefixes})
    out = tmp_path / "closure.json"
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "testkit.fixture_closure", *files],
        cwd=REPO,
        # This run's servers: a collection of its own must not start (and stop) embedded ones.
        env={
            **os.environ,
            "TEST_DATABASE_URL": server_url,
            "TEST_REDIS_URL": os.environ["REDIS_URL"],
            "FIXTURE_CLOSURE_OUT": str(out),
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    closure: dict[str, list[str]] = json.loads(out.read_text())
    missing = []
    for fixture, prefixes in NEEDED_BY.items():
        for prefix in prefixes:
            tests = [test for test in closure if test.startswith(prefix)]
            assert tests, f"no test matches {prefix}"
            missing += [(test, fixture) for test in tests if fixture not in closure[test]]
    assert missing == []


def test_no_test_looks_for_or_installs_a_program_itself() -> None:
    """Only the fixtures install (tests/conftest.py): a test that looked for a program on its own
    would pass or skip depending on which tests ran before it."""
    itself = re.compile(r"shutil\.which\(|ensure_host_tool\(|host_tool\(|ensure_engine\(|apt-get|/usr/bin/")
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in [*TESTS.rglob("*.py"), *TESTS.rglob("*.mjs")]
        if path != TESTS / "conftest.py" and path != Path(__file__)
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if itself.search(line)
    ]
    assert found == []
