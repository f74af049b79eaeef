"""A buyer's sign-in (role 3), made or moved without telling a customer whether an address already
has an account somewhere on the platform (docs/security.md, "Adding a buyer").

Sign-in addresses are unique across every tenant, so a 409 on a taken address would let any
customer test addresses. A customer's request therefore gets the same answer either way: on a taken
address the buyer is saved without a sign-in (or its sign-in keeps its old address), and the
address's owner is told by mail. An administrator, who sees every account anyway, gets the 409.
"""

from sqlmodel import Session

from core.infra import mail, names
from core.infra.jobs import enqueue
from core.infra.redis_client import get_redis
from core.models import User
from core.values.enums import Role
from core.values.errors import DomainError, ErrorId
from core.values.passwords import NOT_CHOSEN, hash_password
from portal_api.auth.principal import Principal
from portal_api.services import password_reset
from portal_api.services.accounts import create_user, email_taken

TAKEN = "An account with this email already exists."
# One notice per address per hour, whoever asks: the mail can't be used to flood a mailbox.
NOTICE_SECONDS = 3600
INVITE_DAYS = 7


def create(
    session: Session,
    principal: Principal,
    owner: User,
    email: str,
    password: str,
    name: str,
    phone: str | None,
) -> User | None:
    """The buyer's new sign-in, or None where the address already has an account."""
    if email_taken(session, email):
        _refuse_or_notify(principal, owner, email)
        hash_password(password)  # as a new sign-in would: the time taken tells nothing either
        return None
    return create_user(
        session,
        email=email,
        password=password,
        role=Role.BUYER,
        timezone=owner.timezone,
        created_by=principal.user.id,
        name=name,
        phone=phone,
    )


def invite(
    session: Session, principal: Principal, owner: User, email: str, login: User | None, name: str
) -> User | None:
    """Mail the buyer's address a link to choose its password; its sign-in (made now, without a
    password, where it has none) or None where the address has an account (told, as `create` does)."""
    if not mail.configured():
        raise DomainError(
            ErrorId.BUYER_INVITE_NO_MAIL,
            "Mail is not set up on this server: set the buyer's password on its form instead.",
        )
    if login is not None and login.password_hash != NOT_CHOSEN:
        raise DomainError(
            ErrorId.BUYER_CAN_SIGN_IN, "This buyer can sign in already; its password is its own."
        )
    if login is None:
        if email_taken(session, email):
            _refuse_or_notify(principal, owner, email)
            return None
        login = create_user(
            session,
            email=email,
            password_hash=NOT_CHOSEN,
            role=Role.BUYER,
            timezone=owner.timezone,
            created_by=principal.user.id,
            name=name,
        )
    company = owner.company or owner.name
    enqueue(
        names.SEND_MAIL,
        login.email,
        f"{company} invites you to Callroute as its buyer",
        f"Hello {name},\n\n{company} sends you its calls through Callroute. Choose your password "
        f"to see them:\n\n{password_reset.link(login, INVITE_DAYS * 24 * 60)}\n\nThe link works "
        f"once, within {INVITE_DAYS} days; your sign-in is this address, {login.email}.",
    )
    return login


def follows_new_email(session: Session, principal: Principal, owner: User, login: User, email: str) -> bool:
    """Whether the buyer's sign-in may take the buyer's new address (False: it keeps its own)."""
    if not email_taken(session, email, except_id=login.id):
        return True
    _refuse_or_notify(principal, owner, email)
    return False


def _refuse_or_notify(principal: Principal, owner: User, email: str) -> None:
    if principal.is_admin:
        raise DomainError(ErrorId.ACCOUNT_EMAIL_TAKEN, TAKEN, "email")
    address = email.lower()
    if not mail.configured():
        return
    if not get_redis().set(f"{names.BUYER_NOTICE_SENT_PREFIX}{address}", 1, nx=True, ex=NOTICE_SECONDS):
        return
    enqueue(
        names.SEND_MAIL,
        address,
        "A Callroute customer added your address as a buyer",
        f"{owner.company or owner.name} added this address as one of its buyers on Callroute. It "
        "already has a Callroute account, so no second sign-in was made: the buyer's calls and "
        "reports are not visible from your account. If you work with them, ask them to add "
        "another address of yours. If you don't, ignore this mail.",
    )
