"""An admin acting as another user: start, stop, return to admin; every step audited."""

from dataclasses import dataclass

from sqlmodel import Session

from core.enums import ImpersonationAction, Role, TokenKind, UserStatus
from core.models import ImpersonationAudit, User
from core.settings import get_settings
from portal_api.auth import tokens
from portal_api.auth.principal import Principal
from portal_api.errors import ApiError, not_found
from portal_api.schemas.users import Impersonating, StoredUser


@dataclass(frozen=True)
class Client:
    """Where a request came from, as the audit records it."""

    ip: str
    user_agent: str | None


def _audit(
    session: Session,
    client: Client,
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
            ip=client.ip,
            user_agent=client.user_agent,
        )
    )


def start(session: Session, principal: Principal, user_id: int, client: Client) -> Impersonating:
    """An impersonation token for an active customer or buyer (never another admin)."""
    if principal.impersonator_id is not None:
        raise ApiError(409, "Return to your own account before impersonating someone else.")
    user = session.get(User, user_id)
    if user is None:
        raise not_found("User")
    if user.role == Role.ADMIN:
        raise ApiError(403, "Administrators can't impersonate other administrators.")
    if user.status != UserStatus.ACTIVE:
        raise ApiError(409, "This account is not active; activate it before acting as it.")
    admin = principal.user
    token, row = tokens.issue(
        session,
        user_id,
        TokenKind.IMPERSONATION,
        get_settings().session_hours,
        impersonator_id=admin.id,
        ip=client.ip,
    )
    _audit(session, client, admin, user, ImpersonationAction.START, row.id)
    session.commit()
    return Impersonating(token=token, user=StoredUser.of(user), impersonator_id=admin.id or 0)


def stop(session: Session, principal: Principal, client: Client) -> User:
    """Revokes the impersonation token; the admin acting is returned."""
    if principal.impersonator_id is None:
        raise ApiError(409, "You are not impersonating anyone.")
    admin = session.get(User, principal.impersonator_id)
    assert admin is not None  # resolve() already refused tokens of missing admins
    tokens.revoke(session, principal.token)
    _audit(session, client, admin, principal.user, ImpersonationAction.STOP, principal.token.id)
    session.commit()
    return admin


def return_to_admin(session: Session, principal: Principal, impersonator_id: int, client: Client) -> User:
    if principal.impersonator_id is not None and impersonator_id != principal.impersonator_id:
        raise ApiError(403, "impersonator_id does not match the administrator of this session.")
    return stop(session, principal, client)
