"""Trunks saved in the portal, pushed into Asterisk as PJSIP objects over ARI.

Objects are named `trunk-{id}` (endpoint, aor, auth, identify). Outbound trunks get a contact
to dial; inbound ones an identify so the carrier's address lands in the `from-carrier` context.

PostgreSQL is the source: the API's pub/sub announcement of a change is only the fast path.
`TrunkSync` remembers what Asterisk was given per trunk and, every `TRUNK_RESYNC_SECONDS`, reloads
the trunks when the catalogue's change count (migration 0006) moved, pushing those that differ: a
change whose announcement was lost (Redis away as the API committed) still reaches Asterisk.

A trunk Asterisk refuses (a host that does not resolve, say) is tried again at every resync; the
bridge logs one line when it starts failing or fails differently and one when it is loaded, and
keeps the reason in Redis (`names.trunk_failure_key`) for the trunk list to show.
"""

import asyncio
import logging
from collections.abc import Awaitable
from typing import Protocol

import redis.asyncio as aioredis
from redis import RedisError
from sqlalchemy import text
from sqlmodel import select

from core.infra.db import session_scope
from core.infra.names import trunk_failure_key
from core.infra.settings import get_settings
from core.models import Trunk
from core.values.enums import Status, TrunkAuth, TrunkDirection

log = logging.getLogger(__name__)
# A failure's key outlives a few resyncs only: when the bridge stops, nobody claims it any more.
FAILURE_TTL_SECONDS = 60


class ConfigAri(Protocol):
    """ARI as trunks use it: dynamic configuration (pbx_bridge.ari.Ari)."""

    async def put_config(self, object_type: str, object_id: str, fields: dict[str, str]) -> None: ...

    async def delete_config(self, object_type: str, object_id: str) -> None: ...


def endpoint_name(trunk_id: int) -> str:
    return f"trunk-{trunk_id}"


def trunk_of(name: str) -> int | None:
    """The trunk behind an endpoint or AOR name; None for Asterisk's own (e.g. `carrier`)."""
    number = name.removeprefix("trunk-")
    return int(number) if number != name and number.isdigit() else None


def is_qualified(trunk: Trunk) -> bool:
    """Whether Asterisk sends OPTIONS to the trunk (and dials it only while they are answered)."""
    return trunk.status == Status.ACTIVE and trunk.direction == TrunkDirection.OUTBOUND and trunk.qualify


Objects = list[tuple[str, dict[str, str]]]


def _objects(trunk: Trunk) -> Objects:
    name = endpoint_name(trunk.id or 0)
    endpoint = {
        "transport": "transport-udp",
        "context": "from-carrier",
        "disallow": "all",
        "allow": trunk.codecs or "ulaw,alaw",
        "direct_media": "no",
        "send_connected_line": "no",
        "rtp_symmetric": "yes",
        "force_rport": "yes",
        "rewrite_contact": "yes",
        "aors": name,
    }
    objects: Objects = []
    if trunk.auth_type == TrunkAuth.DIGEST and trunk.username and trunk.secret:
        objects.append(
            ("auth", {"auth_type": "userpass", "username": trunk.username, "password": trunk.secret})
        )
        endpoint["outbound_auth" if trunk.direction == TrunkDirection.OUTBOUND else "auth"] = name
    if trunk.direction == TrunkDirection.OUTBOUND:
        aor = {"contact": f"sip:{trunk.host}:{trunk.port}", "max_contacts": "1"}
        # Qualify (OPTIONS) gives the trunk list its status, and Asterisk skips a carrier that stopped
        # answering instead of dialling into the void: failover moves on at once.
        if is_qualified(trunk):
            aor["qualify_frequency"] = str(get_settings().trunk_qualify_seconds)
        objects.append(("aor", aor))
    else:
        objects.append(("aor", {"max_contacts": "1"}))
        objects.append(("identify", {"endpoint": name, "match": trunk.host}))
    objects.append(("endpoint", endpoint))
    return objects


async def push(ari: ConfigAri, trunk: Trunk) -> None:
    name = endpoint_name(trunk.id or 0)
    # Replace, not update: an updated AOR keeps its old permanent contact, so a changed host or
    # port would otherwise still be dialled at the old address.
    await remove(ari, trunk.id or 0)
    if trunk.status != Status.ACTIVE:
        return
    for object_type, fields in _objects(trunk):
        await ari.put_config(object_type, name, fields)


async def remove(ari: ConfigAri, trunk_id: int) -> None:
    name = endpoint_name(trunk_id)
    for object_type in ("identify", "endpoint", "aor", "auth"):
        await ari.delete_config(object_type, name)


