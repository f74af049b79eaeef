"""The admin's user management (spec §7 Users) and the wallet history."""

from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import delete, select

from core.enums import Role, TokenKind, TransactionType, UserStatus
from core.models import Buyer, User, WalletTransaction
from portal_api.accounts import (
    check_tariff,
    create_user,
    email_taken,
    has_history,
    set_password,
    set_user_status,
)
from portal_api.auth import tokens
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import ApiError, field_error
from portal_api.schemas.common import day_bounds
from portal_api.schemas.users import (
    ApiToken,
    UserBrief,
    UserCreate,
    UserOut,
    UserStatusIn,
    UserUpdate,
    WalletTransactionOut,
)
from portal_api.services.common import page_of, text_filter
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/user", tags=["users"])


@router.get(
    "/details",
    response_model=Envelope[PageData[UserOut]],
    summary="Users, paginated; `params` matches name, email or company",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    role: Annotated[int | None, Query(ge=1, le=3)] = None,
) -> dict:
    stmt = text_filter(select(User), pg.params, User.name, User.email, User.company)
    if role is not None:
        stmt = stmt.where(User.role == role)
    return ok(page_of(session, stmt.order_by(User.id.desc()), pg, UserOut.of))  # type: ignore[union-attr]


@router.get("/on", response_model=Envelope[list[UserBrief]], summary="Active customers, for pickers")
def active_customers(principal: AdminDep, session: SessionDep) -> dict:
    rows = session.scalars(
        select(User).where(User.role == Role.CUSTOMER, User.status == UserStatus.ACTIVE).order_by(User.name)
    )
    return ok([UserBrief.model_validate(u) for u in rows])


@router.post("/add", response_model=Envelope[UserOut], status_code=201, summary="Create a customer")
def add(body: UserCreate, principal: AdminDep, session: SessionDep) -> dict:
    user = create_user(session, role=Role.CUSTOMER, created_by=principal.user.id, **body.model_dump())
    session.commit()
    return ok(UserOut.of(user), "User created.")


@router.post(
    "/admin-user",
    response_model=Envelope[UserOut],
    status_code=201,
    summary="Create another administrator account",
)
def add_admin(body: UserCreate, principal: AdminDep, session: SessionDep) -> dict:
    user = create_user(session, role=Role.ADMIN, created_by=principal.user.id, **body.model_dump())
    session.commit()
    return ok(UserOut.of(user), "Administrator created.")


@router.post(
    "/admin/{user_id}", response_model=Envelope[UserOut], summary="Make an existing customer an administrator"
)
def make_admin(user_id: IdPath, principal: AdminDep, session: SessionDep) -> dict:
    user = get_visible(session, User, user_id, principal, "User")
    if user.role == Role.ADMIN:
        raise ApiError(409, "This user is already an administrator.")
    if user.role == Role.BUYER:
        raise ApiError(409, "A buyer login can't become an administrator.")
    if has_history(session, user_id) or session.scalar(select(Buyer.id).where(Buyer.user_id == user_id)):
        raise ApiError(
            409,
            "This customer owns numbers, buyers, calls or wallet history; "
            "create a separate administrator account instead.",
        )
    user.role = Role.ADMIN
    user.updated_at = datetime.now(UTC)
    session.add(user)
    session.commit()
    return ok(UserOut.of(user), "User is now an administrator.")


@router.get(
    "/wall",
    response_model=Envelope[PageData[WalletTransactionOut]],
    summary="Wallet transactions (payment history), newest first",
)
def wall(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    transaction_type: TransactionType | None = None,
    from_date: Annotated[
        date | None, Query(alias="fromDate", description="yyyy-mm-dd, your time zone")
    ] = None,
    to_date: Annotated[date | None, Query(alias="toDate", description="yyyy-mm-dd, inclusive")] = None,
    description: Annotated[str | None, Query(max_length=100)] = None,
) -> dict:
    stmt = scoped(select(WalletTransaction), WalletTransaction, principal, user_id)
    if transaction_type is not None:
        stmt = stmt.where(WalletTransaction.transaction_type == transaction_type.value)
    start, end = day_bounds(from_date, to_date, principal.user.timezone)
    if start is not None:
        stmt = stmt.where(WalletTransaction.created_at >= start)
    if end is not None:
        stmt = stmt.where(WalletTransaction.created_at <= end)
    text = description or pg.params
    if text:
        stmt = stmt.where(WalletTransaction.description.ilike(f"%{text}%"))  # type: ignore[attr-defined]
    stmt = stmt.order_by(WalletTransaction.created_at.desc(), WalletTransaction.id.desc())  # type: ignore[attr-defined, union-attr]
    return ok(page_of(session, stmt, pg, WalletTransactionOut.of))


@router.get("/id/{id}", response_model=Envelope[UserOut], summary="One user (a customer may read itself)")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    return ok(UserOut.of(get_visible(session, User, id, principal, "User")))


@router.put(
    "/token/{user_id}",
    response_model=Envelope[ApiToken],
    summary="Issue a new API token for a user; the previous one stops working",
)
def new_api_token(user_id: IdPath, principal: AdminDep, session: SessionDep) -> dict:
    user = get_visible(session, User, user_id, principal, "User")
    tokens.revoke_all(session, user_id, [TokenKind.API])
    token, _ = tokens.issue(session, user_id, TokenKind.API)
    session.commit()
    return ok(ApiToken(user_id=user.id or 0, token=token), "New API token issued; it is shown only once.")


@router.patch("/status/{id}", response_model=Envelope[UserOut], summary="Activate, deactivate or suspend")
def change_status(id: IdPath, body: UserStatusIn, principal: AdminDep, session: SessionDep) -> dict:
    user = get_visible(session, User, id, principal, "User")
    set_user_status(session, user, body.status, principal.user.id or 0)
    session.commit()
    return ok(UserOut.of(user), f"User is now {body.status.value}.")


@router.put("/{id}", response_model=Envelope[UserOut], summary="Update a user")
def update(id: IdPath, body: UserUpdate, principal: AdminDep, session: SessionDep) -> dict:
    user = get_visible(session, User, id, principal, "User")
    changes = body.model_dump(exclude_unset=True)
    for field in ("name", "email", "timezone"):
        if field in changes and changes[field] is None:
            raise field_error(field, f"{field} can't be empty.")
    if "email" in changes and email_taken(session, changes["email"], except_id=id):
        raise field_error("email", "An account with this email already exists.", status=409)
    check_tariff(session, changes.get("tariff_id"))
    password = changes.pop("password", None)
    if password:
        set_password(session, user, password)
    for field, value in changes.items():
        setattr(user, field, value)
    user.updated_at = datetime.now(UTC)
    session.add(user)
    session.commit()
    return ok(UserOut.of(user), "User saved.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a user with no history; one with numbers, calls or payments is refused (409)",
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> dict:
    user = get_visible(session, User, id, principal, "User")
    if user.id == principal.user.id:
        raise ApiError(409, "You can't delete your own account.")
    if has_history(session, id):
        raise ApiError(
            409,
            "This user owns numbers, calls or wallet history, so it can't be deleted; deactivate it instead.",
        )
    # The customer's buyers' logins go with it (buyer rows cascade from the customer).
    logins = select(Buyer.login_user_id).where(Buyer.user_id == id, Buyer.login_user_id.is_not(None))  # type: ignore[union-attr]
    login_ids = list(session.scalars(logins))
    session.delete(user)
    session.flush()
    if login_ids:
        session.execute(delete(User).where(User.id.in_(login_ids)))  # type: ignore[union-attr]
    session.commit()
    return ok(None, "User deleted.")
