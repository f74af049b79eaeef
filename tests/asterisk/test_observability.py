"""The bridge as Prometheus and an orchestrator see it after real calls: /metrics counts each call by
its row's disposition, /health answers, and its JSON log names the call on each line about one."""

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from testkit.asterisk import AsteriskUnderTest, calls, running_bridge, seed_plan
from testkit.processes import free_port
from testkit.prometheus import sample
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk
NOT_OURS = "+442079460000"  # a number the platform does not have: refused, not routed


@pytest.fixture(scope="module")
def observed(
    asterisk: AsteriskUnderTest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """A bridge logging JSON lines, and where its metrics and health are served."""
    log = tmp_path_factory.mktemp("bridge") / "bridge.log"
    port = free_port()
    with running_bridge(asterisk, log, metrics_port=port, LOG_FORMAT="json"):
        yield f"http://127.0.0.1:{port}", log


async def test_bridge_counts_real_calls_by_disposition_and_logs_them_as_json(
    asterisk: AsteriskUnderTest, sipp_binary: str, observed: tuple[str, Path], tmp_path: Path
) -> None:
    base, log = observed
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=500)
        await call(sipp_binary, asterisk, NOT_OURS, CALLER, tmp_path, talk_ms=500)
    finished = calls(2)
    by_disposition = Counter(row.disposition for row in finished)
    assert set(by_disposition) == {"ANSWERED", "NO_ROUTE"}, [r.trail for r in finished]

    def counted() -> str:
        page = httpx.get(f"{base}/metrics", timeout=5).text
        for disposition, n in by_disposition.items():
            assert sample(page, "callroute_calls_total", disposition=disposition) == n, page
        return page

    page = eventually(counted, what="the bridge's /metrics counting both calls")
    assert (sample(page, "callroute_routing_decision_seconds_count") or 0) >= 2
    assert sample(page, "callroute_calls_in_progress") == 0
    assert sample(page, "callroute_ari_connected") == 1
    assert httpx.get(f"{base}/health/live", timeout=5).status_code == 200
    ready = httpx.get(f"{base}/health/ready", timeout=5)
    assert (ready.status_code, ready.json()["checks"]) == (200, {"ari": "ok"})

    lines = [json.loads(line) for line in log.read_text().splitlines()]  # every line is JSON
    ended = {
        line.get("linkedid"): line["message"] for line in lines if line["message"].startswith("call ended")
    }
    assert ended == {row.linkedid: f"call ended: {row.disposition}" for row in finished}


def test_asterisk_serves_its_own_metrics(asterisk: AsteriskUnderTest) -> None:
    page = httpx.get(f"http://127.0.0.1:{asterisk.settings.http_port}/metrics", timeout=5)
    assert page.status_code == 200
    up = re.search(r"^asterisk_core_uptime_seconds\{[^}]*\} (\d+)", page.text, re.MULTILINE)
    assert up and int(up[1]) > 0 and "asterisk_channels_count{" in page.text, page.text[:2000]
