"""A trunk's status on the trunk list: Asterisk qualifies each outbound trunk, the bridge reads the
result over AMI into Redis, the API lists it."""

import socket
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from asterisk_config import runtime
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import Trunk
from core.pbx.pbx_commands import announce_trunk_change
from pbx_bridge.trunk_status import contact_status_text
from pbx_bridge.trunks import trunk_of
from testkit.asterisk import AsteriskUnderTest, calls, running_bridge, seed_plan, wait_registered
from testkit.processes import free_port
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

CARRIER = {"direction": "outbound", "host": "127.0.0.1", "auth_type": "ip", "codecs": ["ulaw"]}


@pytest.mark.parametrize(
    ("status", "usec", "text"),
    [
        ("Reachable", "12345", "Reachable (12 ms)"),
        ("Reachable", "377", "Reachable (<1 ms)"),
        ("Reachable", "N/A", "Reachable"),
        ("Unreachable", "0", "Unreachable"),
        ("Unknown", "", "Unknown"),
        ("Created", "", "Unknown"),
        ("NonQualified", "", "Unknown"),
    ],
)
def test_status_text_says_whether_the_carrier_answers_and_how_fast(status, usec, text) -> None:
    assert contact_status_text(status, usec) == text


def test_only_portal_trunks_are_read_from_asterisk_names() -> None:
    assert [trunk_of(n) for n in ("trunk-12", "carrier", "trunk-", "trunk-x1", "mytrunk-3")] == [
        12,
        None,
        None,
        None,
        None,
    ]


