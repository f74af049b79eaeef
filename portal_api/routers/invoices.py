"""Invoices (screen `invoice`): the list, one invoice, its PDF, and generation on demand.

The beat job makes last month's invoices by itself (core.billing.invoices); an admin can make
one for any finished month. Either way a month is invoiced once.
"""

from datetime import UTC, date, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from sqlalchemy import select

from core.billing import invoice_pdf
from core.billing.invoices import MonthNotOver, generate_invoice
from core.enums import Role
from core.models import Invoice, User
from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.crud import page_of, text_filter
from portal_api.deps import MAX_ID, IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import field_error
from portal_api.schemas.billing import InvoiceDetail, InvoiceGenerateIn, InvoiceSummary
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
) -> dict[str, Any]:
    stmt = text_filter(scoped(select(Invoice), Invoice, principal, user_id), pg.params, Invoice.number)
    stmt = stmt.order_by(Invoice.period_start.desc(), Invoice.id.desc())
    return ok(page_of(session, stmt, pg, InvoiceSummary.model_validate))


@router.post(
    "/generate",
    response_model=Envelope[InvoiceDetail],
    status_code=201,
    responses={200: {"model": Envelope[InvoiceDetail], "description": "Already invoiced: that invoice"}},
    summary="Make a customer's invoice for a finished month (admin); an invoiced month is returned as is",
)
def generate(
    body: InvoiceGenerateIn,
    principal: AdminDep,
    session: SessionDep,
    response: Response,
) -> dict[str, Any]:
    customer = session.get(User, body.user_id)
    if customer is None or customer.role != Role.CUSTOMER:
        raise field_error("user_id", f"Customer {body.user_id} does not exist.")
    month = date.fromisoformat(f"{body.month}-01")
    try:
        invoice, created = generate_invoice(session, body.user_id, month, datetime.now(UTC))
    except MonthNotOver:
        raise field_error(
            "month",
            f"{body.month} is not over yet for this customer ({customer.timezone}); invoice it after.",
        ) from None
    session.commit()
    if not created:
        response.status_code = 200
        return ok(InvoiceDetail.model_validate(invoice), f"{invoice.number} was already issued.")
    return ok(InvoiceDetail.model_validate(invoice), f"Invoice {invoice.number} issued.")


@router.get("/{id}", response_model=Envelope[InvoiceDetail], summary="One invoice with its lines")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> dict[str, Any]:
    return ok(InvoiceDetail.model_validate(get_visible(session, Invoice, id, principal, "Invoice")))


@router.get(
    "/{id}/pdf",
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}, "description": "The invoice as a PDF file"}},
    summary="Download one invoice as PDF",
)
def pdf(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Response:
    invoice = get_visible(session, Invoice, id, principal, "Invoice")
    customer = session.get_one(User, invoice.user_id)  # an invoice's customer exists (foreign key)
    return Response(
        invoice_pdf.render(invoice, customer),
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{invoice.number}.pdf"'},
    )
