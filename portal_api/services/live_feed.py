"""Live calls as each caller may see them, read from the bridge's Redis state (core.calls.live,
core.infra.names)."""

from typing import cast

import redis.asyncio as aioredis

from core.calls.live import LiveCall, LiveScope, read_call
from core.infra import names
from portal_api.auth.principal import Principal


def scope_key(principal: Principal) -> str:
    if principal.is_admin:
        return names.LIVE_CALLS
    if principal.is_buyer and principal.buyer is not None:
        return names.live_buyer_key(principal.buyer.id or 0)
    return names.live_user_key(principal.user.id or 0)


def concerns(principal: Principal, change: LiveScope) -> bool:
    """Whether a live call, or a published change (core.calls.live.LiveChange), is about a call this
    caller may see."""
    if principal.is_admin:
        return True
    if principal.is_buyer:
        return principal.buyer is not None and change["buyer_id"] == principal.buyer.id
    return change["user_id"] == principal.user.id


async def calls(client: aioredis.Redis, principal: Principal) -> list[LiveCall]:
    ids = sorted(cast(set[str], await client.smembers(scope_key(principal))))  # decode_responses
    if not ids:
        return []
    raw = await client.mget([names.live_call_key(i) for i in ids])
    return [read_call(r) for r in raw if r]


async def visible_call(client: aioredis.Redis, principal: Principal, linkedid: str) -> LiveCall | None:
    raw = await client.get(names.live_call_key(linkedid))
    if raw is None:
        return None
    call = read_call(raw)
    return call if concerns(principal, call) else None