@pytest.fixture(scope="module")
def bridge(
    request: pytest.FixtureRequest, asterisk: AsteriskUnderTest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """The bridge, with Asterisk qualifying every 2 s (a carrier going away shows within seconds)
    unless a test asks for another period."""
    log = tmp_path_factory.mktemp("bridge") / "bridge.log"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TRUNK_QUALIFY_SECONDS", str(getattr(request, "param", 2)))
        with running_bridge(asterisk, log):
            yield log


def listed_status(client, admin, trunk_id: int, wanted: Callable[[str | None], bool], bridge: Path) -> str:
    """The trunk's status on the trunk list once `wanted` accepts it (15 s at most)."""

    def accepted() -> tuple[str | None]:
        rows = client.get("/api/trunk/details?perpage=100", headers=admin.headers).json()["data"]["data"]
        status = next(r["endpoint_status"] for r in rows if r["id"] == trunk_id)
        assert wanted(status), f"status stuck at {status!r}\n{bridge.read_text()[-3000:]}"
        return (status,)  # truthy even when the status wanted is None

    return eventually(accepted, timeout=15, interval=0.3)[0]


def status_written(trunk_id: int, times: int) -> None:
    """Until the bridge has written the trunk's status `times` more times (each write restarts the
    key's expiry)."""
    key = names.trunk_status_key(trunk_id)
    seen = {"ttl": get_redis().pttl(key), "writes": 0}

    def written() -> bool:
        ttl = get_redis().pttl(key)
        seen["writes"] += ttl > seen["ttl"]
        seen["ttl"] = ttl
        return seen["writes"] >= times

    eventually(written, timeout=15, interval=0.1, what=f"{times} status writes")


def unqualified(ast: AsteriskUnderTest, trunk_id: int) -> bool:
    """Whether Asterisk has the trunk's AOR with qualify off."""
    url = f"{ast.settings.ari_base_url}/asterisk/config/dynamic/res_pjsip/aor/trunk-{trunk_id}"
    r = httpx.get(url, auth=ast.ari_auth, timeout=2)
    fields = {f["attribute"]: f["value"] for f in r.json()} if r.is_success else {}
    return fields.get("qualify_frequency") == "0"


def _add(client, admin, **fields) -> int:
    r = client.post("/api/trunk/add", json={**CARRIER, **fields}, headers=admin.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]["id"]


def _reachable(status: str | None) -> bool:
    return status is not None and status.startswith("Reachable (")


@pytest.mark.asterisk
def test_trunk_shows_reachable_while_the_carrier_answers_and_unreachable_once_it_stops(
    client, admin, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "options", tmp_path) as carrier:
        trunk_id = _add(client, admin, name="Carrier", port=carrier.port)
        assert _reachable(listed_status(client, admin, trunk_id, _reachable, bridge))
        assert "options=" in carrier.log.read_text()
    assert listed_status(client, admin, trunk_id, lambda s: s == "Unreachable", bridge) == "Unreachable"


@pytest.mark.asterisk
@pytest.mark.parametrize("bridge", [600], indirect=True)
def test_a_new_trunk_shows_its_status_within_seconds_however_long_the_qualify_period(
    client, admin, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    # Asterisk alone would first qualify the trunk at a random moment within the 10 minutes.
    with sipp_target(sipp_binary, "options", tmp_path) as carrier:
        trunk_id = _add(client, admin, name="Carrier", port=carrier.port)
        assert _reachable(listed_status(client, admin, trunk_id, _reachable, bridge))


@pytest.mark.asterisk
def test_deactivated_deleted_and_inbound_trunks_show_no_status(
    client, admin, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "options", tmp_path) as carrier:
        kept = _add(client, admin, name="Kept", port=carrier.port)
        dropped = _add(client, admin, name="Dropped", port=carrier.port)
        inbound = _add(client, admin, name="Inbound", direction="inbound", host="127.0.0.2")
        for trunk_id in (kept, dropped):
            listed_status(client, admin, trunk_id, _reachable, bridge)

        r = client.patch(f"/api/trunk/status/{dropped}", json={"status": "inactive"}, headers=admin.headers)
        assert r.status_code == 200
        assert listed_status(client, admin, dropped, lambda s: s is None, bridge) is None
        assert client.delete(f"/api/trunk/{dropped}", headers=admin.headers).status_code == 200
        assert get_redis().get(names.trunk_status_key(dropped)) is None

        # Several refreshes later (every 2 s here) the inbound trunk still has nothing to show.
        status_written(kept, times=2)
        assert _reachable(listed_status(client, admin, kept, _reachable, bridge))
        assert listed_status(client, admin, inbound, lambda s: True, bridge) is None


@pytest.mark.asterisk
def test_status_comes_back_after_asterisk_restarts_without_touching_the_bridge(
    client, admin, asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "options", tmp_path) as carrier:
        trunk_id = _add(client, admin, name="Carrier", port=carrier.port)
        listed_status(client, admin, trunk_id, _reachable, bridge)
        runtime.stop(asterisk.settings, lambda m: None)
        # What it says next must come from the new Asterisk.
        get_redis().delete(names.trunk_status_key(trunk_id))
        runtime.start(asterisk.settings, lambda m: None)
        wait_registered(asterisk, 30)
        assert _reachable(listed_status(client, admin, trunk_id, _reachable, bridge))


@pytest.mark.asterisk
async def test_a_call_skips_the_target_behind_an_unreachable_trunk(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    # Trunk ids start at 1 again in every test: the trunk-1 an earlier test left in Asterisk (pointing at
    # a sipp long gone, so unreachable too) must not stand in for ours.
    with session_scope() as s:
        s.execute(text("SELECT setval(pg_get_serial_sequence('trunk', 'id'), 9000)"))
    with sipp_target(sipp_binary, "answer", tmp_path) as up:
        nobody = free_port(socket.SOCK_DGRAM)  # the first priority's port: nobody listens
        plan = seed_plan([nobody, up.port], pushed_to=asterisk)
        eventually(
            lambda: get_redis().get(names.trunk_status_key(plan.trunks[0])) == "Unreachable",
            timeout=15,
            what=lambda: bridge.read_text()[-3000:],
        )
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1000)
    assert "final=SIP/2.0 200" in log
    (row,) = calls()
    dials = [(d["target_id"], d["status"]) for d in row.trail if d["step"] == "dial"]
    assert dials == [(plan.targets[0], "CHANUNAVAIL"), (plan.targets[1], "ANSWER")], row.trail


@pytest.mark.asterisk
async def test_a_carrier_ignoring_options_is_dialled_once_its_trunk_is_not_qualified(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with session_scope() as s:  # as above: no trunk-1 of an earlier test may stand in for ours
        s.execute(text("SELECT setval(pg_get_serial_sequence('trunk', 'id'), 9100)"))
    with sipp_target(sipp_binary, "answer", tmp_path, answers_options=False) as deaf:
        plan = seed_plan([deaf.port], pushed_to=asterisk)
        with session_scope() as s:
            trunk = s.get(Trunk, plan.trunks[0])
            assert trunk is not None
            trunk.qualify = False
            s.add(trunk)
        announce_trunk_change(plan.trunks[0])  # what saving the trunk in the portal does
        # Pushed again without qualify: Asterisk no longer sends it OPTIONS, so never finds it unreachable.
        eventually(partial(unqualified, asterisk, plan.trunks[0]), what="the trunk pushed without qualify")
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1000)
    assert "final=SIP/2.0 200" in log
    (row,) = calls()
    assert row.disposition == "ANSWERED" and row.target_id == plan.targets[0]
    # Not monitored: no status shown once the bridge's next refresh (every 2 s here) has dropped it.
    status = names.trunk_status_key(plan.trunks[0])
    eventually(lambda: get_redis().get(status) is None, what="no status shown")
