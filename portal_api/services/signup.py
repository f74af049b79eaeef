"""Signing up (docs/security.md, "Sign-up"), throttled per address.

The mode is `settings.signup`. `confirm` (mail set up): the answer tells nobody whether an address
has an account: every sign-up answers the same "check your inbox"; a new address is mailed a link
that creates the account (`confirm`), one that has an account gets a notice instead. `instant`
(development without mail): the account is created and signed in at once, and a taken address is a
409 (the per-address limit is then what keeps a guesser slow). `closed` (production without mail):
every sign-up gets the same 403, and administrators add customers.
"""

import json
import secrets
from typing import Any

from sqlmodel import Session

from core.infra import names
from core.infra.jobs import enqueue
from core.infra.redis_client import get_redis
from core.infra.settings import get_settings
from core.values.enums import Role, TokenKind
from core.values.errors import DomainError, ErrorId
from core.values.passwords import hash_password
from portal_api.auth import throttle, tokens
from portal_api.schemas.users import RegisterIn, SignedIn, StoredUser
from portal_api.services.accounts import create_user, email_taken, typed_phone

CONFIRM_HOURS = 24
RESEND_SECONDS = 300
CHECK_INBOX = "Check your inbox: the link we sent finishes signing up."
BAD_LINK = "This sign-up link is invalid, used or expired: sign up again."
CLOSED = "Sign-up is closed here: ask the platform's administrator for an account."


def register(session: Session, body: RegisterIn, ip: str) -> SignedIn | str:
    """A new customer account (role 2) signed in, or (with mail) the message to show. Links in the
    mails start with the configured portal address, never with what the request says its host is."""
    throttle.signup(ip)
    mode = get_settings().signup
    if mode == "closed":
        raise DomainError(ErrorId.SIGNUP_CLOSED, CLOSED)
    fields = typed_phone(body.model_dump(exclude={"password"}), body.timezone)
    if mode == "instant":
        return _create(session, fields, hash_password(body.password), ip)
    email = body.email.lower()
    redis = get_redis()
    if not redis.set(f"{names.SIGNUP_MAIL_SENT_PREFIX}{email}", 1, nx=True, ex=RESEND_SECONDS):
        return CHECK_INBOX  # one mail per address per few minutes, whoever asks
    portal = get_settings().portal_url
    password_hash = hash_password(body.password)  # either way: the time taken tells nothing either
    if email_taken(session, email):
        enqueue(
            names.SEND_MAIL,
            email,
            "Someone tried to sign up with your address",
            "Someone (perhaps you) asked to create a Callroute account with this address, which "
            f"already has one. Sign in at {portal}/login, or choose a new password at "
            f"{portal}/forgot-password. If it was not you, ignore this mail.",
        )
        return CHECK_INBOX
    token = secrets.token_urlsafe(32)
    pending = {**fields, "password_hash": password_hash}
    key = f"{names.SIGNUP_PENDING_PREFIX}{tokens.token_hash(token)}"
    redis.set(key, json.dumps(pending), ex=CONFIRM_HOURS * 3600)
    enqueue(
        names.SEND_MAIL,
        email,
        "Finish signing up to Callroute",
        f"Hello {body.name},\n\nOpen this link to create your Callroute account:\n\n"
        f"{portal}/register/confirm?token={token}\n\nIt works once, within {CONFIRM_HOURS} hours. "
        "If you did not sign up, ignore this mail.",
    )
    return CHECK_INBOX


def confirm(session: Session, token: str, ip: str) -> SignedIn:
    """The account a mailed sign-up link asked for, created and signed in; the link is used up."""
    raw = get_redis().getdel(f"{names.SIGNUP_PENDING_PREFIX}{tokens.token_hash(token)}")
    if raw is None:
        raise DomainError(ErrorId.LINK_INVALID, BAD_LINK, "token")
    pending = json.loads(raw)
    if email_taken(session, pending["email"]):  # signed up twice, or created by an admin meanwhile
        raise DomainError(ErrorId.LINK_INVALID, BAD_LINK, "token")
    return _create(session, pending, pending.pop("password_hash"), ip)


# `fields`: create_user's keywords, as the sign-up stored them (JSON, read back in confirm).
def _create(session: Session, fields: dict[str, Any], password_hash: str, ip: str) -> SignedIn:
    user = create_user(session, role=Role.CUSTOMER, password_hash=password_hash, **fields)
    token, _ = tokens.issue(session, user.id or 0, TokenKind.SESSION, get_settings().session_hours, ip=ip)
    session.commit()
    return SignedIn(token=token, user=StoredUser.of(user))
