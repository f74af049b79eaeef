"""Invoice history (screen `invoice`); the billing workers write the invoices."""

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select

from core.models import Invoice
from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.crud import page_of, text_filter
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.billing import InvoiceDetail, InvoiceSummary
from portal_api.tenancy import get_visible, scoped

router = APIRouter(prefix="/invoice", tags=["billing"])


@router.get(
    "/details",
    response_model=Envelope[PageData[InvoiceSummary]],
    summary="Invoices, newest period first; `params` matches the invoice number",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> dict:
    stmt = text_filter(scoped(select(Invoice), Invoice, principal, user_id), pg.params, Invoice.number)
    stmt = stmt.order_by(Invoice.period_start.desc(), Invoice.id.desc())  # type: ignore[attr-defined, union-attr]
    return ok(page_of(session, stmt, pg, InvoiceSummary.model_validate))


@router.get("/{id}", response_model=Envelope[InvoiceDetail], summary="One invoice with its lines")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict:
    return ok(InvoiceDetail.model_validate(get_visible(session, Invoice, id, principal, "Invoice")))
