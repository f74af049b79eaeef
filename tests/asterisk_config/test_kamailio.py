"""Kamailio's files as rendered from the settings: the nodes it dispatches to and the carriers it
lets in (tests/asterisk/test_nodes.py runs it under real calls)."""

import asyncio
from pathlib import Path

import pytest

from asterisk_config.errors import ConfigError
from asterisk_config.kamailio import carriers
from asterisk_config.kamailio.carriers import address_lines
from asterisk_config.kamailio.config import KamailioSettings, dispatcher_list, render
from core.infra import names
from core.infra.redis_client import get_redis, pubsub_channel
from core.infra.settings import get_settings, settings_from
from core.pbx.pbx_commands import announce_trunk_change
from testkit.processes import redis_server
from testkit.waiting import eventually_async


def test_nodes_and_limits_come_from_the_settings() -> None:
    env = {"KAMAILIO_NODES": " 10.0.0.5:5060, 10.0.0.6:5070 ,", "KAMAILIO_FLOOD_REQUESTS": "50"}
    settings = KamailioSettings.of(settings_from(env))
    assert settings.nodes == ("10.0.0.5:5060", "10.0.0.6:5070")
    assert (settings.flood_requests, settings.flood_seconds, settings.probe_seconds) == (50, 2, 2)
    assert dispatcher_list(settings.nodes) == "1 sip:10.0.0.5:5060\n1 sip:10.0.0.6:5070\n"
    with pytest.raises(ConfigError, match="KAMAILIO_NODES"):
        dispatcher_list(())


def test_carriers_are_let_in_by_address_and_an_unresolvable_host_is_left_out() -> None:
    trunks = [(1, "203.0.113.9"), (2, "2001:db8::7"), (3, "no-such-host.invalid")]
    assert address_lines(trunks).splitlines() == [
        "1 203.0.113.9 32 0 trunk-1",
        "1 2001:db8::7 128 0 trunk-2",
    ]


def test_a_node_id_cannot_be_the_start_of_another_nodes_prefix() -> None:
    with pytest.raises(ValueError, match="node_id"):
        settings_from({"NODE_ID": "n1-b"})


def test_the_address_carriers_send_to_is_a_setting_and_must_be_an_ip() -> None:
    assert KamailioSettings.of(settings_from({"KAMAILIO_SIP_BIND": "203.0.113.4"})).listen == "203.0.113.4"
    with pytest.raises(ConfigError, match="KAMAILIO_SIP_BIND"):
        render(KamailioSettings.of(settings_from({"KAMAILIO_SIP_BIND": "sip.example.com"})))


async def test_trunk_changes_are_followed_again_after_redis_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis killed and started again (empty): Kamailio's command listens again, pushes the carriers
    once for what it may have missed, and the next trunk change is pushed too (the reload itself is
    recorded here: tests/asterisk/test_nodes.py reloads a real Kamailio)."""
    pushed: list[int] = []
    monkeypatch.setattr(carriers, "push", lambda settings: pushed.append(1) or 0)
    with redis_server(tmp_path) as redis:
        monkeypatch.setenv("REDIS_URL", redis.url)
        get_settings.cache_clear()
        get_redis.cache_clear()
        settings = KamailioSettings.of(get_settings(), tmp_path)
        stop = asyncio.Event()
        following = asyncio.create_task(carriers.follow(settings, stop))
        try:
            await eventually_async(lambda: get_redis().pubsub_numsub(channel())[0][1] == 1)
            announce_trunk_change(1)
            await eventually_async(lambda: len(pushed) == 1, what="the change pushed")
            redis.stop()
            redis.start()
            await eventually_async(lambda: len(pushed) == 2, what="pushed once Redis is back")
            await eventually_async(lambda: get_redis().pubsub_numsub(channel())[0][1] == 1)
            announce_trunk_change(1)
            await eventually_async(lambda: len(pushed) == 3, what="the next change pushed")
        finally:
            stop.set()
            await asyncio.wait_for(following, 10)
            monkeypatch.undo()
            get_settings.cache_clear()
            get_redis.cache_clear()


def channel() -> str:
    return pubsub_channel(names.TRUNK_CHANGES)
