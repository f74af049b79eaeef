"""When credentials end (docs/security.md, "Sessions and credentials").

- Signing out revokes the token used and every impersonation started from it.
- A new password revokes the user's sessions (but the one asking, if any), every impersonation of
  the user and every impersonation *by* the user; its API token only when asked.
- An account leaving `active` loses every token (API token included), its impersonations either
  way and, for a customer, its buyers' sign-ins: reactivation brings none of them back.

Each impersonation ended so gets its stop record.
"""

from sqlalchemy import or_, select
from sqlmodel import Session

from core.models import AuthToken, Buyer, User
from core.values.enums import Role, TokenKind
from portal_api.auth import audit, tokens


def sign_out(session: Session, token: AuthToken, client: audit.Client) -> None:
    why = "signed out while impersonating" if token.impersonator_id else "the administrator signed out"
    audit.stopped(session, tokens.revoke_where(session, AuthToken.id == token.id), why, client)


def stop_impersonation(session: Session, token: AuthToken, client: audit.Client) -> None:
    audit.stopped(session, tokens.revoke_where(session, AuthToken.id == token.id), "stopped", client)


def password_changed(session: Session, user_id: int, keep_id: int | None, api_token: bool) -> None:
    kinds = [TokenKind.SESSION, TokenKind.IMPERSONATION] + ([TokenKind.API] if api_token else [])
    own = (AuthToken.user_id == user_id) & AuthToken.kind.in_([k.value for k in kinds])
    revoked = tokens.revoke_where(
        session,
        or_(own, AuthToken.impersonator_id == user_id),
        AuthToken.id != (keep_id or 0),
    )
    audit.stopped(session, revoked, "the password changed")


def deactivated(session: Session, user: User) -> None:
    ids = [user.id or 0]
    if user.role == Role.CUSTOMER:
        logins = select(Buyer.login_user_id).where(Buyer.user_id == user.id, Buyer.login_user_id.is_not(None))
        ids.extend(i for i in session.scalars(logins) if i is not None)
    revoked = tokens.revoke_where(
        session, or_(AuthToken.user_id.in_(ids), AuthToken.impersonator_id.in_(ids))
    )
    audit.stopped(session, revoked, "the account was deactivated")
