"""The admin's user management and the wallet history (payments, top-ups, charges) it shows."""

from datetime import date

from sqlalchemy import delete as delete_rows
from sqlalchemy import select
from sqlmodel import Session

from core.models import Buyer, User, WalletTransaction
from core.values.enums import AdminAction, Role, TokenKind, TransactionType, UserStatus
from core.values.errors import DomainError, ErrorId
from portal_api.auth import admin_audit, tokens
from portal_api.auth.audit import Client
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.users import (
    ApiToken,
    UserBrief,
    UserCreate,
    UserOut,
    UserUpdate,
    WalletTransactionOut,
)
from portal_api.services.accounts import (
    check_tariff,
    create_user,
    email_taken,
    has_history,
    set_password,
    set_user_status,
    typed_phone,
)
from portal_api.services.common import (
    contains_text,
    delete_row,
    page_of,
    text_filter,
    update_row,
    within_days,
)
from portal_api.services.tenancy import get_visible, scoped


def page(session: Session, pg: PageParams, role: int | None) -> PageData[UserOut]:
    stmt = text_filter(select(User), pg.params, User.name, User.email, User.company)
    if role is not None:
        stmt = stmt.where(User.role == role)
    return page_of(session, stmt.order_by(User.id.desc()), pg, UserOut.of)


def active_customers(session: Session) -> list[UserBrief]:
    rows = session.scalars(
        select(User).where(User.role == Role.CUSTOMER, User.status == UserStatus.ACTIVE).order_by(User.name)
    )
    return [UserBrief.model_validate(u) for u in rows]


def create(session: Session, principal: Principal, body: UserCreate, role: Role) -> User:
    fields = typed_phone(body.model_dump(), body.timezone)
    user = create_user(session, role=role, created_by=principal.user.id, **fields)
    session.commit()
    return user


def make_admin(session: Session, principal: Principal, user_id: int, client: Client) -> User:
    user = get_visible(session, User, user_id, principal, "User")
    if user.role == Role.ADMIN:
        raise DomainError(ErrorId.ACCOUNT_ALREADY_ADMIN, "This user is already an administrator.")
    if user.role == Role.BUYER:
        raise DomainError(ErrorId.ACCOUNT_BUYER_NOT_ADMIN, "A buyer login can't become an administrator.")
    if has_history(session, user_id) or session.scalar(select(Buyer.id).where(Buyer.user_id == user_id)):
        raise DomainError(
            ErrorId.ACCOUNT_HAS_HISTORY,
            "This customer owns numbers, buyers, calls or wallet history; "
            "create a separate administrator account instead.",
        )
    admin_audit.record(session, principal.user, AdminAction.ROLE, user, client, "customer -> admin")
    return update_row(session, user, {"role": Role.ADMIN})


def wallet_history(
    session: Session,
    principal: Principal,
    pg: PageParams,
    user_id: int | None,
    transaction_type: TransactionType | None,
    from_date: date | None,
    to_date: date | None,
    description: str | None,
) -> PageData[WalletTransactionOut]:
    """Wallet transactions, newest first; `description` (else `params`) matches their text."""
    stmt = scoped(select(WalletTransaction), WalletTransaction, principal, user_id)
    if transaction_type is not None:
        stmt = stmt.where(WalletTransaction.transaction_type == transaction_type.value)
    stmt = within_days(stmt, WalletTransaction.created_at, from_date, to_date, principal.user.timezone)
    text = description or pg.params
    if text:
        stmt = stmt.where(contains_text(WalletTransaction.description, text))
    stmt = stmt.order_by(WalletTransaction.created_at.desc(), WalletTransaction.id.desc())
    return page_of(session, stmt, pg, WalletTransactionOut.of)


def visible(session: Session, principal: Principal, user_id: int) -> User:
    return get_visible(session, User, user_id, principal, "User")


def new_api_token(session: Session, principal: Principal, user_id: int, client: Client) -> ApiToken:
    """A new API token for the user; the previous one stops working."""
    user = get_visible(session, User, user_id, principal, "User")
    admin_audit.record(session, principal.user, AdminAction.API_TOKEN, user, client)
    tokens.revoke_all(session, user_id, [TokenKind.API])
    token, _ = tokens.issue(session, user_id, TokenKind.API)
    session.commit()
    return ApiToken(user_id=user.id or 0, token=token)


def change_status(
    session: Session, principal: Principal, user_id: int, status: UserStatus, client: Client
) -> User:
    user = get_visible(session, User, user_id, principal, "User")
    detail = f"{user.status} -> {status.value}"
    set_user_status(session, user, status, principal.user.id or 0)
    admin_audit.record(session, principal.user, AdminAction.STATUS, user, client, detail)
    session.commit()
    return user


def update(session: Session, principal: Principal, user_id: int, body: UserUpdate, client: Client) -> User:
    user = get_visible(session, User, user_id, principal, "User")
    changes = typed_phone(body.model_dump(exclude_unset=True), body.timezone or user.timezone)
    password = changes.pop("password", None)

    def check() -> None:
        if "email" in changes and email_taken(session, changes["email"], except_id=user_id):
            raise DomainError(
                ErrorId.ACCOUNT_EMAIL_TAKEN, "An account with this email already exists.", "email"
            )
        check_tariff(session, changes.get("tariff_id"))
        if password:
            set_password(session, user, password)
            admin_audit.record(session, principal.user, AdminAction.PASSWORD, user, client)

    return update_row(session, user, changes, required=("name", "email", "timezone"), check=check)


def delete(session: Session, principal: Principal, user_id: int, client: Client) -> None:
    """A user without history; its buyers' sign-ins go with it (buyer rows cascade from the customer)."""
    login_ids: list[int] = []

    def check(user: User) -> None:
        if user.id == principal.user.id:
            raise DomainError(ErrorId.ACCOUNT_OWN, "You can't delete your own account.")
        if has_history(session, user_id):
            raise DomainError(
                ErrorId.ROW_IN_USE,
                "This user owns numbers, calls or wallet history, so it can't be deleted; "
                "deactivate it instead.",
            )
        logins = select(Buyer.login_user_id).where(
            Buyer.user_id == user_id,
            Buyer.login_user_id.is_not(None),
        )
        login_ids.extend(i for i in session.scalars(logins) if i is not None)
        admin_audit.record(session, principal.user, AdminAction.DELETE, user, client)

    def complete(user: User) -> None:
        if login_ids:
            session.execute(delete_rows(User).where(User.id.in_(login_ids)))

    delete_row(session, User, user_id, principal, "User", check=check, complete=complete)