def load(trunk_id: int | None = None) -> list[Trunk]:
    with session_scope() as session:
        stmt = select(Trunk) if trunk_id is None else select(Trunk).where(Trunk.id == trunk_id)
        return list(session.exec(stmt).all())


_VERSION = text("SELECT version FROM catalogue_version WHERE id = 1")


def load_if_changed(since: int | None) -> tuple[int, list[Trunk]] | None:
    """(catalogue version, every trunk), or None while the version is still `since` (one query)."""
    with session_scope() as session:
        version = int(session.connection().execute(_VERSION).scalar_one())
        if version == since:
            return None
        return version, list(session.exec(select(Trunk)).all())


def wanted(trunk: Trunk) -> Objects:
    """What Asterisk should hold for the trunk: nothing for one not active."""
    return _objects(trunk) if trunk.status == Status.ACTIVE else []


class TrunkSync:
    """Asterisk's trunks kept equal to PostgreSQL's, one change at a time (a lock: the pub/sub
    path, the resync and a reconnection's push never interleave their removes and puts)."""

    def __init__(self, ari: ConfigAri, redis: aioredis.Redis | None = None) -> None:
        self.ari = ari
        self.redis = redis  # where the trunk list reads why a trunk is not loaded
        self._given: dict[int, Objects] = {}  # what Asterisk was last given, per trunk id
        self._failures: dict[int, str] = {}  # why Asterisk refused a trunk, as last logged
        self._version: int | None = None  # the catalogue version `_given` matches
        self._lock = asyncio.Lock()

    async def apply(self, trunk_id: int) -> None:
        """The trunk as PostgreSQL has it now (announced as changed): pushed again, or removed."""
        found = await asyncio.to_thread(load, trunk_id)
        async with self._lock:
            step = self._push(found[0]) if found else self._remove(trunk_id)
            await self._attempt(step, trunk_id)

    async def push_all(self) -> None:
        """Every trunk pushed (after a (re)connection: Asterisk may have restarted with none)."""
        async with self._lock:
            self._given, self._version = {}, None
        await self.resync()

    async def resync(self) -> None:
        """Push what changed in PostgreSQL since the last look, if the catalogue version moved."""
        async with self._lock:
            found = await asyncio.to_thread(load_if_changed, self._version)
            if found is None:
                return
            version, rows = found
            complete = True
            for trunk in rows:
                if trunk.id is not None and self._given.get(trunk.id) != wanted(trunk):
                    complete &= await self._attempt(self._push(trunk), trunk.id)
            for gone in set(self._given) - {t.id for t in rows}:
                complete &= await self._attempt(self._remove(gone), gone)
            # A trunk Asterisk refused is tried again at the next look, not only at the next change.
            self._version = version if complete else None

    async def _attempt(self, step: Awaitable[None], trunk_id: int) -> bool:
        try:
            await step
        except Exception as exc:  # one bad trunk must not keep the others out of Asterisk
            self._given.pop(trunk_id, None)
            reason = str(exc) or type(exc).__name__
            if self._failures.get(trunk_id) != reason:
                log.warning(
                    "trunk %s not loaded into Asterisk: %s; trying again every resync", trunk_id, reason
                )
            self._failures[trunk_id] = reason
            await self._tell(trunk_id, reason)
            return False
        if self._failures.pop(trunk_id, None) is not None:
            log.info("trunk %s loaded into Asterisk", trunk_id)
            await self._tell(trunk_id, None)
        return True

    async def _tell(self, trunk_id: int, reason: str | None) -> None:
        """The reason the trunk list shows (None: loaded, or gone)."""
        if self.redis is None:
            return
        try:
            if reason is None:
                await self.redis.delete(trunk_failure_key(trunk_id))
            else:
                await self.redis.set(trunk_failure_key(trunk_id), reason, ex=FAILURE_TTL_SECONDS)
        except RedisError as exc:  # a status display must not stop the sync
            log.debug("trunk failure not written: %s", exc)

    async def _push(self, trunk: Trunk) -> None:
        trunk_id = trunk.id or 0
        self._given.pop(trunk_id, None)  # unknown until the push completes
        await push(self.ari, trunk)
        self._given[trunk_id] = wanted(trunk)

    async def _remove(self, trunk_id: int) -> None:
        self._given.pop(trunk_id, None)
        await remove(self.ari, trunk_id)

    async def keep_in_sync(self, every: float) -> None:
        """`resync` every `every` seconds, until cancelled; PostgreSQL away is tried again."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.resync()
            except Exception as exc:
                log.warning("trunk resync failed (%s); trying again in %s s", type(exc).__name__, every)
