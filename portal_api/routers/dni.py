"""Website number swapping (docs/attribution.md): the customer's script and site origins, a
campaign's pool and its pressure, a call's attribution; and the public endpoints the script on the
customer's pages calls (no token: a script key, the customer's site origins, rate limits).

The script posts `text/plain` JSON: a simple cross-origin request, which needs no preflight; the
answer names the page's origin in Access-Control-Allow-Origin only when it is the customer's.
"""

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.client_address import client_address
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.dni import AttributionOut, PoolEdit, PoolOut, PoolRow, SiteEdit, SiteOut, Swaps
from portal_api.services import dni, dni_public

router = APIRouter(prefix="/dni", tags=["attribution"])

KeyPath = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{16,43}$", description="The customer's script key")]


@router.get(
    "/site/{user_id:int}",
    summary="Customer `user_id`'s script tag and site origins (its key made at the first look)",
)
def site(user_id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[SiteOut]:
    return ok(dni.site(session, principal, user_id))


@router.put("/site/{user_id:int}", summary="Set the site origins whose pages may use the script")
def edit_site(
    user_id: IdPath, body: SiteEdit, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[SiteOut]:
    return ok(dni.edit_site(session, principal, user_id, body), "Site origins saved.")


@router.post("/site/{user_id:int}/key", summary="A new script key (the old script tag stops working)")
def new_key(user_id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[SiteOut]:
    return ok(dni.new_key(session, principal, user_id), "New script key made.")


@router.get("/pool/{id:int}", summary="Campaign `id`'s website number pool, its numbers and pressure")
def pool(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[PoolOut]:
    return ok(dni.pool(session, principal, id))


@router.put("/pool/{id:int}", summary="Turn the pool on or off, set its timeout, page number and numbers")
def edit_pool(
    id: IdPath, body: PoolEdit, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[PoolOut]:
    return ok(dni.edit_pool(session, principal, id, body), "Website pool saved.")


@router.get("/pools", summary="The pools that are on, with their pressure (the dashboard's card)")
def pools(principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[PoolRow]]:
    return ok(dni.pools(session, principal))


@router.get(
    "/call/{id:int}", summary="Call `id`'s attribution: the visit, its pages, the candidates (null: none)"
)
def attribution(
    id: IdPath, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[AttributionOut | None]:
    return ok(dni.attribution(session, principal, id))


# --- public: the script on the customer's pages ----------------------------------------------------

_JS: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/javascript": {"schema": {"type": "string"}}}, "description": "The script"}
}
_TEXT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "text/plain": {"schema": {"type": "string", "description": "JSON, as the script sends it"}}
        },
    }
}


@router.get(
    "/{key}/script.js",
    response_class=Response,
    responses=_JS,
    summary="The customer's website script (public)",
)
def script(key: KeyPath, request: Request) -> Response:
    body = dni_public.script(key, client_address(request.scope))
    headers = {"Cache-Control": "public, max-age=300"}
    return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)


async def _public(
    work: Callable[[str, str | None, str | None, str, bytes], Swaps],
    key: str,
    request: Request,
    response: Response,
) -> Envelope[Swaps]:
    """A call of the script's: its body, page origin, agent and address handed to `work`; the answer
    names the page's origin for CORS (which the browser honours only when it is the customer's)."""
    body = await request.body()
    origin, agent = request.headers.get("origin"), request.headers.get("user-agent")
    # The work is blocking (PostgreSQL, Redis): in the thread pool, as a sync route's would be.
    swaps = await run_in_threadpool(work, key, origin, agent, client_address(request.scope), body)
    response.headers["Access-Control-Allow-Origin"] = origin or ""
    response.headers["Vary"] = "Origin"
    return ok(swaps)


@router.post(
    "/{key}/assign",
    openapi_extra={**_TEXT_BODY, "description": "Body: `AssignIn` as JSON in text/plain"},
    summary="The pool numbers a visitor holds (public: the customer's site origins only)",
)
async def assign(key: KeyPath, request: Request, response: Response) -> Envelope[Swaps]:
    return await _public(dni_public.assign, key, request, response)


@router.post(
    "/{key}/touch",
    openapi_extra={**_TEXT_BODY, "description": "Body: `TouchIn` as JSON in text/plain"},
    summary="A visitor is active: its sessions hold their numbers on (public)",
)
async def touch(key: KeyPath, request: Request, response: Response) -> Envelope[Swaps]:
    return await _public(dni_public.touch, key, request, response)
