"""Rate-card entries (spec §7 Rates) and their CSV import: the admin writes, a customer reads its own."""

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, File, Query, UploadFile
from sqlalchemy import exists, select
from sqlmodel import Session

from core.enums import Status
from core.models import Call, Country, Rate
from core.settings import get_settings
from portal_api.accounts import check_tariff
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep, Principal
from portal_api.crud import StatusIn, change_status, page_of, text_filter
from portal_api.deps import MAX_ID, IdPath, PageDep, PageParams, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import ApiError, field_error
from portal_api.rate_import import import_rates
from portal_api.routers.tariffs import tariff_scope, visible_tariff
from portal_api.schemas.rating import RateCreate, RateImportOut, RateOut, RateUpdate, region_for_prefix
from portal_api.tenancy import get_visible

router = APIRouter(prefix="/rate", tags=["rates"])

# What a call was rated on: frozen once a call used the rate (history must keep meaning what it said).
_PRICED = (
    "tariff_id",
    "prefix",
    "rate_per_minute",
    "connection_fee",
    "initial_increment",
    "billing_increment",
    "min_duration",
    "effective_from",
)


def _iso2_by_id(session: Session) -> dict[int, str]:
    return dict(session.execute(select(Country.id, Country.iso2)).all())


def _page(
    session: Session, principal: Principal, pg: PageParams, tariff_id: int | None, status: Status | None
) -> dict[str, Any]:
    stmt = (
        select(Rate)
        .outerjoin(Country, Country.id == Rate.country_id)
        .where(tariff_scope(Rate.tariff_id, principal))
    )
    stmt = text_filter(stmt, pg.params, Rate.prefix, Country.name, Country.iso2)
    if tariff_id is not None:
        stmt = stmt.where(Rate.tariff_id == tariff_id)
    if status is not None:
        stmt = stmt.where(Rate.status == status.value)
    stmt = stmt.order_by(Rate.tariff_id, Rate.prefix, Rate.effective_from.desc(), Rate.id)
    iso2 = _iso2_by_id(session)
    return page_of(session, stmt, pg, lambda row: RateOut.of(row, iso2))


def _country_id(session: Session, country_id: int | None, iso2: str | None) -> int | None:
    """The country named by id or ISO alpha-2 (both may be given if they agree)."""
    by_code = None
    if iso2 is not None:
        by_code = session.scalar(select(Country.id).where(Country.iso2 == iso2))
        if by_code is None:
            raise field_error("country", f"'{iso2}' is not an ISO 3166 alpha-2 country code.")
    if country_id is not None:
        if session.get(Country, country_id) is None:
            raise field_error("country_id", f"Country {country_id} does not exist.")
        if by_code is not None and by_code != country_id:
            raise field_error("country", "country and country_id name different countries.")
        return country_id
    return by_code


def _inferred_country(session: Session, prefix: str) -> int | None:
    region = region_for_prefix(prefix)
    return None if region is None else session.scalar(select(Country.id).where(Country.iso2 == region))


def _check_unique(
    session: Session, tariff_id: int, prefix: str, effective_from: datetime, except_id: int | None = None
) -> None:
    stmt = select(Rate.id).where(
        Rate.tariff_id == tariff_id, Rate.prefix == prefix, Rate.effective_from == effective_from
    )
    if except_id is not None:
        stmt = stmt.where(Rate.id != except_id)
    if session.scalar(stmt) is not None:
        raise field_error(
            "effective_from",
            f"This tariff already has a rate for prefix {prefix} from {effective_from.isoformat()}.",
            status=409,
        )


def _used_by_calls(session: Session, rate_id: int) -> bool:
    return bool(session.scalar(select(exists().where(Call.rate_id == rate_id))))


@router.get(
    "/details",
    response_model=Envelope[PageData[RateOut]],
    summary="Rates, paginated; `params` matches prefix or country. A customer sees its own tariff's",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    tariff_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    status: Status | None = None,
) -> dict[str, Any]:
    return ok(_page(session, principal, pg, tariff_id, status))


@router.get(
    "/by/{id}",
    response_model=Envelope[PageData[RateOut]],
    summary="The rates of tariff `id`, paginated (a customer: only its own tariff)",
)
def of_tariff(
    id: IdPath, principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, status: Status | None = None
) -> dict[str, Any]:
    visible_tariff(session, id, principal)
    return ok(_page(session, principal, pg, id, status))


