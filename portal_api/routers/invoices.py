"""Invoices (screen `invoice`): the list, one invoice, its PDF, and generation on demand.

The beat job makes last month's invoices by itself (core.billing.invoices); an admin can make
one for any finished month. Either way a month is invoiced once.
"""

from datetime import date

from fastapi import APIRouter, Response

from portal_api.auth.principal import AdminDep, AdminOrCustomerDep
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.billing import InvoiceDetail, InvoiceGenerateIn, InvoiceSummary
from portal_api.services import invoices
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/invoice", tags=["billing"])


@router.get(
    "/details",
    summary="Invoices, newest period first; `params` matches the invoice number",
)
def details(
    principal: AdminOrCustomerDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
) -> Envelope[PageData[InvoiceSummary]]:
    return ok(invoices.page(session, principal, pg, user_id))


@router.post(
    "/generate",
    status_code=201,
    responses={200: {"model": Envelope[InvoiceDetail], "description": "Already invoiced: that invoice"}},
    summary="Make a customer's invoice for a finished month (admin); an invoiced month is returned as is",
)
def generate(
    body: InvoiceGenerateIn, principal: AdminDep, session: SessionDep, response: Response
) -> Envelope[InvoiceDetail]:
    invoice, created = invoices.generate(session, body.user_id, date.fromisoformat(f"{body.month}-01"))
    if not created:
        response.status_code = 200
        return ok(InvoiceDetail.model_validate(invoice), f"{invoice.number} was already issued.")
    return ok(InvoiceDetail.model_validate(invoice), f"Invoice {invoice.number} issued.")


@router.get("/{id:int}", summary="One invoice with its lines")
def one(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[InvoiceDetail]:
    return ok(InvoiceDetail.model_validate(invoices.one(session, id, principal)))


@router.get(
    "/{id:int}/pdf",
    response_class=Response,
    responses={
        200: {
            "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
            "description": "The invoice as a PDF file",
        }
    },
    summary="Download one invoice as PDF",
)
def pdf(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Response:
    invoice, content = invoices.pdf(session, id, principal)
    return Response(
        content,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{invoice.number}.pdf"'},
    )
