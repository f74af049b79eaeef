"""Invoices for the `invoice` screen: the list, one invoice with its PDF, and making one on demand."""

from datetime import UTC, date, datetime

from sqlalchemy import select
from sqlmodel import Session

from core.billing import invoice_pdf
from core.billing.invoices import generate_invoice
from core.models import Invoice, User
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.billing import InvoiceSummary
from portal_api.services.common import page_of, text_filter
from portal_api.services.tenancy import get_visible, scoped


def page(
    session: Session, principal: Principal, pg: PageParams, user_id: int | None
) -> PageData[InvoiceSummary]:
    """The invoices the principal may see, newest period first; `params` matches the number."""
    stmt = text_filter(scoped(select(Invoice), Invoice, principal, user_id), pg.params, Invoice.number)
    stmt = stmt.order_by(Invoice.period_start.desc(), Invoice.id.desc())
    return page_of(session, stmt, pg, InvoiceSummary.model_validate)


def generate(session: Session, user_id: int, month: date) -> tuple[Invoice, bool]:
    """The customer's invoice for a finished month, made if missing: (invoice, created)."""
    made = generate_invoice(session, user_id, month, datetime.now(UTC))
    session.commit()
    return made


def one(session: Session, invoice_id: int, principal: Principal) -> Invoice:
    return get_visible(session, Invoice, invoice_id, principal, "Invoice")


def pdf(session: Session, invoice_id: int, principal: Principal) -> tuple[Invoice, bytes]:
    invoice = one(session, invoice_id, principal)
    # Every invoice has its customer (a foreign key), so get_one never raises here.
    return invoice, invoice_pdf.render(invoice, session.get_one(User, invoice.user_id))
