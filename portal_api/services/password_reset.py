"""A forgotten password: a one-time link by mail where mail is set up, else the administrators are told.

Reset tokens live in Redis (only their SHA-256), for RESET_MINUTES, and work once. The answer is
the same whether or not the address has an account, so it tells nobody which addresses exist.
"""

import secrets
from datetime import UTC, datetime

from sqlmodel import Session, select

from core.infra import mail, names
from core.infra.jobs import enqueue
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.models import User
from core.notices.bell import notify_admins
from core.values.enums import UserStatus
from core.values.errors import DomainError, ErrorId
from portal_api.auth.tokens import token_hash
from portal_api.services.accounts import set_password

RESET_MINUTES = 60
RESEND_SECONDS = 300
SENT = "If that address has an account, a link to reset its password is on its way."
NO_MAIL = (
    "Password reset by e-mail is not set up on this server. Your administrator has been told "
    "and can set a new password for you."
)


def link(user: User, minutes: int) -> str:
    """A one-time link that sets `user`'s password, for `minutes` (a reset; a buyer's invitation)."""
    token = secrets.token_urlsafe(32)
    get_redis().set(f"{names.PASSWORD_RESET_PREFIX}{token_hash(token)}", user.id or 0, ex=minutes * 60)
    return f"{get_settings().portal_url}/reset-password?token={token}"


def request_reset(session: Session, email: str) -> str:
    """Mails a reset link to an active account (at most one per RESEND_SECONDS); the message to show.
    The link starts with the configured portal address (settings.portal_url), never the request's host."""
    user = session.exec(select(User).where(User.email == email.strip().lower())).first()
    active = user is not None and user.status == UserStatus.ACTIVE.value
    if not mail.configured():
        if user is not None and active:
            day = datetime.now(UTC).date().isoformat()
            notify_admins(
                session,
                f"{user.name} ({user.email}) forgot their password: set a new one under User, Edit.",
                dedupe_key=f"password-reset:{user.id}:{day}",
            )
            session.commit()
        return NO_MAIL
    if user is None or not active:
        return SENT
    redis = get_redis()
    if not redis.set(f"{names.PASSWORD_RESET_SENT_PREFIX}{user.id}", 1, nx=True, ex=RESEND_SECONDS):
        return SENT
    body = (
        f"Hello {user.name},\n\nSomeone (we hope you) asked to reset the password of your Callroute "
        f"account. Choose a new one here:\n\n{link(user, RESET_MINUTES)}\n\n"
        f"The link works once, within {RESET_MINUTES} minutes. If you did not ask, ignore this mail."
    )
    enqueue(names.SEND_MAIL, user.email, "Reset your Callroute password", body)
    return SENT


def reset(session: Session, token: str, new_password: str) -> None:
    """Sets the password of the token's account (signing out its sessions); the token is used up."""
    user_id = get_redis().getdel(f"{names.PASSWORD_RESET_PREFIX}{token_hash(token)}")
    user = session.get(User, int(user_id)) if user_id else None
    if user is None or user.status != UserStatus.ACTIVE.value:
        # A well-formed token that names no live reset: 404, as a sign-up link (signup.BAD_LINK).
        raise DomainError(
            ErrorId.LINK_INVALID, "This reset link is invalid, used or expired: ask for a new one.", "token"
        )
    set_password(session, user, new_password)
    session.commit()
