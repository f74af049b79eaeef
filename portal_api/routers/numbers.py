"""Tracking numbers (spec §7 Numbers): the admin's inventory and pool, customers' own numbers,
purchases with their setup fees, the number payment report and CSV uploads."""

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, File, Query, UploadFile
from sqlalchemy import Select, select
from sqlmodel import Session

from core.enums import NumberStatus, Role
from core.models import Campaign, Country, Number, NumberUploadBatch, User, Vendor, WalletTransaction
from core.money import format_money
from core.phone import region_of
from portal_api import number_pool
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep, Principal, require_roles
from portal_api.call_names import named_page
from portal_api.crud import change_status, page_of, text_filter
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, ErrorBody, PageData, ok, paginate
from portal_api.errors import ApiError, field_error
from portal_api.number_upload import import_csv
from portal_api.schemas.common import day_bounds
from portal_api.schemas.numbers import (
    PAYMENT_KINDS,
    GiveIn,
    NumberCreate,
    NumberOut,
    NumberPaymentOut,
    NumberRow,
    NumberStatusIn,
    NumberUpdate,
    PaymentType,
    ReleaseIn,
    TakeIn,
    UploadBatchOut,
    UploadReport,
    region_problem,
)
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/number", tags=["numbers"])

CustomerDep = Annotated[Principal, require_roles(Role.CUSTOMER)]
UserIdQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="Owner (admin only)")]
CountryQuery = Annotated[int | None, Query(ge=1, le=MAX_ID)]
VendorQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="Supplied by this vendor")]
_CHARGES: dict[int | str, dict[str, Any]] = {
    402: {"model": ErrorBody, "description": "The balance does not cover the setup fees; nothing changed"}
}


def _out(numbers: list[Number]) -> list[NumberOut]:
    return [NumberOut.model_validate(n) for n in numbers]


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
        raise field_error(field, f"Country {country_id or iso2} does not exist.")
    problem = region_problem(number, country.iso2)
    if problem:
        raise field_error(field, f"{problem}.")
    return country.id


def _check_vendor(session: Session, vendor_id: int | None) -> None:
    if vendor_id is not None and session.get(Vendor, vendor_id) is None:
        raise field_error("vendor_id", f"Vendor {vendor_id} does not exist.")


def _check_campaign(session: Session, number: Number, campaign_id: int) -> None:
    if number.user_id is None:
        raise field_error("campaign_id", "A number in the pool can't route to a campaign; assign it first.")
    owned = select(Campaign.id).where(Campaign.id == campaign_id, Campaign.user_id == number.user_id)
    if session.scalar(owned) is None:
        # Same answer for a missing and a foreign campaign: ids of other tenants leak nothing.
        raise field_error(
            "campaign_id", f"Campaign {campaign_id} is not one of this number owner's campaigns."
        )


def _filtered(
    stmt: Select[Any], params: str | None, status: NumberStatus | None, country_id: int | None
) -> Select[Any]:
    stmt = text_filter(stmt, params, Number.number)
    if status is not None:
        stmt = stmt.where(Number.status == status.value)
    if country_id is not None:
        stmt = stmt.where(Number.country_id == country_id)
    return stmt


@router.get(
    "/details",
    response_model=Envelope[PageData[NumberRow]],
    summary="Numbers, paginated, with customer and campaign names (admin: all; customer: its own); "
    "`params` matches the number",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserIdQuery = None,
    status: NumberStatus | None = None,
    country_id: CountryQuery = None,
    vendor_id: VendorQuery = None,
) -> dict:
    stmt = _filtered(scoped(select(Number), Number, principal, user_id), pg.params, status, country_id)
    if vendor_id is not None:
        stmt = stmt.where(Number.vendor_id == vendor_id)
    return ok(named_page(session, stmt.order_by(Number.id.desc()), pg, NumberRow))  # type: ignore[union-attr]


@router.get(
    "/zero",
    response_model=Envelope[PageData[NumberOut]],
    summary="The unassigned pool, paginated (customers see the active numbers they can take)",
)
def pool(
    principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, country_id: CountryQuery = None
) -> dict:
    stmt = select(Number).where(Number.user_id.is_(None))  # type: ignore[union-attr]
    status = None if principal.is_admin else NumberStatus.ACTIVE
    stmt = _filtered(stmt, pg.params, status, country_id)
    return ok(page_of(session, stmt.order_by(Number.number), pg, NumberOut.model_validate))


