"""Live calls as each caller may see them, read from the bridge's Redis state (core.calls.live,
core.infra.names), with the names of their customer, campaign and buyer (call_names)."""

from typing import cast

import redis.asyncio as aioredis
from fastapi.concurrency import run_in_threadpool
from sqlmodel import Session

from core.calls.live import LiveCall, LiveScope, read_call
from core.infra import names
from core.infra.db import get_engine
from portal_api.auth.principal import Principal
from portal_api.services.call_names import names_of

NAMES = ("customer_name", "campaign_name", "buyer_name")


class NamedLiveCall(LiveCall):
    """A live call as Live Calls shows it: the bridge's entry and whom it is for, by name."""

    customer_name: str | None
    campaign_name: str | None
    buyer_name: str | None


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


def with_names(calls: list[LiveCall]) -> list[NamedLiveCall]:
    with Session(get_engine()) as session:
        found = names_of(session, NAMES, calls)
    return [
        NamedLiveCall(
            **call,
            customer_name=found["customer_name"].get(call["user_id"] or 0),
            campaign_name=found["campaign_name"].get(call["campaign_id"] or 0),
            buyer_name=found["buyer_name"].get(call["buyer_id"] or 0),
        )
        for call in calls
    ]


async def named_calls(client: aioredis.Redis, principal: Principal) -> list[NamedLiveCall]:
    """The caller's live calls with their names: one lookup for the lot (ids start at 1, so an
    absent reference finds no name)."""
    live = await calls(client, principal)
    return await run_in_threadpool(with_names, live) if live else []


async def visible_call(client: aioredis.Redis, principal: Principal, linkedid: str) -> LiveCall | None:
    raw = await client.get(names.live_call_key(linkedid))
    if raw is None:
        return None
    call = read_call(raw)
    return call if concerns(principal, call) else None
