"""Account operations shared by sign-up, the admin's user screens and buyer logins."""

from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlmodel import Session

from core.enums import Role, TokenKind, UserStatus
from core.models import Call, Number, StatusChange, Tariff, User, WalletTransaction
from core.passwords import hash_password
from portal_api.auth import tokens
from portal_api.errors import ApiError, field_error


def email_taken(session: Session, email: str, except_id: int | None = None) -> bool:
    stmt = select(User.id).where(User.email == email.lower())
    if except_id is not None:
        stmt = stmt.where(User.id != except_id)
    return session.scalar(stmt) is not None


def wallet_currency(session: Session, user: User) -> str:
    """The currency of the user's wallet: its tariff's, USD without one."""
    tariff = session.get(Tariff, user.tariff_id) if user.tariff_id else None
    return tariff.currency if tariff else "USD"


def check_tariff(session: Session, tariff_id: int | None) -> None:
    if tariff_id is not None and session.get(Tariff, tariff_id) is None:
        raise field_error("tariff_id", f"Tariff {tariff_id} does not exist.")


def create_user(
    session: Session,
    *,
    email: str,
    password: str,
    name: str,
    role: Role,
    timezone: str = "UTC",
    created_by: int | None = None,
    **extra: object,
) -> User:
    if email_taken(session, email):
        raise field_error("email", "An account with this email already exists.", status=409)
    check_tariff(session, extra.get("tariff_id"))  # type: ignore[arg-type]
    user = User(
        email=email.lower(),
        password_hash=hash_password(password),
        name=name,
        role=role,
        timezone=timezone,
        created_by=created_by,
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


def record_status(
    session: Session, entity: str, entity_id: int, old: str | None, new: str, changed_by: int | None
) -> None:
    session.add(
        StatusChange(
            entity=entity, entity_id=entity_id, old_status=old, new_status=new, changed_by=changed_by
        )
    )


def set_user_status(session: Session, user: User, status: UserStatus, changed_by: int) -> None:
    if user.id == changed_by and status != UserStatus.ACTIVE:
        raise ApiError(409, "You can't deactivate your own account.")
    record_status(session, "user", user.id or 0, user.status, status.value, changed_by)
    user.status = status.value
    user.updated_at = datetime.now(UTC)
    session.add(user)


def set_password(session: Session, user: User, password: str, keep_token_id: int | None = None) -> None:
    """A new password signs the user out everywhere (but the session `keep_token_id`, if given)."""
    user.password_hash = hash_password(password)
    session.add(user)
    tokens.revoke_all(session, user.id or 0, [TokenKind.SESSION], keep_id=keep_token_id)
