"""Tracking numbers (spec §7 Numbers): the inventory and pool lists, the number payment report,
adding, editing and switching numbers. Taking and releasing them is services.number_pool."""

from datetime import date
from typing import TypeVarTuple

from sqlalchemy import Select, select
from sqlmodel import Session

from core.models import Campaign, Country, Number, TrafficSource, Vendor, WalletTransaction
from core.values.enums import NumberStatus
from core.values.errors import DomainError, ErrorId, missing_row
from core.values.phone import region_of, region_problem
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData, paginate
from portal_api.schemas.common import day_bounds
from portal_api.schemas.numbers import (
    PAYMENT_KINDS,
    NumberCreate,
    NumberOut,
    NumberPaymentOut,
    NumberRow,
    NumberUpdate,
    PaymentType,
)
from portal_api.services.call_names import named_page
from portal_api.services.common import change_status, page_of, text_filter
from portal_api.services.tenancy import get_visible, scoped, visible_id

Ts = TypeVarTuple("Ts")  # a statement's columns, kept


def page(
    session: Session,
    principal: Principal,
    pg: PageParams,
    user_id: int | None,
    status: NumberStatus | None,
    country_id: int | None,
    vendor_id: int | None,
    campaign_id: int | None = None,
) -> PageData[NumberRow]:
    """Numbers with customer and campaign names (admin: all; customer: its own), newest first."""
    visible_id(session, Country, country_id, principal, "country_id", "Country", shared=True)
    visible_id(session, Vendor, vendor_id, principal, "vendor_id", "Vendor")
    visible_id(session, Campaign, campaign_id, principal, "campaign_id", "Campaign")
    stmt = _filtered(scoped(select(Number), Number, principal, user_id), pg.params, status, country_id)
    if vendor_id is not None:
        stmt = stmt.where(Number.vendor_id == vendor_id)
    if campaign_id is not None:
        stmt = stmt.where(Number.campaign_id == campaign_id)
    return named_page(session, stmt.order_by(Number.id.desc()), pg, NumberRow)


def pool_page(
    session: Session, principal: Principal, pg: PageParams, country_id: int | None
) -> PageData[NumberOut]:
    """The unassigned pool by number (customers see only the active numbers they can take)."""
    visible_id(session, Country, country_id, principal, "country_id", "Country", shared=True)
    stmt = select(Number).where(Number.user_id.is_(None))
    status = None if principal.is_admin else NumberStatus.ACTIVE
    stmt = _filtered(stmt, pg.params, status, country_id)
    return page_of(session, stmt.order_by(Number.number), pg, NumberOut.model_validate)


def payments_page(
    session: Session,
    principal: Principal,
    pg: PageParams,
    *,
    user_id: int | None,
    from_date: date | None,
    to_date: date | None,
    payment_type: PaymentType | None,
) -> PageData[NumberPaymentOut]:
    """Setup and monthly fees charged, newest first, between two days of the caller's time zone."""
    kinds = [PAYMENT_KINDS[payment_type]] if payment_type else list(PAYMENT_KINDS.values())
    stmt = select(WalletTransaction).outerjoin(Number, Number.id == WalletTransaction.number_id)
    stmt = scoped(stmt, WalletTransaction, principal, user_id)
    stmt = stmt.where(WalletTransaction.transaction_type.in_([k.value for k in kinds]))
    start, end = day_bounds(from_date, to_date, principal.user.timezone)
    if start is not None:
        stmt = stmt.where(WalletTransaction.created_at >= start)
    if end is not None:
        stmt = stmt.where(WalletTransaction.created_at <= end)
    stmt = text_filter(stmt, pg.params, Number.number, WalletTransaction.description)
    stmt = stmt.order_by(WalletTransaction.created_at.desc(), WalletTransaction.id.desc())

    def with_numbers(rows: list[WalletTransaction]) -> list[NumberPaymentOut]:
        # The page's numbers in one query; the statement yields ledger rows only.
        ids = {row.number_id for row in rows}
        found = session.execute(select(Number.id, Number.number).where(Number.id.in_(ids)))
        numbers = {number_id: number for number_id, number in found}
        return [NumberPaymentOut.of(row, numbers.get(row.number_id)) for row in rows]

    return paginate(session, stmt, pg.page, pg.perpage, with_numbers)


def one(session: Session, number_id: int, principal: Principal) -> Number:
    return get_visible(session, Number, number_id, principal, "Number")


