"""Signing in and out: the session tokens of the portal (signing up: signup.py)."""

from sqlmodel import Session, select

from core.infra.settings import get_settings
from core.models import AuthToken, User
from core.values.enums import TokenKind
from core.values.errors import DomainError, ErrorId
from core.values.passwords import verify_password
from portal_api.auth import revocation, throttle, tokens
from portal_api.auth.audit import Client
from portal_api.auth.principal import refusal
from portal_api.schemas.users import SignedIn, StoredUser


def sign_in(session: Session, email: str, password: str, ip: str) -> SignedIn:
    """A session token for the right password of an active account; failures are throttled."""
    email = email.strip().lower()
    throttle.attempt(email, ip)  # counted before the password is checked
    user = session.exec(select(User).where(User.email == email)).first()
    if not verify_password(user.password_hash if user else None, password) or user is None:
        raise DomainError(ErrorId.SESSION_BAD_CREDENTIALS, "The email or password is incorrect.")
    why = refusal(session, user)
    if why is not None:
        raise DomainError(ErrorId.SESSION_ACCOUNT_REFUSED, why)
    throttle.succeeded(email, ip)
    token, _ = tokens.issue(session, user.id or 0, TokenKind.SESSION, get_settings().session_hours, ip=ip)
    session.commit()
    return SignedIn(token=token, user=StoredUser.of(user))


def sign_out(session: Session, token: AuthToken, client: Client) -> None:
    """The token ends, and every impersonation started from it (each with its stop record)."""
    revocation.sign_out(session, token, client)
    session.commit()
