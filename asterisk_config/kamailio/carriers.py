"""The carriers Kamailio lets call in: the source address of every active inbound trunk the portal
manages, in permissions' address list (group 1), reloaded over RPC when a trunk changes (the API
announces it on `names.TRUNK_CHANGES`, as it does to the bridges). No restart, no call dropped."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import subprocess
import time

from redis.exceptions import RedisError
from sqlmodel import select

from asterisk_config.kamailio.config import KamailioSettings, write
from core.infra import names
from core.infra.db import session_scope
from core.infra.redis_client import async_redis, pubsub_channel
from core.models import Trunk
from core.values.enums import Status, TrunkDirection

log = logging.getLogger(__name__)
KAMCMD = "kamcmd"
RELOAD_TRIES = 20  # Kamailio refuses a reload while one is under way: tried again shortly after


def carrier_trunks() -> list[tuple[int, str]]:
    """(trunk id, host) of every active inbound trunk."""
    with session_scope() as session:
        stmt = select(Trunk.id, Trunk.host).where(
            Trunk.direction == TrunkDirection.INBOUND, Trunk.status == Status.ACTIVE
        )
        return [(int(trunk_id or 0), host) for trunk_id, host in session.exec(stmt)]


def address_lines(trunks: list[tuple[int, str]]) -> str:
    """permissions' address list: `group address mask port tag`, one line per carrier address
    (a host name is resolved now; one that does not resolve is left out, and logged)."""
    lines = []
    for trunk_id, host in trunks:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            try:
                address = ipaddress.ip_address(socket.getaddrinfo(host, None)[0][4][0])
            except (OSError, ValueError):
                log.warning("trunk %s: carrier host %r does not resolve; not let in", trunk_id, host)
                continue
        lines.append(f"1 {address} {address.max_prefixlen} 0 trunk-{trunk_id}\n")
    return "".join(lines)


def reload(settings: KamailioSettings) -> None:
    """Have the running Kamailio read the address list again."""
    for _ in range(RELOAD_TRIES):
        done = subprocess.run(
            [KAMCMD, "-s", f"unix:{settings.ctl_socket}", "permissions.addressReload"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0 and "error" not in done.stdout + done.stderr:
            return
        time.sleep(0.2)  # a reload under way: not a busy loop
    raise RuntimeError(f"Kamailio did not reload its carriers: {done.stdout}{done.stderr}")


def push(settings: KamailioSettings, *, running: bool = True) -> int:
    """Write the carriers' addresses from the database, and reload them when Kamailio runs; how many."""
    text = address_lines(carrier_trunks())
    write(settings.address_file, text)
    if running:
        reload(settings)
    return text.count("\n")


async def follow(settings: KamailioSettings, stop: asyncio.Event) -> None:
    """Push the carriers again at every trunk change the API announces, until `stop`. Redis away
    (restarting): subscribed again a second later, and the carriers pushed once then, for the
    changes announced meanwhile."""
    while not stop.is_set():
        try:
            await _listen(settings, stop)
        except (RedisError, OSError) as exc:
            log.warning("trunk changes not heard (Redis: %s); listening again in 1 s", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1)
            if not stop.is_set():
                await _push_logged(settings)


async def _listen(settings: KamailioSettings, stop: asyncio.Event) -> None:
    client = async_redis()
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(pubsub_channel(names.TRUNK_CHANGES))
        while not stop.is_set():
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                await _push_logged(settings)
    finally:
        with contextlib.suppress(RedisError, OSError):  # a connection Redis already closed
            await pubsub.aclose()
            await client.aclose()


async def _push_logged(settings: KamailioSettings) -> None:
    try:
        await asyncio.to_thread(push, settings)
    except Exception:
        log.exception("could not push the carriers to Kamailio")