@router.get(
    "/ct",
    response_model=Envelope[PageData[NumberPaymentOut]],
    summary="Number payment report: setup and monthly fees charged, newest first",
)
def payments(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserIdQuery = None,
    from_date: Annotated[
        date | None, Query(alias="fromDate", description="yyyy-mm-dd, your time zone")
    ] = None,
    to_date: Annotated[date | None, Query(alias="toDate", description="yyyy-mm-dd, inclusive")] = None,
    payment_type: PaymentType | None = None,
) -> dict:
    kinds = [PAYMENT_KINDS[payment_type]] if payment_type else list(PAYMENT_KINDS.values())
    stmt = select(WalletTransaction).outerjoin(Number, Number.id == WalletTransaction.number_id)
    stmt = scoped(stmt, WalletTransaction, principal, user_id)
    stmt = stmt.where(WalletTransaction.transaction_type.in_([k.value for k in kinds]))  # type: ignore[attr-defined]
    start, end = day_bounds(from_date, to_date, principal.user.timezone)
    if start is not None:
        stmt = stmt.where(WalletTransaction.created_at >= start)
    if end is not None:
        stmt = stmt.where(WalletTransaction.created_at <= end)
    stmt = text_filter(stmt, pg.params, Number.number, WalletTransaction.description)
    stmt = stmt.order_by(WalletTransaction.created_at.desc(), WalletTransaction.id.desc())  # type: ignore[attr-defined, union-attr]
    page = paginate(session, stmt, pg.page, pg.perpage)
    # The page's numbers in one query; paginate yields ledger rows only.
    ids = {row.number_id for row in page["data"]}
    found = session.execute(select(Number.id, Number.number).where(Number.id.in_(ids)))  # type: ignore[union-attr]
    numbers = {number_id: number for number_id, number in found}
    page["data"] = [NumberPaymentOut.of(row, numbers.get(row.number_id)) for row in page["data"]]
    return ok(page)


@router.post(
    "/vcr",
    response_model=Envelope[UploadReport],
    status_code=201,
    summary="Upload numbers as CSV (number,country,vendor,setup_fee,monthly_fee); reports every line",
)
def upload(
    principal: AdminDep,
    session: SessionDep,
    file: Annotated[UploadFile, File(description="CSV, UTF-8, with a header line; at most 10 MB")],
) -> dict:
    batch, lines = import_csv(
        session, file.filename or "", file.content_type, file.file.read(), principal.user.id
    )
    session.commit()
    report = UploadReport.model_validate({**batch.model_dump(), "lines": lines})
    return ok(report, f"Imported {batch.imported} of {batch.total} line(s); {batch.skipped} skipped.")


@router.get(
    "/vcrs",
    response_model=Envelope[PageData[UploadBatchOut]],
    summary="Past CSV uploads with their counts; `params` matches the file name",
)
def uploads(principal: AdminDep, session: SessionDep, pg: PageDep) -> dict:
    stmt = text_filter(select(NumberUploadBatch), pg.params, NumberUploadBatch.filename)
    return ok(page_of(session, stmt.order_by(NumberUploadBatch.id.desc()), pg, UploadBatchOut.model_validate))  # type: ignore[union-attr]


@router.post("/add", response_model=Envelope[NumberOut], status_code=201, summary="Add a number to the pool")
def add(body: NumberCreate, principal: AdminDep, session: SessionDep) -> dict:
    if session.scalar(select(Number.id).where(Number.number == body.number)) is not None:
        raise field_error("number", f"{body.number} is already in the inventory.", status=409)
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
    return ok(NumberOut.model_validate(number), "Number added to the pool.")


@router.post(
    "/give",
    response_model=Envelope[list[NumberOut]],
    responses=_CHARGES,
    summary="Assign pool numbers to a customer, charging their setup fees (all or nothing)",
)
def give(body: GiveIn, principal: AdminDep, session: SessionDep) -> dict:
    owner = session.get(User, body.user_id)
    if owner is None or owner.role != Role.CUSTOMER:
        raise field_error("user_id", f"User {body.user_id} is not a customer.")
    numbers = number_pool.lock(session, select(Number).where(Number.id.in_(body.number_ids)))  # type: ignore[union-attr]
    unknown = sorted(set(body.number_ids) - {n.id for n in numbers})
    if unknown:
        raise field_error("number_ids", f"Number(s) {', '.join(map(str, unknown))} do not exist.")
    number_pool.refuse_unless_free(numbers, body.number_ids)
    total = number_pool.assign(session, numbers, body.user_id, principal.user.id)
    session.commit()
    return ok(
        _out(numbers),
        f"{len(numbers)} number(s) given to {owner.name}; setup fees of {format_money(total)} charged.",
    )


