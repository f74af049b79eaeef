"""Buyers (spec §7 Buyers): a customer's clients, each with its own role-3 login."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from fastapi import APIRouter
from sqlalchemy import select

from core.enums import Role, UserStatus
from core.models import Buyer, Call, Target, User
from core.routing.caps import connected_since, period_starts
from core.routing.schedule import is_open
from portal_api.accounts import create_user, email_taken, set_password, set_user_status
from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep, require_roles
from portal_api.call_names import named_page
from portal_api.crud import StatusIn, change_status, page_of, resolve_owner, text_filter
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import field_error
from portal_api.schemas.buyers import (
    BuyerBrief,
    BuyerCallRow,
    BuyerIn,
    BuyerOut,
    BuyerReportFilter,
    BuyerUpdate,
)
from portal_api.schemas.common import day_bounds
from portal_api.schemas.targets import BuyerTarget, TargetOut
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/buyer", tags=["buyers"])
BuyerOnly = require_roles(Role.BUYER)


@router.get(
    "/details",
    response_model=Envelope[PageData[BuyerOut]],
    summary="Buyers, paginated (a buyer sees only itself)",
)
def details(principal: PrincipalDep, session: SessionDep, pg: PageDep) -> dict:
    stmt = text_filter(scoped(select(Buyer), Buyer, principal), pg.params, Buyer.name, Buyer.email)
    return ok(page_of(session, stmt.order_by(Buyer.id.desc()), pg, BuyerOut.model_validate))  # type: ignore[union-attr]


@router.get(
    "/buyer-userId/{id}", response_model=Envelope[list[BuyerBrief]], summary="The buyers of customer `id`"
)
def of_user(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    get_visible(session, User, id, principal, "User")
    rows = session.scalars(select(Buyer).where(Buyer.user_id == id).order_by(Buyer.name))
    return ok([BuyerBrief.model_validate(b) for b in rows])


@router.get(
    "/target",
    response_model=Envelope[list[BuyerTarget]],
    summary="The signed-in buyer's own targets, with this hour's, today's and this month's calls",
    dependencies=[BuyerOnly],
)
def own_targets(principal: PrincipalDep, session: SessionDep) -> dict:
    rows = session.scalars(scoped(select(Target), Target, principal).order_by(Target.name))
    now = datetime.now(UTC)
    out = []
    for target in rows:
        local_now = now.astimezone(ZoneInfo(target.timezone))
        used = connected_since(session, target.id or 0, period_starts(local_now))
        out.append(
            BuyerTarget(
                **TargetOut.model_validate(target).model_dump(),
                calls_this_hour=used["hourly"],
                calls_today=used["daily"],
                calls_this_month=used["monthly"],
                open_now=is_open(target.schedule, local_now),
            )
        )
    return ok(out)


@router.post(
    "/buyer-report",
    response_model=Envelope[PageData[BuyerCallRow]],
    summary="Calls delivered to buyers (a buyer sees its own)",
)
def report(body: BuyerReportFilter, principal: PrincipalDep, session: SessionDep, pg: PageDep) -> dict:
    stmt = scoped(select(Call), Call, principal)
    if body.buyer_id is not None:
        stmt = stmt.where(Call.buyer_id == body.buyer_id)
    else:
        stmt = stmt.where(Call.buyer_id.is_not(None))  # type: ignore[union-attr]
    start, end = day_bounds(body.fromDate, body.toDate, principal.user.timezone)
    if start is not None:
        stmt = stmt.where(Call.started_at >= start)
    if end is not None:
        stmt = stmt.where(Call.started_at <= end)
    if body.disposition is not None:
        stmt = stmt.where(Call.disposition == body.disposition.value)
    if body.caller_number:
        stmt = stmt.where(Call.caller.contains(body.caller_number))  # type: ignore[attr-defined]
    stmt = stmt.order_by(Call.started_at.desc())  # type: ignore[attr-defined]
    return ok(named_page(session, stmt, pg, BuyerCallRow))


@router.post(
    "/add",
    response_model=Envelope[BuyerOut],
    status_code=201,
    summary="Create a buyer and its sign-in (role 3)",
)
def add(body: BuyerIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    owner_id = resolve_owner(session, principal, body.user_id)
    owner = session.get(User, owner_id)
    assert owner is not None
    login = create_user(
        session,
        email=body.email,
        password=body.password,
        name=body.name,
        role=Role.BUYER,
        timezone=owner.timezone,
        phone=body.phone,
        created_by=principal.user.id,
    )
    buyer = Buyer(
        user_id=owner_id, login_user_id=login.id, name=body.name, email=body.email, phone=body.phone
    )
    session.add(buyer)
    session.commit()
    return ok(BuyerOut.model_validate(buyer), "Buyer created; it can sign in with its email.")


@router.put("/{id}", response_model=Envelope[BuyerOut], summary="Update a buyer (and its sign-in)")
def update(id: IdPath, body: BuyerUpdate, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    buyer = get_visible(session, Buyer, id, principal, "Buyer")
    changes = body.model_dump(exclude_unset=True)
    if changes.get("name", "") is None or changes.get("email", "") is None:
        raise field_error("name" if "name" in changes else "email", "This field can't be empty.")
    login = session.get(User, buyer.login_user_id) if buyer.login_user_id else None
    if "email" in changes and email_taken(session, changes["email"], except_id=buyer.login_user_id):
        raise field_error("email", "An account with this email already exists.", status=409)
    password = changes.pop("password", None)
    for field, value in changes.items():
        setattr(buyer, field, value)
        if login is not None and field in ("name", "email", "phone"):
            setattr(login, field, value)
    if login is not None and password:
        set_password(session, login, password)
    if login is not None:
        login.updated_at = datetime.now(UTC)
        session.add(login)
    session.add(buyer)
    session.commit()
    return ok(BuyerOut.model_validate(buyer), "Buyer saved.")


@router.patch(
    "/status/{id}",
    response_model=Envelope[BuyerOut],
    summary="Activate or deactivate a buyer; its sign-in follows",
)
def status(id: IdPath, body: StatusIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    buyer = change_status(session, Buyer, id, body.status.value, principal, "Buyer")
    login = session.get(User, buyer.login_user_id) if buyer.login_user_id else None
    if login is not None:
        set_user_status(session, login, UserStatus(body.status.value), principal.user.id or 0)
    session.commit()
    return ok(BuyerOut.model_validate(buyer), f"Buyer is now {body.status.value}.")


@router.delete(
    "/{id}",
    response_model=Envelope[None],
    summary="Delete a buyer, its targets and its sign-in (refused while calls reference them)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    buyer = get_visible(session, Buyer, id, principal, "Buyer")
    login_id = buyer.login_user_id
    session.delete(buyer)
    session.flush()  # calls referencing the buyer or its targets refuse this (409)
    if login_id is not None:
        login = session.get(User, login_id)
        if login is not None:
            session.delete(login)
    session.commit()
    return ok(None, "Buyer deleted.")
