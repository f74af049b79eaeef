"""The bridge's trunks kept equal to PostgreSQL's with no pub/sub message at all (Redis was away
when the API saved them): each resync pushes what changed since it last looked, and only that."""

import logging

from core.infra.db import session_scope
from core.infra.names import trunk_failure_key
from core.models import Trunk
from core.pbx.ari import AriError
from pbx_bridge.trunks import TrunkSync
from testkit.rows import change, trunk
from tests.bridge.fakes import FakeAri


def _pushed(ari: FakeAri) -> list[str]:
    """The endpoints put since the last look, and forget them."""
    names = [r[2] for r in ari.made("put_config") if r[1] == "endpoint"]
    ari.requests.clear()
    return names


async def test_resync_pushes_new_and_changed_trunks_removes_deleted_ones_and_leaves_the_rest() -> None:
    ari = FakeAri()
    sync = TrunkSync(ari)
    first, second = trunk("carrier-a"), trunk("carrier-b")
    await sync.push_all()  # the bridge (re)connected
    assert sorted(_pushed(ari)) == [f"trunk-{first.id}", f"trunk-{second.id}"]

    await sync.resync()
    assert ari.requests == []  # nothing changed: nothing sent to Asterisk

    change(Trunk, second.id, port=5070)
    third = trunk("carrier-c")
    await sync.resync()
    assert sorted(_pushed(ari)) == [f"trunk-{second.id}", f"trunk-{third.id}"]

    change(Trunk, first.id, status="inactive")
    with session_scope() as s:
        s.delete(s.get(Trunk, third.id))
    await sync.resync()
    removed = {r[2] for r in ari.made("delete_config")}
    assert removed == {f"trunk-{first.id}", f"trunk-{third.id}"} and _pushed(ari) == []

    change(Trunk, second.id, failover_order=3)  # a change Asterisk's objects do not carry
    await sync.resync()
    assert ari.requests == []


class RefusingAri(FakeAri):
    """Asterisk refusing an AOR whose contact names a host it can't resolve."""

    async def put_config(self, object_type: str, object_id: str, fields: dict[str, str]) -> None:
        if "nowhere.invalid" in fields.get("contact", ""):
            raise AriError(400, '{"message":"Unable to create sorcery object"}')
        await super().put_config(object_type, object_id, fields)


async def test_a_refused_trunk_is_logged_once_per_change_and_shown_in_the_trunk_list(caplog) -> None:
    from core.infra.redis_client import async_redis, get_redis
    from portal_api.services.trunks import out

    redis = async_redis()
    sync = TrunkSync(RefusingAri(), redis)
    bad = trunk("carrier-x")
    change(Trunk, bad.id, host="nowhere.invalid")
    caplog.set_level(logging.INFO, logger="pbx_bridge.trunks")
    for _ in range(4):  # the bridge's resync, every TRUNK_RESYNC_SECONDS
        await sync.resync()
    lines = [r for r in caplog.records if r.name == "pbx_bridge.trunks"]
    assert [r.levelno for r in lines] == [logging.WARNING] and lines[0].exc_info is None
    assert f"trunk {bad.id} not loaded into Asterisk: ARI answered 400" in lines[0].getMessage()
    with session_scope() as s:
        shown = out(s.get(Trunk, bad.id)).endpoint_status
    assert shown and shown.startswith("Not loaded: ARI answered 400")

    caplog.clear()
    change(Trunk, bad.id, host="sip.example.net")
    await sync.resync()
    await sync.resync()
    assert [r.getMessage() for r in caplog.records if r.name == "pbx_bridge.trunks"] == [
        f"trunk {bad.id} loaded into Asterisk"
    ]
    assert get_redis().get(trunk_failure_key(bad.id)) is None
    await redis.aclose()