@router.post(
    "/new",
    response_model=Envelope[list[NumberOut]],
    responses=_CHARGES,
    summary="Take numbers from the pool, paying their setup fees (all or nothing)",
)
def take(body: TakeIn, principal: CustomerDep, session: SessionDep) -> dict:
    if body.number_ids is not None:
        numbers = number_pool.lock(session, select(Number).where(Number.id.in_(body.number_ids)))  # type: ignore[union-attr]
        number_pool.refuse_unless_free(numbers, body.number_ids)
    else:
        country = session.get(Country, body.country_id)
        if country is None:
            raise field_error("country_id", f"Country {body.country_id} does not exist.")
        free = select(Number).where(
            Number.user_id.is_(None),  # type: ignore[union-attr]
            Number.status == NumberStatus.ACTIVE,
            Number.country_id == country.id,
        )
        # Rows another purchase holds right now are skipped, not waited for: each taker gets its own.
        numbers = number_pool.lock(session, free.limit(body.count), skip_locked=True)
        if len(numbers) < (body.count or 0):
            raise ApiError(409, f"Only {len(numbers)} number(s) in {country.name} are free right now.")
    total = number_pool.assign(session, numbers, principal.user.id or 0, principal.user.id)
    session.commit()
    return ok(
        _out(numbers), f"{len(numbers)} number(s) are yours; setup fees of {format_money(total)} charged."
    )


@router.delete(
    "",
    response_model=Envelope[list[NumberOut]],
    summary="Release numbers to the pool (customer: its own; admin: any); payments stay in the ledger",
)
def release(body: ReleaseIn, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    stmt = scoped(select(Number).where(Number.id.in_(body.ids)), Number, principal)  # type: ignore[union-attr]
    numbers = number_pool.lock(session, stmt)
    unknown = sorted(set(body.ids) - {n.id for n in numbers})
    if unknown:
        raise ApiError(404, f"Number(s) {', '.join(map(str, unknown))} not found.")
    pooled = [n.number for n in numbers if n.user_id is None]
    if pooled:
        raise ApiError(409, f"{', '.join(pooled)} already in the pool.")
    number_pool.release(session, numbers)
    session.commit()
    return ok(_out(numbers), f"{len(numbers)} number(s) released to the pool.")


@router.patch("/status/{id}", response_model=Envelope[NumberOut], summary="Activate, deactivate or suspend")
def set_status(id: IdPath, body: NumberStatusIn, principal: AdminDep, session: SessionDep) -> dict:
    number = change_status(session, Number, id, body.status.value, principal, "Number")
    session.commit()
    return ok(NumberOut.model_validate(number), f"Number is now {body.status.value}.")


@router.get("/{id}", response_model=Envelope[NumberOut], summary="One number (a customer: its own)")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    return ok(NumberOut.model_validate(get_visible(session, Number, id, principal, "Number")))


@router.put(
    "/{id}",
    response_model=Envelope[NumberOut],
    summary="Update a number (admin: fees, vendor, country, campaign; customer: only campaign_id)",
)
def update(id: IdPath, body: NumberUpdate, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    number = get_visible(session, Number, id, principal, "Number")
    changes = body.model_dump(exclude_unset=True)
    if not principal.is_admin and set(changes) - {"campaign_id"}:
        raise ApiError(
            403, "A customer can change only campaign_id; fees, vendor and country are set by the admin."
        )
    for field in ("setup_fee", "monthly_fee", "country_id", "iso2"):
        if field in changes and changes[field] is None:
            raise field_error(field, f"{field} can't be empty.")
    if changes.get("campaign_id") is not None:
        _check_campaign(session, number, changes["campaign_id"])
    _check_vendor(session, changes.get("vendor_id"))
    if "country_id" in changes or "iso2" in changes:
        changes["country_id"] = _country_id(session, number.number, body.country_id, body.iso2)
        changes.pop("iso2", None)
    for field, value in changes.items():
        setattr(number, field, value)
    session.add(number)
    session.commit()
    return ok(NumberOut.model_validate(number), "Number saved.")
