"""Live calls for the portal: who a WebSocket token belongs to, the unread count it pushes, and
hanging up a live call the caller may see (the PBX bridge does the hanging up)."""

import asyncio

from fastapi.concurrency import run_in_threadpool
from sqlmodel import Session

from core.infra import names
from core.infra.db import get_engine
from core.infra.redis_client import async_redis
from core.pbx.pbx_commands import request_hangup
from core.values.errors import not_found
from portal_api.auth.principal import Principal, resolve
from portal_api.schemas.users import Balance
from portal_api.services import accounts, live_feed
from portal_api.services.notifications import unread_count

HANGUP_WAIT_STEPS = 50  # of 0.1 s: the bridge usually ends a call within a few hundred milliseconds


def principal_for(token: str) -> Principal:
    """The signed-in caller of a WebSocket, detached from its short-lived session."""
    with Session(get_engine(), expire_on_commit=False) as session:
        principal = resolve(session, token)
        session.expunge_all()
        return principal


def unread_for(user_id: int) -> int:
    with Session(get_engine()) as session:
        return unread_count(session, user_id)


def balance_for(principal: Principal) -> Balance:
    """The caller's own wallet balance as the feed pushes it (the shape of GET /user/balance)."""
    with Session(get_engine()) as session:
        return accounts.balance(session, principal, principal.user.id or 0)


async def hang_up(principal: Principal, linkedid: str) -> bool:
    """Asks the bridge to end the call; True once it has ended, False if it is still ending."""
    client = async_redis()
    try:
        if await live_feed.visible_call(client, principal, linkedid) is None:
            raise not_found("Live call")
        await run_in_threadpool(request_hangup, linkedid, principal.user.id or 0)
        for _ in range(HANGUP_WAIT_STEPS):
            if not await client.exists(names.live_call_key(linkedid)):
                return True
            await asyncio.sleep(0.1)
        return False
    finally:
        await client.aclose()
