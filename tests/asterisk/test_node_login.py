"""Each node's own ARI login (asterisk_config.node_login): generated when the node's Asterisk is
provisioned, stored for its bridge and the portal, and replaced at the next provisioning, after
which the old one is refused. A running node is asked about with the login it runs with."""

from collections.abc import Iterator

import httpx
import pytest

from asterisk_config import chroot, runtime
from asterisk_config.errors import Unavailable
from asterisk_config.provision import with_node_login
from asterisk_config.settings import AsteriskSettings
from core.infra.settings import get_settings
from core.pbx.ari import AriAddress
from core.pbx.node_registry import AriLogin, ari_login
from testkit.asterisk import make_test_settings
from testkit.required import unavailable

pytestmark = pytest.mark.asterisk


def answers(settings: AsteriskSettings, user: str, password: str) -> int:
    return httpx.get(f"{settings.ari_base_url}/asterisk/info", auth=(user, password), timeout=5).status_code


@pytest.fixture
def node() -> Iterator[AsteriskSettings]:
    """A node's settings as its environment gives them (ARI_USER/ARI_PASSWORD of the platform's),
    its instance stopped and removed after."""
    settings = make_test_settings(node_id="n7")
    try:
        chroot.build_chroot(settings, print)
    except Unavailable as exc:
        unavailable("Asterisk", str(exc))
    try:
        yield settings
    finally:
        runtime.stop(settings, print)
        runtime.remove_instance(settings)


def as_node_n7() -> AriAddress:
    """ARI as node n7's bridge finds it (NODE_ID=n7 in its environment)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("NODE_ID", "n7")
        get_settings.cache_clear()
        try:
            return AriAddress.from_settings()
        finally:
            get_settings.cache_clear()


def test_each_provisioning_gives_the_node_a_new_login_and_refuses_the_old(node: AsteriskSettings) -> None:
    first = with_node_login(node, "start")
    assert (first.ari_user, first.ari_password) != (node.ari_user, node.ari_password)
    assert ari_login("n7") == AriLogin(first.ari_user, first.ari_password)
    runtime.start(first, print)
    assert answers(first, first.ari_user, first.ari_password) == 200
    assert answers(first, node.ari_user, node.ari_password) == 401  # the platform's login opens no node
    running = with_node_login(node, "status")  # running: asked with the login it runs with
    assert (running.ari_user, running.ari_password) == (first.ari_user, first.ari_password)
    # The node's bridge (NODE_ID set) reaches it with the stored login, not ARI_PASSWORD.
    here = as_node_n7()
    assert (here.user, here.password, here.enabled) == (first.ari_user, first.ari_password, True)

    runtime.stop(first, print)
    second = with_node_login(node, "run")  # provisioned again: rotated
    assert second.ari_password != first.ari_password
    runtime.start(second, print)
    assert answers(second, second.ari_user, second.ari_password) == 200
    assert answers(second, first.ari_user, first.ari_password) == 401
    assert ari_login("n7") == AriLogin(second.ari_user, second.ari_password)
    assert as_node_n7().password == second.ari_password
