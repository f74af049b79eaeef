"""Rate-card entries: the admin writes them (one by one or by CSV import), a customer reads its own
tariff's. A rate calls were rated at keeps its price: history must keep meaning what it said."""

from datetime import UTC, datetime
from typing import BinaryIO

from sqlalchemy import exists, select
from sqlmodel import Session

from core.infra.settings import get_settings
from core.models import Call, Country, Rate
from core.values.enums import Status
from core.values.errors import DomainError, ErrorId, missing_row
from core.values.phone import region_for_prefix
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.rating import RateCreate, RateImportOut, RateOut, RateUpdate
from portal_api.services.accounts import check_tariff
from portal_api.services.common import create_row, delete_row, page_of, text_filter, update_row
from portal_api.services.rate_import import import_rates
from portal_api.services.tariffs import tariff_scope, visible_tariff
from portal_api.services.tenancy import get_visible

# What a call was rated on: frozen once a call used the rate.
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


def out(session: Session, rate: Rate) -> RateOut:
    return RateOut.of(rate, _iso2_by_id(session))


def _iso2_by_id(session: Session) -> dict[int, str]:
    return dict(session.execute(select(Country.id, Country.iso2)).all())


def page(
    session: Session, principal: Principal, pg: PageParams, tariff_id: int | None, status: Status | None
) -> PageData[RateOut]:
    stmt = (
        select(Rate)
        .outerjoin(Country, Country.id == Rate.country_id)
        .where(tariff_scope(Rate.tariff_id, principal))
    )
    stmt = text_filter(stmt, pg.params, Rate.prefix, Country.name, Country.iso2)
    if tariff_id is not None:
        visible_tariff(session, tariff_id, principal)  # a tariff the caller may not read: 404
        stmt = stmt.where(Rate.tariff_id == tariff_id)
    if status is not None:
        stmt = stmt.where(Rate.status == status.value)
    stmt = stmt.order_by(Rate.tariff_id, Rate.prefix, Rate.effective_from.desc(), Rate.id)
    iso2 = _iso2_by_id(session)
    return page_of(session, stmt, pg, lambda row: RateOut.of(row, iso2))


def page_of_tariff(
    session: Session, principal: Principal, pg: PageParams, tariff_id: int, status: Status | None
) -> PageData[RateOut]:
    """The rates of one tariff the caller may read (404 for any other)."""
    visible_tariff(session, tariff_id, principal)
    return page(session, principal, pg, tariff_id, status)


def _country_id(session: Session, country_id: int | None, iso2: str | None) -> int | None:
    """The country named by id or ISO alpha-2 (both may be given if they agree)."""
    by_code = None
    if iso2 is not None:
        by_code = session.scalar(select(Country.id).where(Country.iso2 == iso2))
        if by_code is None:
            message = f"'{iso2}' is not an ISO 3166 alpha-2 country code."
            raise DomainError(ErrorId.COUNTRY_UNKNOWN_CODE, message, "country")
    if country_id is not None:
        if session.get(Country, country_id) is None:
            raise missing_row("country_id", "Country", country_id)
        if by_code is not None and by_code != country_id:
            raise DomainError(
                ErrorId.COUNTRY_MISMATCH, "country and country_id name different countries.", "country"
            )
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
        raise DomainError(
            ErrorId.RATE_DUPLICATE,
            f"This tariff already has a rate for prefix {prefix} from {effective_from.isoformat()}.",
            "effective_from",
        )


def _used_by_calls(session: Session, rate_id: int) -> bool:
    return bool(session.scalar(select(exists().where(Call.rate_id == rate_id))))


def create(session: Session, body: RateCreate) -> Rate:
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
    return create_row(session, rate)


def import_card(session: Session, tariff_id: int, file: BinaryIO, replace: bool) -> RateImportOut:
    result = import_rates(
        session, tariff_id, file, replace=replace, max_bytes=get_settings().max_upload_bytes
    )
    session.commit()
    return result


def update(session: Session, rate_id: int, body: RateUpdate, principal: Principal) -> Rate:
    rate = get_visible(session, Rate, rate_id, principal, "Rate")
    changes = body.model_dump(exclude_unset=True, exclude={"country_id", "country"})

    def check() -> None:
        repriced = any(getattr(rate, f) != v for f, v in changes.items() if f in _PRICED)
        if repriced and _used_by_calls(session, rate_id):
            raise DomainError(
                ErrorId.ROW_CHANGE_LOCKED,
                "Calls were rated at this rate, so its price and prefix can't change; "
                "add a new rate with a later effective_from and deactivate this one.",
            )
        if "tariff_id" in changes:
            check_tariff(session, changes["tariff_id"])
        key = {f: changes.get(f, getattr(rate, f)) for f in ("tariff_id", "prefix", "effective_from")}
        _check_unique(session, **key, except_id=rate_id)
        if {"country_id", "country"} & body.model_fields_set:
            rate.country_id = _country_id(session, body.country_id, body.country)
        elif changes.get("prefix", rate.prefix) != rate.prefix:
            rate.country_id = _inferred_country(session, changes["prefix"])

    return update_row(session, rate, changes, check=check)


def _unused(session: Session, rate: Rate) -> None:
    if _used_by_calls(session, rate.id or 0):
        message = "Calls were rated at this rate, so it can't be deleted; deactivate it instead."
        raise DomainError(ErrorId.ROW_IN_USE, message)


def delete(session: Session, rate_id: int, principal: Principal) -> None:
    delete_row(session, Rate, rate_id, principal, "Rate", check=lambda r: _unused(session, r))
