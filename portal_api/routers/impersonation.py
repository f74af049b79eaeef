"""An admin acting as another user: start, stop, return to admin; every step audited."""

from typing import Any

from fastapi import APIRouter, Request
from sqlmodel import Session

from core.enums import ImpersonationAction, Role, TokenKind, UserStatus
from core.models import ImpersonationAudit, User
from core.settings import get_settings
from portal_api.auth import tokens
from portal_api.auth.principal import AdminDep, Principal, PrincipalDep, client_ip
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.errors import ApiError, not_found
from portal_api.schemas.users import Impersonating, ReturnedToAdmin, ReturnToAdminIn, StoredUser

router = APIRouter(tags=["impersonation"])


def _audit(
    session: Session,
    request: Request,
    admin: User,
    user: User,
    action: ImpersonationAction,
    token_id: int | None,
) -> None:
    session.add(
        ImpersonationAudit(
            admin_id=admin.id,
            user_id=user.id,
            admin_email=admin.email,
            user_email=user.email,
            action=action.value,
            token_id=token_id,
            ip=client_ip(request),
            user_agent=(request.headers.get("user-agent") or "")[:255] or None,
        )
    )


@router.post(
    "/user/impersonate/{id}",
    response_model=Envelope[Impersonating],
    summary="Start acting as a customer or buyer (admin only, never another admin)",
)
def start(id: IdPath, request: Request, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    if principal.impersonator_id is not None:
        raise ApiError(409, "Return to your own account before impersonating someone else.")
    user = session.get(User, id)
    if user is None:
        raise not_found("User")
    if user.role == Role.ADMIN:
        raise ApiError(403, "Administrators can't impersonate other administrators.")
    if user.status != UserStatus.ACTIVE:
        raise ApiError(409, "This account is not active; activate it before acting as it.")
    admin = principal.user
    token, row = tokens.issue(
        session,
        id,
        TokenKind.IMPERSONATION,
        get_settings().session_hours,
        impersonator_id=admin.id,
        ip=client_ip(request),
    )
    _audit(session, request, admin, user, ImpersonationAction.START, row.id)
    session.commit()
    return ok(
        Impersonating(token=token, user=StoredUser.of(user), impersonator_id=admin.id or 0),
        f"You are now acting as {user.name}.",
    )


def _stop(request: Request, principal: Principal, session: Session) -> User:
    if principal.impersonator_id is None:
        raise ApiError(409, "You are not impersonating anyone.")
    admin = session.get(User, principal.impersonator_id)
    assert admin is not None  # resolve() already refused tokens of missing admins
    tokens.revoke(session, principal.token)
    _audit(session, request, admin, principal.user, ImpersonationAction.STOP, principal.token.id)
    session.commit()
    return admin


@router.post(
    "/impersonate/stop",
    response_model=Envelope[StoredUser],
    summary="Stop impersonating: the impersonation token is revoked",
)
def stop(request: Request, principal: PrincipalDep, session: SessionDep) -> dict[str, Any]:
    admin = _stop(request, principal, session)
    return ok(StoredUser.of(admin), "Impersonation stopped.")


@router.post(
    "/impersonate/return",
    response_model=Envelope[ReturnedToAdmin],
    summary="Back To Admin: stop impersonating and get the admin's record back",
)
def return_to_admin(
    body: ReturnToAdminIn, request: Request, principal: PrincipalDep, session: SessionDep
) -> dict[str, Any]:
    if principal.impersonator_id is not None and body.impersonator_id != principal.impersonator_id:
        raise ApiError(403, "impersonator_id does not match the administrator of this session.")
    admin = _stop(request, principal, session)
    # The UI restores the admin's own saved token; none is issued here.
    return ok(ReturnedToAdmin(user=StoredUser.of(admin)), "Welcome back.")