def add(session: Session, body: NumberCreate) -> Number:
    """A new number in the pool; committed."""
    if session.scalar(select(Number.id).where(Number.number == body.number)) is not None:
        raise DomainError(ErrorId.NUMBER_TAKEN, f"{body.number} is already in the inventory.", "number")
    _check_vendor(session, body.vendor_id)
    number = Number(
        number=body.number,
        country_id=_country_id(session, body.number, body.country_id, body.iso2),
        vendor_id=body.vendor_id,
        setup_fee=body.setup_fee,
        monthly_fee=body.monthly_fee,
    )
    session.add(number)
    session.commit()
    return number


def update(session: Session, number_id: int, body: NumberUpdate, principal: Principal) -> Number:
    """Admin: fees, vendor, country, campaign, source; customer: only the campaign and the source of
    its own number. Committed."""
    number = one(session, number_id, principal)
    changes = body.model_dump(exclude_unset=True)
    if not principal.is_admin and set(changes) - {"campaign_id", "source_id"}:
        raise DomainError(
            ErrorId.NUMBER_ADMIN_FIELDS,
            "A customer can change only campaign_id and source_id; fees, vendor and country are set by"
            " the admin.",
        )
    for field in ("setup_fee", "monthly_fee", "country_id", "iso2"):
        if field in changes and changes[field] is None:
            raise DomainError(ErrorId.ROW_FIELD_EMPTY, f"{field} can't be empty.", field)
    if changes.get("campaign_id") is not None:
        _check_campaign(session, number, changes["campaign_id"])
    if changes.get("source_id") is not None:
        _check_source(session, number, changes["source_id"])
    _check_vendor(session, changes.get("vendor_id"))
    if "country_id" in changes or "iso2" in changes:
        changes["country_id"] = _country_id(session, number.number, body.country_id, body.iso2)
        changes.pop("iso2", None)
    for field, value in changes.items():
        setattr(number, field, value)
    session.add(number)
    session.commit()
    return number


def set_status(session: Session, number_id: int, status: NumberStatus, principal: Principal) -> Number:
    """Activate, deactivate or suspend a number, recording who did; committed."""
    number = change_status(session, Number, number_id, status.value, principal, "Number")
    session.commit()
    return number


def _country_id(session: Session, number: str, country_id: int | None, iso2: str | None) -> int | None:
    """The chosen country, which must be the number's own; without a choice, the number's own."""
    if country_id is None and iso2 is None:
        return session.scalar(select(Country.id).where(Country.iso2 == region_of(number)))
    field = "country_id" if country_id is not None else "iso2"
    if country_id is not None:
        country = session.get(Country, country_id)
    else:
        country = session.scalars(select(Country).where(Country.iso2 == iso2)).first()
    if country is None:
        raise missing_row(field, "Country", country_id or iso2)
    problem = region_problem(number, country.iso2)
    if problem:
        raise DomainError(ErrorId.NUMBER_WRONG_COUNTRY, f"{problem}.", field)
    return country.id


def _check_vendor(session: Session, vendor_id: int | None) -> None:
    if vendor_id is not None and session.get(Vendor, vendor_id) is None:
        raise missing_row("vendor_id", "Vendor", vendor_id)


def _check_campaign(session: Session, number: Number, campaign_id: int) -> None:
    if number.user_id is None:
        message = "A number in the pool can't route to a campaign; assign it first."
        raise DomainError(ErrorId.NUMBER_IN_POOL, message, "campaign_id")
    owned = select(Campaign.id).where(Campaign.id == campaign_id, Campaign.user_id == number.user_id)
    if session.scalar(owned) is None:
        # Same answer for a missing and a foreign campaign (404, as missing_row): ids of other
        # tenants leak nothing.
        message = f"Campaign {campaign_id} is not one of this number owner's campaigns."
        raise DomainError(ErrorId.ROW_MISSING, message, "campaign_id")


def _check_source(session: Session, number: Number, source_id: int) -> None:
    if number.user_id is None:
        message = "A number in the pool belongs to no traffic source; assign it first."
        raise DomainError(ErrorId.NUMBER_IN_POOL, message, "source_id")
    owned = select(TrafficSource.id).where(
        TrafficSource.id == source_id, TrafficSource.user_id == number.user_id
    )
    if session.scalar(owned) is None:  # a foreign source answers as a missing one
        message = f"Source {source_id} is not one of this number owner's traffic sources."
        raise DomainError(ErrorId.ROW_MISSING, message, "source_id")


def _filtered(
    stmt: Select[*Ts], params: str | None, status: NumberStatus | None, country_id: int | None
) -> Select[*Ts]:
    stmt = text_filter(stmt, params, Number.number)
    if status is not None:
        stmt = stmt.where(Number.status == status.value)
    if country_id is not None:
        stmt = stmt.where(Number.country_id == country_id)
    return stmt
