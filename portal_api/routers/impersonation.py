"""An admin acting as another user: start, stop, return to admin; every step audited."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from core.values.enums import ImpersonationAction
from portal_api.auth.principal import AdminDep, PrincipalDep, client_of
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.users import AuditRow, Impersonating, ReturnedToAdmin, ReturnToAdminIn, StoredUser
from portal_api.services import impersonation
from portal_api.services.tenancy import UserFilter

router = APIRouter(tags=["impersonation"])


@router.post(
    "/user/impersonate/{id:int}",
    summary="Start acting as a customer or buyer (admin only, never another admin)",
)
def start(id: IdPath, request: Request, principal: AdminDep, session: SessionDep) -> Envelope[Impersonating]:
    started = impersonation.start(session, principal, id, client_of(request))
    return ok(started, f"You are now acting as {started.user.name}.")


@router.post(
    "/impersonate/stop",
    summary="Stop impersonating: the impersonation token is revoked",
)
def stop(request: Request, principal: PrincipalDep, session: SessionDep) -> Envelope[StoredUser]:
    admin = impersonation.stop(session, principal, client_of(request))
    return ok(StoredUser.of(admin), "Impersonation stopped.")


@router.post(
    "/impersonate/return",
    summary="Back To Admin: stop impersonating and get the admin's record back",
)
def return_to_admin(
    body: ReturnToAdminIn, request: Request, principal: PrincipalDep, session: SessionDep
) -> Envelope[ReturnedToAdmin]:
    admin = impersonation.return_to_admin(session, principal, body.impersonator_id, client_of(request))
    # The UI restores the admin's own saved token; none is issued here.
    return ok(ReturnedToAdmin(user=StoredUser.of(admin)), "Welcome back.")


@router.get(
    "/impersonate/audit",
    summary="The impersonation audit (admin): starts, stops and every change made while impersonating",
)
def audit(
    pg: PageDep,
    principal: AdminDep,
    session: SessionDep,
    user_id: UserFilter,
    admin_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    action: ImpersonationAction | None = None,
) -> Envelope[PageData[AuditRow]]:
    return ok(impersonation.history(session, principal, pg, admin_id, user_id, action))
