"""Buyers: a customer's clients, each with its own role-3 sign-in that follows the buyer's name,
email, phone and status, and goes with it."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlmodel import Session

from core.models import Buyer, Call, Target, User
from core.routing.caps import connected_since, period_starts
from core.routing.schedule import is_open
from core.values.enums import AdminAction, Status, UserStatus
from core.values.errors import DomainError, ErrorId
from portal_api.auth import admin_audit
from portal_api.auth.audit import Client
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.buyers import (
    BuyerBrief,
    BuyerCallRow,
    BuyerIn,
    BuyerOut,
    BuyerReportFilter,
    BuyerUpdate,
)
from portal_api.schemas.targets import BuyerTarget, TargetOut
from portal_api.services import buyer_logins, call_pages
from portal_api.services.accounts import set_password, set_user_status, typed_phone
from portal_api.services.common import (
    create_row,
    delete_row,
    page_of,
    resolve_owner,
    set_status,
    text_filter,
    touch,
    update_row,
    within_days,
)
from portal_api.services.tenancy import get_visible, scoped, visible_id


def _login(session: Session, buyer: Buyer) -> User | None:
    return session.get(User, buyer.login_user_id) if buyer.login_user_id else None


def page(session: Session, principal: Principal, pg: PageParams) -> PageData[BuyerOut]:
    stmt = text_filter(scoped(select(Buyer), Buyer, principal), pg.params, Buyer.name, Buyer.email)
    return page_of(session, stmt.order_by(Buyer.id.desc()), pg, BuyerOut.model_validate)


def of_user(session: Session, principal: Principal, user_id: int) -> list[BuyerBrief]:
    get_visible(session, User, user_id, principal, "User")
    rows = session.scalars(select(Buyer).where(Buyer.user_id == user_id).order_by(Buyer.name))
    return [BuyerBrief.model_validate(b) for b in rows]


def own_targets(session: Session, principal: Principal) -> list[BuyerTarget]:
    """The buyer's targets with the calls counted against each cap (in the target's own zone)."""
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
    return out


def report(
    session: Session, principal: Principal, body: BuyerReportFilter, pg: PageParams, after: int | None
) -> PageData[BuyerCallRow]:
    """Calls delivered to buyers (a buyer: its own), newest first."""
    stmt = scoped(select(Call), Call, principal)
    if visible_id(session, Buyer, body.buyer_id, principal, "buyer_id", "Buyer") is not None:
        stmt = stmt.where(Call.buyer_id == body.buyer_id)
    else:
        stmt = stmt.where(Call.buyer_id.is_not(None))
    stmt = within_days(stmt, Call.started_at, body.fromDate, body.toDate, principal.user.timezone)
    if body.disposition is not None:
        stmt = stmt.where(Call.disposition == body.disposition.value)
    if body.caller_number:
        stmt = stmt.where(call_pages.number_filter(Call.caller, body.caller_number))
    return call_pages.page(session, stmt, pg, after, BuyerCallRow)


def create(session: Session, principal: Principal, body: BuyerIn) -> Buyer:
    owner_id = resolve_owner(session, principal, body.user_id)
    owner = session.get(User, owner_id)
    assert owner is not None
    phone = typed_phone({"phone": body.phone}, owner.timezone)["phone"]
    login = buyer_logins.create(
        session, principal, owner, body.email, body.password, name=body.name, phone=phone
    )
    buyer = Buyer(
        user_id=owner_id,
        login_user_id=login.id if login else None,
        name=body.name,
        email=body.email,
        phone=phone,
    )
    return create_row(session, buyer)


def update(session: Session, principal: Principal, buyer_id: int, body: BuyerUpdate, client: Client) -> Buyer:
    buyer = get_visible(session, Buyer, buyer_id, principal, "Buyer")
    changes = body.model_dump(exclude_unset=True)
    if changes.get("name", "") is None or changes.get("email", "") is None:
        field = "name" if "name" in changes else "email"
        raise DomainError(ErrorId.ROW_FIELD_EMPTY, "This field can't be empty.", field)
    login = _login(session, buyer)
    owner = session.get(User, buyer.user_id)
    assert owner is not None
    typed_phone(changes, owner.timezone)
    login_fields = [f for f in ("name", "email", "phone") if f in changes]
    email = changes.get("email")
    if (
        login is not None
        and email
        and not buyer_logins.follows_new_email(session, principal, owner, login, email)
    ):
        login_fields.remove("email")
    password = changes.pop("password", None)

    def complete(buyer: Buyer) -> None:
        if login is None:
            return
        for field in login_fields:
            setattr(login, field, changes[field])
        if password:
            set_password(session, login, password)
            if principal.is_admin:
                admin_audit.record(session, principal.user, AdminAction.PASSWORD, login, client)
        touch(login)
        session.add(login)

    return update_row(session, buyer, changes, required=(), complete=complete)


def change_status(
    session: Session, principal: Principal, buyer_id: int, status: Status, client: Client
) -> Buyer:
    """The buyer's sign-in follows its status."""

    def complete(buyer: Buyer) -> None:
        login = _login(session, buyer)
        if login is not None:
            if principal.is_admin:
                detail = f"{login.status} -> {status.value}"
                admin_audit.record(session, principal.user, AdminAction.STATUS, login, client, detail)
            set_user_status(session, login, UserStatus(status.value), principal.user.id or 0)

    return set_status(session, Buyer, buyer_id, status.value, principal, "Buyer", complete=complete)


def delete(session: Session, principal: Principal, buyer_id: int) -> None:
    """The buyer, its targets (cascade) and its sign-in; calls referencing them refuse this (409)."""

    def complete(buyer: Buyer) -> None:
        if buyer.login_user_id is not None:
            login = session.get(User, buyer.login_user_id)
            if login is not None:
                session.delete(login)

    delete_row(session, Buyer, buyer_id, principal, "Buyer", complete=complete)
