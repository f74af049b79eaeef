"""An admin acting as another user: start, stop, return to admin; every step audited."""

from typing import Any

from fastapi import APIRouter, Request

from portal_api.auth.principal import AdminDep, PrincipalDep, client_ip
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.users import Impersonating, ReturnedToAdmin, ReturnToAdminIn, StoredUser
from portal_api.services import impersonation
from portal_api.services.impersonation import Client

router = APIRouter(tags=["impersonation"])


def _client(request: Request) -> Client:
    return Client(ip=client_ip(request), user_agent=(request.headers.get("user-agent") or "")[:255] or None)


@router.post(
    "/user/impersonate/{id:int}",
    response_model=Envelope[Impersonating],
    summary="Start acting as a customer or buyer (admin only, never another admin)",
)
def start(id: IdPath, request: Request, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    started = impersonation.start(session, principal, id, _client(request))
    return ok(started, f"You are now acting as {started.user.name}.")


@router.post(
    "/impersonate/stop",
    response_model=Envelope[StoredUser],
    summary="Stop impersonating: the impersonation token is revoked",
)
def stop(request: Request, principal: PrincipalDep, session: SessionDep) -> dict[str, Any]:
    admin = impersonation.stop(session, principal, _client(request))
    return ok(StoredUser.of(admin), "Impersonation stopped.")


@router.post(
    "/impersonate/return",
    response_model=Envelope[ReturnedToAdmin],
    summary="Back To Admin: stop impersonating and get the admin's record back",
)
def return_to_admin(
    body: ReturnToAdminIn, request: Request, principal: PrincipalDep, session: SessionDep
) -> dict[str, Any]:
    admin = impersonation.return_to_admin(session, principal, body.impersonator_id, _client(request))
    # The UI restores the admin's own saved token; none is issued here.
    return ok(ReturnedToAdmin(user=StoredUser.of(admin)), "Welcome back.")
