"""Tracking numbers (spec §7 Numbers): the admin's inventory and pool, customers' own numbers,
purchases with their setup fees, the number payment report and CSV uploads.

Each handler parses, calls one function of portal_api.services (numbers, number_pool,
number_upload) and shapes the answer; what a purchase costs is core.billing.purchases.
"""

from typing import Annotated, Any

from fastapi import APIRouter, File, Query, UploadFile

from core.models import Number
from core.values.enums import NumberStatus, Role
from core.values.money import money_text
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep, Principal, require_roles
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, ErrorBody, PageData, ok
from portal_api.schemas.common import Day, upload_part
from portal_api.schemas.numbers import (
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
)
from portal_api.services import number_pool, number_upload, numbers
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/number", tags=["numbers"])

CustomerDep = Annotated[Principal, require_roles(Role.CUSTOMER)]
CountryQuery = Annotated[int | None, Query(ge=1, le=MAX_ID)]
VendorQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="Supplied by this vendor")]
CampaignQuery = Annotated[int | None, Query(ge=1, le=MAX_ID, description="Routed to this campaign")]
_CHARGES: dict[int | str, dict[str, Any]] = {  # FastAPI's type for `responses`
    402: {"model": ErrorBody, "description": "The balance does not cover the setup fees; nothing changed"}
}


def _out(rows: list[Number]) -> list[NumberOut]:
    return [NumberOut.model_validate(n) for n in rows]


@router.get(
    "/details",
    summary="Numbers, paginated, with customer and campaign names (admin: all; customer: its own); "
    "`params` matches the number",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    status: NumberStatus | None = None,
    country_id: CountryQuery = None,
    vendor_id: VendorQuery = None,
    campaign_id: CampaignQuery = None,
) -> Envelope[PageData[NumberRow]]:
    return ok(numbers.page(session, principal, pg, user_id, status, country_id, vendor_id, campaign_id))


@router.get(
    "/zero",
    summary="The unassigned pool, paginated (customers see the active numbers they can take)",
)
def pool(
    principal: AdminOrCustomerDep, session: SessionDep, pg: PageDep, country_id: CountryQuery = None
) -> Envelope[PageData[NumberOut]]:
    return ok(numbers.pool_page(session, principal, pg, country_id))


@router.get(
    "/ct",
    summary="Number payment report: setup and monthly fees charged, newest first",
)
def payments(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
    from_date: Annotated[
        Day | None, Query(alias="fromDate", description="yyyy-mm-dd, your time zone")
    ] = None,
    to_date: Annotated[Day | None, Query(alias="toDate", description="yyyy-mm-dd, inclusive")] = None,
    payment_type: PaymentType | None = None,
) -> Envelope[PageData[NumberPaymentOut]]:
    page = numbers.payments_page(
        session,
        principal,
        pg,
        user_id=user_id,
        from_date=from_date,
        to_date=to_date,
        payment_type=payment_type,
    )
    return ok(page)


@router.post(
    "/vcr",
    status_code=201,
    summary="Upload numbers as CSV (number,country,vendor,setup_fee,monthly_fee); counts and skipped lines",
    openapi_extra=upload_part("text/csv"),
)
def upload(
    principal: AdminDep,
    session: SessionDep,
    file: Annotated[
        UploadFile,
        File(
            description="CSV, UTF-8, with a header line; at most 10 MB and MAX_UPLOAD_ROWS (100,000) numbers"
        ),
    ],
) -> Envelope[UploadReport]:
    batch, lines = number_upload.import_csv(
        session, file.filename or "", file.content_type, file.file.read(), principal.user.id
    )
    report = UploadReport.model_validate({**batch.model_dump(), "lines": lines})
    return ok(report, f"Imported {batch.imported} of {batch.total} line(s); {batch.skipped} skipped.")


@router.get(
    "/vcrs",
    summary="Past CSV uploads with their counts; `params` matches the file name",
)
def uploads(principal: AdminDep, session: SessionDep, pg: PageDep) -> Envelope[PageData[UploadBatchOut]]:
    return ok(number_upload.batches_page(session, pg))


@router.post("/add", status_code=201, summary="Add a number to the pool")
def add(body: NumberCreate, principal: AdminDep, session: SessionDep) -> Envelope[NumberOut]:
    return ok(NumberOut.model_validate(numbers.add(session, body)), "Number added to the pool.")


@router.post(
    "/give",
    responses=_CHARGES,
    summary="Assign pool numbers to a customer, charging their setup fees (all or nothing)",
)
def give(body: GiveIn, principal: AdminDep, session: SessionDep) -> Envelope[list[NumberOut]]:
    bought = number_pool.give(session, body.user_id, body.number_ids, principal.user.id)
    return ok(
        _out(bought.numbers),
        f"{len(bought.numbers)} number(s) given to {bought.owner.name}; "
        f"setup fees of {money_text(bought.total)} charged.",
    )


@router.post(
    "/new",
    responses=_CHARGES,
    summary="Take numbers from the pool, paying their setup fees (all or nothing)",
)
def take(body: TakeIn, principal: CustomerDep, session: SessionDep) -> Envelope[list[NumberOut]]:
    bought = number_pool.take(session, body, principal.user)
    return ok(
        _out(bought.numbers),
        f"{len(bought.numbers)} number(s) are yours; setup fees of {money_text(bought.total)} charged.",
    )


@router.delete(
    "",
    summary="Release numbers to the pool (customer: its own; admin: any); payments stay in the ledger",
)
def release(body: ReleaseIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[NumberOut]]:
    released = number_pool.release(session, body.ids, principal)
    return ok(_out(released), f"{len(released)} number(s) released to the pool.")


@router.patch("/status/{id:int}", summary="Activate, deactivate or suspend")
def set_status(
    id: IdPath, body: NumberStatusIn, principal: AdminDep, session: SessionDep
) -> Envelope[NumberOut]:
    number = numbers.set_status(session, id, body.status, principal)
    return ok(NumberOut.model_validate(number), f"Number is now {body.status.value}.")


@router.get("/{id:int}", summary="One number (a customer: its own)")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[NumberOut]:
    return ok(NumberOut.model_validate(numbers.one(session, id, principal)))


@router.put(
    "/{id:int}",
    summary="Update a number (admin: fees, vendor, country, campaign; customer: only campaign_id)",
)
def update(
    id: IdPath, body: NumberUpdate, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[NumberOut]:
    return ok(NumberOut.model_validate(numbers.update(session, id, body, principal)), "Number saved.")
