"""An admin acting as another user: start, stop, return to admin; every step audited
(auth/audit.py; the token's rules are in docs/security.md)."""

from sqlalchemy import select
from sqlmodel import Session

from core.infra.settings import get_settings
from core.models import ImpersonationAudit, User
from core.values.enums import AdminAction, ImpersonationAction, Role, TokenKind, UserStatus
from core.values.errors import DomainError, ErrorId, not_found
from portal_api.auth import admin_audit, audit, revocation, tokens
from portal_api.auth.audit import Client
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.users import AuditRow, Impersonating, StoredUser
from portal_api.services.common import page_of
from portal_api.services.tenancy import visible_id


def start(session: Session, principal: Principal, user_id: int, client: Client) -> Impersonating:
    """An impersonation token for an active customer or buyer (never another admin): it lives
    `IMPERSONATION_MINUTES` from its last use and dies with the admin's own token."""
    if principal.impersonator_id is not None:
        message = "Return to your own account before impersonating someone else."
        raise DomainError(ErrorId.IMPERSONATION_ALREADY, message)
    user = session.get(User, user_id)
    if user is None:
        raise not_found("User")
    if user.role == Role.ADMIN:
        raise DomainError(
            ErrorId.IMPERSONATION_OF_ADMIN, "Administrators can't impersonate other administrators."
        )
    if user.status != UserStatus.ACTIVE:
        raise DomainError(
            ErrorId.IMPERSONATION_INACTIVE, "This account is not active; activate it before acting as it."
        )
    admin = principal.user
    token, row = tokens.issue(
        session,
        user_id,
        TokenKind.IMPERSONATION,
        get_settings().impersonation_minutes / 60,
        impersonator_id=admin.id,
        ip=client.ip,
        parent_id=principal.token.id,
    )
    audit.record(session, ImpersonationAction.START, admin.id or 0, user_id, row.id, client)
    admin_audit.record(session, admin, AdminAction.IMPERSONATE, user, client)
    session.commit()
    return Impersonating(token=token, user=StoredUser.of(user), impersonator_id=admin.id or 0)


def stop(session: Session, principal: Principal, client: Client) -> User:
    """Revokes the impersonation token; the admin acting is returned."""
    if principal.impersonator_id is None:
        raise DomainError(ErrorId.IMPERSONATION_NONE, "You are not impersonating anyone.")
    admin = session.get(User, principal.impersonator_id)
    assert admin is not None  # resolve() already refused tokens of missing admins
    revocation.stop_impersonation(session, principal.token, client)
    session.commit()
    return admin


def return_to_admin(session: Session, principal: Principal, impersonator_id: int, client: Client) -> User:
    if principal.impersonator_id is not None and impersonator_id != principal.impersonator_id:
        message = "impersonator_id does not match the administrator of this session."
        raise DomainError(ErrorId.IMPERSONATION_WRONG_ADMIN, message)
    return stop(session, principal, client)


def history(
    session: Session,
    principal: Principal,
    pg: PageParams,
    admin_id: int | None,
    user_id: int | None,
    action: ImpersonationAction | None,
) -> PageData[AuditRow]:
    """The impersonation audit, newest first: starts, stops (with why) and the changes made."""
    visible_id(session, User, admin_id, principal, "admin_id", "User")
    stmt = select(ImpersonationAudit)
    if admin_id is not None:
        stmt = stmt.where(ImpersonationAudit.admin_id == admin_id)
    if user_id is not None:
        stmt = stmt.where(ImpersonationAudit.user_id == user_id)
    if action is not None:
        stmt = stmt.where(ImpersonationAudit.action == action.value)
    return page_of(session, stmt.order_by(ImpersonationAudit.id.desc()), pg, AuditRow.model_validate)
