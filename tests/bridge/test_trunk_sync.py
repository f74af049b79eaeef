"""The bridge's trunks kept equal to PostgreSQL's with no pub/sub message at all (Redis was away
when the API saved them): each resync pushes what changed since it last looked, and only that."""

from core.db import session_scope
from core.models import Trunk
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
