"""Buyers: a customer's clients, each with its own role-3 sign-in that follows the buyer's name,
email, phone and status, and goes with it."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlmodel import Session

from core.models import Buyer, Call, Target, User
from core.routing.caps import connected_since, period_starts
from core.routing.schedule import is_open
from core.values.enums import AdminAction, Role, Status, UserStatus
from core.values.errors import DomainError, ErrorId
from core.values.passwords import NOT_CHOSEN
from portal_api.auth import admin_audit
from portal_api.auth.audit import Client
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData, paginate
from portal_api.schemas.buyers import (
    BuyerBrief,
    BuyerCallRow,
    BuyerIn,
    BuyerOut,
    BuyerReportFilter,
    BuyerUpdate,
    SignIn,
)
from portal_api.schemas.targets import BuyerTarget, TargetOut
from portal_api.services import buyer_logins, call_pages
from portal_api.services.accounts import set_password, set_user_status, typed_phone
from portal_api.services.common import (
    create_row,
    delete_row,
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


def _sign_in(buyer: Buyer, login: User | None) -> SignIn:
    if login is None:
        return "invited" if buyer.invited_at else "none"
    return "invited" if login.password_hash == NOT_CHOSEN else "active"


def _outs(session: Session, rows: list[Buyer]) -> list[BuyerOut]:
    """Buyers with their sign-in states, the sign-ins of a page read in one query."""
    ids = [b.login_user_id for b in rows if b.login_user_id]
    logins = {u.id: u for u in session.scalars(select(User).where(User.id.in_(ids)))} if ids else {}
    fields = ("id", "user_id", "name", "email", "phone", "status", "created_at", "invited_at")
    return [
        BuyerOut.model_validate(
            {**{f: getattr(b, f) for f in fields}, "sign_in": _sign_in(b, logins.get(b.login_user_id))}
        )
        for b in rows
    ]


def out(session: Session, buyer: Buyer) -> BuyerOut:
    return _outs(session, [buyer])[0]


def page(session: Session, principal: Principal, pg: PageParams) -> PageData[BuyerOut]:
    stmt = text_filter(scoped(select(Buyer), Buyer, principal), pg.params, Buyer.name, Buyer.email)
    stmt = stmt.order_by(Buyer.id.desc())
    return paginate(session, stmt, pg.page, pg.perpage, lambda rows: _outs(session, rows))


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
            if password and buyer.email:
                # Setting a password is setting a sign-in: made as on creation (a taken address: none).
                made = buyer_logins.create(
                    session, principal, owner, buyer.email, password, name=buyer.name, phone=buyer.phone
                )
                buyer.login_user_id = made.id if made else None
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


def invite(session: Session, principal: Principal, buyer_id: int) -> Buyer:
    """Mail the buyer's address a link to choose its sign-in's password (buyer_logins.invite)."""
    buyer = get_visible(session, Buyer, buyer_id, principal, "Buyer")
    if not buyer.email:
        raise DomainError(ErrorId.ROW_FIELD_EMPTY, "The buyer has no email to invite.", "email")
    owner = session.get(User, buyer.user_id)
    assert owner is not None
    login = buyer_logins.invite(session, principal, owner, buyer.email, _login(session, buyer), buyer.name)
    buyer.login_user_id = login.id if login else None
    buyer.invited_at = datetime.now(UTC)
    session.add(buyer)
    session.commit()
    return buyer


def delete(session: Session, principal: Principal, buyer_id: int) -> None:
    """The buyer, its targets (cascade) and its sign-in; calls referencing them refuse this (409).
    Only a buyer's own sign-in (role 3, its one buyer's: `login_user_id` is unique) goes with it."""

    def complete(buyer: Buyer) -> None:
        login = _login(session, buyer)
        if login is not None and login.role == Role.BUYER:
            session.delete(login)

    delete_row(session, Buyer, buyer_id, principal, "Buyer", complete=complete)
