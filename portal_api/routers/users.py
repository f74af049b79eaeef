"""The admin's user management (spec §7 Users) and the wallet history."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from core.values.enums import AdminAction, Role, TransactionType
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep, client_of
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.common import Day
from portal_api.schemas.users import (
    AdminAuditRow,
    ApiToken,
    UserBrief,
    UserCreate,
    UserOut,
    UserStatusIn,
    UserUpdate,
    WalletTransactionOut,
)
from portal_api.services import admin_audit, users
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/user", tags=["users"])


@router.get(
    "/details",
    summary="Users, paginated; `params` matches name, email or company",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    role: Annotated[int | None, Query(ge=1, le=3)] = None,
) -> Envelope[PageData[UserOut]]:
    return ok(users.page(session, pg, role))


@router.get("/on", summary="Active customers, for pickers")
def active_customers(principal: AdminDep, session: SessionDep) -> Envelope[list[UserBrief]]:
    return ok(users.active_customers(session))


@router.post("/add", status_code=201, summary="Create a customer")
def add(body: UserCreate, principal: AdminDep, session: SessionDep) -> Envelope[UserOut]:
    return ok(UserOut.of(users.create(session, principal, body, Role.CUSTOMER)), "User created.")


@router.post(
    "/admin-user",
    status_code=201,
    summary="Create another administrator account",
)
def add_admin(body: UserCreate, principal: AdminDep, session: SessionDep) -> Envelope[UserOut]:
    return ok(UserOut.of(users.create(session, principal, body, Role.ADMIN)), "Administrator created.")


@router.post(
    "/admin/{user_id:int}",
    summary="Make an existing customer an administrator",
)
def make_admin(
    user_id: IdPath, request: Request, principal: AdminDep, session: SessionDep
) -> Envelope[UserOut]:
    user = users.make_admin(session, principal, user_id, client_of(request))
    return ok(UserOut.of(user), "User is now an administrator.")


@router.get(
    "/wall",
    summary="Wallet transactions (payment history), newest first",
)
def wall(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    transaction_type: TransactionType | None = None,
    from_date: Annotated[
        Day | None, Query(alias="fromDate", description="yyyy-mm-dd, your time zone")
    ] = None,
    to_date: Annotated[Day | None, Query(alias="toDate", description="yyyy-mm-dd, inclusive")] = None,
    description: Annotated[str | None, Query(max_length=100)] = None,
) -> Envelope[PageData[WalletTransactionOut]]:
    return ok(
        users.wallet_history(
            session, principal, pg, user_id, transaction_type, from_date, to_date, description
        )
    )


@router.get(
    "/audit",
    summary="The admin audit: every administrator action that changed an account, newest first",
)
def audit(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    admin_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Done by this administrator")] = None,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="Done to this account")] = None,
    action: AdminAction | None = None,
    from_date: Annotated[
        Day | None, Query(alias="fromDate", description="yyyy-mm-dd, your time zone")
    ] = None,
    to_date: Annotated[Day | None, Query(alias="toDate", description="yyyy-mm-dd, inclusive")] = None,
) -> Envelope[PageData[AdminAuditRow]]:
    return ok(admin_audit.history(session, principal, pg, admin_id, user_id, action, from_date, to_date))


@router.get("/id/{id:int}", summary="One user (a customer may read itself)")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[UserOut]:
    return ok(UserOut.of(users.visible(session, principal, id)))


@router.put(
    "/token/{user_id:int}",
    summary="Issue a new API token for a user; the previous one stops working",
)
def new_api_token(
    user_id: IdPath, request: Request, principal: AdminDep, session: SessionDep
) -> Envelope[ApiToken]:
    token = users.new_api_token(session, principal, user_id, client_of(request))
    return ok(token, "New API token issued; it is shown only once.")


@router.patch("/status/{id:int}", summary="Activate, deactivate or suspend")
def change_status(
    id: IdPath, body: UserStatusIn, request: Request, principal: AdminDep, session: SessionDep
) -> Envelope[UserOut]:
    user = users.change_status(session, principal, id, body.status, client_of(request))
    return ok(UserOut.of(user), f"User is now {body.status.value}.")


@router.put("/{id:int}", summary="Update a user")
def update(
    id: IdPath, body: UserUpdate, request: Request, principal: AdminDep, session: SessionDep
) -> Envelope[UserOut]:
    return ok(UserOut.of(users.update(session, principal, id, body, client_of(request))), "User saved.")


@router.delete(
    "/{id:int}",
    summary="Delete a user with no history; one with numbers, calls or payments is refused (409)",
)
def remove(id: IdPath, request: Request, principal: AdminDep, session: SessionDep) -> Envelope[None]:
    users.delete(session, principal, id, client_of(request))
    return ok(None, "User deleted.")