@router.post("/add", response_model=Envelope[RateOut], status_code=201, summary="Add a rate to a tariff")
def add(body: RateCreate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    check_tariff(session, body.tariff_id)
    if body.country_id is None and body.country is None:
        country_id = _inferred_country(session, body.prefix)
    else:
        country_id = _country_id(session, body.country_id, body.country)
    effective_from = body.effective_from or datetime.now(UTC)
    _check_unique(session, body.tariff_id, body.prefix, effective_from)
    rate = Rate(
        **body.model_dump(exclude={"country_id", "country", "effective_from"}),
        country_id=country_id,
        effective_from=effective_from,
    )
    session.add(rate)
    session.commit()
    return ok(RateOut.of(rate, _iso2_by_id(session)), "Rate added.")


@router.post(
    "/import/{tariff_id}",
    response_model=Envelope[RateImportOut],
    summary="Import a rate card (CSV) into a tariff: every line or none",
    description="Columns (header line required, any order): prefix, rate (required), country "
    "(ISO alpha-2; empty: from the prefix), connection_fee (0), initial_increment (60), "
    "billing_increment (60), min_duration (0), effective_from (ISO 8601; empty: now). A line whose "
    "(prefix, effective_from) the tariff already has is refused unless `replace=true`; rates used by "
    "calls are never replaced. Any problem refuses the file with `errors` per line.",
)
def import_card(
    tariff_id: IdPath,
    principal: AdminDep,
    session: SessionDep,
    file: Annotated[UploadFile, File(description="UTF-8 CSV, at most 10 MB")],
    replace: Annotated[bool, Query(description="Overwrite existing (prefix, effective_from) rates")] = False,
) -> dict[str, Any]:
    result = import_rates(
        session, tariff_id, file.file, replace=replace, max_bytes=get_settings().max_upload_bytes
    )
    session.commit()
    return ok(result, f"{result.rows} rates imported.")


@router.patch("/status/{id}", response_model=Envelope[RateOut], summary="Activate or deactivate a rate")
def set_status(id: IdPath, body: StatusIn, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    rate = change_status(session, Rate, id, body.status.value, principal, "Rate")
    session.commit()
    return ok(RateOut.of(rate, _iso2_by_id(session)), f"Rate is now {body.status.value}.")


@router.put(
    "/{id}",
    response_model=Envelope[RateOut],
    summary="Update a rate; a rate calls were rated at keeps its price (add a newer one instead)",
)
def update(id: IdPath, body: RateUpdate, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    rate = get_visible(session, Rate, id, principal, "Rate")
    changes = body.model_dump(exclude_unset=True, exclude={"country_id", "country"})
    for field, value in changes.items():
        if value is None:
            raise field_error(field, f"{field} can't be empty.")
    if any(getattr(rate, f) != v for f, v in changes.items() if f in _PRICED) and _used_by_calls(session, id):
        raise ApiError(
            409,
            "Calls were rated at this rate, so its price and prefix can't change; "
            "add a new rate with a later effective_from and deactivate this one.",
        )
    if "tariff_id" in changes:
        check_tariff(session, changes["tariff_id"])
    key = {f: changes.get(f, getattr(rate, f)) for f in ("tariff_id", "prefix", "effective_from")}
    _check_unique(session, **key, except_id=id)
    if {"country_id", "country"} & body.model_fields_set:
        rate.country_id = _country_id(session, body.country_id, body.country)
    elif changes.get("prefix", rate.prefix) != rate.prefix:
        rate.country_id = _inferred_country(session, changes["prefix"])
    for field, value in changes.items():
        setattr(rate, field, value)
    session.add(rate)
    session.commit()
    return ok(RateOut.of(rate, _iso2_by_id(session)), "Rate saved.")


@router.delete(
    "/{id}", response_model=Envelope[None], summary="Delete a rate; refused (409) once calls were rated at it"
)
def remove(id: IdPath, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    rate = get_visible(session, Rate, id, principal, "Rate")
    if _used_by_calls(session, id):
        raise ApiError(409, "Calls were rated at this rate, so it can't be deleted; deactivate it instead.")
    session.delete(rate)
    session.commit()
    return ok(None, "Rate deleted.")
