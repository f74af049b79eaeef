"""Trunks saved in the portal, pushed into Asterisk as PJSIP objects over ARI.

Objects are named `trunk-{id}` (endpoint, aor, auth, identify). Outbound trunks get a contact
to dial; inbound ones an identify so the carrier's address lands in the `from-carrier` context.
"""

import logging
from typing import Protocol

from sqlmodel import select

from core.db import session_scope
from core.enums import Status, TrunkAuth, TrunkDirection
from core.models import Trunk
from core.settings import get_settings

log = logging.getLogger(__name__)


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


def _objects(trunk: Trunk) -> list[tuple[str, dict[str, str]]]:
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
    objects: list[tuple[str, dict[str, str]]] = []
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


async def push_all(ari: ConfigAri, trunks: list[Trunk]) -> None:
    for trunk in trunks:
        try:
            await push(ari, trunk)
        except Exception:  # one bad trunk must not keep the others out of Asterisk
            log.exception("could not push trunk %s", trunk.id)
