"""Account operations shared by sign-up, the admin's user screens, buyer logins and the signed-in
user's own account (profile, password, balance)."""

from typing import Any

from sqlalchemy import exists, select
from sqlmodel import Session

from core.billing import wallet
from core.infra.settings import get_settings
from core.models import Call, Number, Tariff, User, WalletTransaction
from core.values.enums import Role, UserStatus
from core.values.errors import DomainError, ErrorId, missing_row
from core.values.money import to_money
from core.values.passwords import hash_password, verify_password
from core.values.phone import contact_number
from portal_api.auth import revocation, throttle
from portal_api.auth.principal import Principal
from portal_api.schemas.billing import PortalConfig
from portal_api.schemas.users import Balance
from portal_api.services.common import record_status, touch, update_row
from portal_api.services.tenancy import get_visible


def email_taken(session: Session, email: str, except_id: int | None = None) -> bool:
    stmt = select(User.id).where(User.email == email.lower())
    if except_id is not None:
        stmt = stmt.where(User.id != except_id)
    return session.scalar(stmt) is not None


def check_tariff(session: Session, tariff_id: int | None) -> None:
    if tariff_id is not None and session.get(Tariff, tariff_id) is None:
        raise missing_row("tariff_id", "Tariff", tariff_id)


def create_user(
    session: Session,
    *,
    email: str,
    name: str,
    password: str = "",
    password_hash: str = "",
    role: Role,
    timezone: str = "UTC",
    created_by: int | None = None,
    tariff_id: int | None = None,
    **extra: object,
) -> User:
    if email_taken(session, email):
        raise DomainError(ErrorId.ACCOUNT_EMAIL_TAKEN, "An account with this email already exists.", "email")
    check_tariff(session, tariff_id)
    user = User(
        email=email.lower(),
        # A hash made earlier: a sign-up waiting for its mailed link keeps no plain password.
        password_hash=password_hash or hash_password(password),
        name=name,
        role=role,
        timezone=timezone,
        created_by=created_by,
        tariff_id=tariff_id,
        **extra,
    )
    session.add(user)
    session.flush()
    return user


def has_history(session: Session, user_id: int) -> bool:
    """Numbers, calls or ledger rows: what must outlive the account, so it can't be deleted."""
    return bool(
        session.scalar(
            select(
                exists().where(Number.user_id == user_id)
                | exists().where(Call.user_id == user_id)
                | exists().where(WalletTransaction.user_id == user_id)
            )
        )
    )


def set_user_status(session: Session, user: User, status: UserStatus, changed_by: int) -> None:
    """Any status but active revokes every token of the account (auth/revocation.py)."""
    if user.id == changed_by and status != UserStatus.ACTIVE:
        raise DomainError(ErrorId.ACCOUNT_OWN, "You can't deactivate your own account.")
    record_status(session, "user", user.id or 0, user.status, status.value, changed_by)
    user.status = status.value
    touch(user)
    session.add(user)
    if status != UserStatus.ACTIVE:
        revocation.deactivated(session, user)


def set_password(
    session: Session, user: User, password: str, keep_token_id: int | None = None, api_token: bool = False
) -> None:
    """A new password signs the user out everywhere (but the token `keep_token_id`, if given) and
    ends its impersonations either way; the API token only with `api_token`."""
    user.password_hash = hash_password(password)
    session.add(user)
    revocation.password_changed(session, user.id or 0, keep_token_id, api_token)


def typed_phone(changes: dict[str, Any], zone: str) -> dict[str, Any]:
    """`changes` with its phone, as a person typed it, in E.164: international, or national in the
    country of `zone` (the account's); refused (phone.invalid, 422) otherwise."""
    raw = changes.get("phone")
    if raw:
        try:
            changes["phone"] = contact_number(raw, zone)
        except ValueError as exc:
            message = str(exc)
            raise DomainError(ErrorId.PHONE_INVALID, f"{message[0].upper()}{message[1:]}.", "phone") from None
    return changes


def update_profile(session: Session, user: User, changes: dict[str, Any]) -> User:
    """The signed-in user's own name, time zone, company and phone."""
    typed_phone(changes, changes.get("timezone") or user.timezone)
    return update_row(session, user, changes, required=("name", "timezone"))


def change_password(
    session: Session, principal: Principal, current: str, new: str, ip: str, api_token: bool = False
) -> None:
    """Every other session of the user is signed out; the one asking stays signed in.

    The current password is checked as at sign-in, on the same counters: a token that never
    expires (an API token, perhaps stolen) is no unlimited oracle for the password."""
    user = principal.user
    throttle.attempt(user.email, ip, throttle.PASSWORD_CHECK)
    if not verify_password(user.password_hash, current):
        # Well formed, but not this user's password: refused (403), as a wrong password is at sign-in.
        raise DomainError(
            ErrorId.PASSWORD_CURRENT_WRONG, "The current password is incorrect.", "current_password"
        )
    throttle.succeeded(user.email, ip)
    if current == new:
        raise DomainError(
            ErrorId.PASSWORD_UNCHANGED, "The new password must differ from the current one.", "new_password"
        )
    set_password(session, user, new, keep_token_id=principal.token.id, api_token=api_token)
    session.commit()


def balance(session: Session, principal: Principal, user_id: int) -> Balance:
    """A user's wallet balance in its tariff's currency (USD without a tariff)."""
    user = get_visible(session, User, user_id, principal, "User")
    return Balance(user_id=user.id or 0, balance=user.balance, currency=wallet.currency(session, user))


def portal_config(session: Session, user: User) -> PortalConfig:
    """The business constants the portal shows money with: the wallet's currency, the low-balance line."""
    threshold = to_money(get_settings().low_balance_threshold)
    return PortalConfig(currency=wallet.currency(session, user), low_balance_threshold=threshold)
