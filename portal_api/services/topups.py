"""Top-ups for the `topup` screen: the credit (core.billing.topups) committed, and the list."""

from datetime import UTC, datetime

from sqlalchemy import select
from sqlmodel import Session

from core.billing.topups import TopUp, top_up
from core.models import WalletTransaction
from core.values.enums import AdminAction, TransactionType
from core.values.money import money_text
from portal_api.auth import admin_audit
from portal_api.auth.audit import Client
from portal_api.auth.principal import Principal
from portal_api.deps import PageParams
from portal_api.envelope import PageData
from portal_api.schemas.billing import TopupIn
from portal_api.schemas.users import WalletTransactionOut
from portal_api.services.common import page_of, text_filter


def add(session: Session, body: TopupIn, principal: Principal, client: Client) -> TopUp:
    done = top_up(
        session,
        user_id=body.user_id,
        amount=body.amount,
        reference=body.reference,
        note=body.note,
        by=principal.user.id,
        now=datetime.now(UTC),
    )
    if done.credited:
        detail = f"{money_text(done.row.amount)} (reference {done.row.reference})"
        admin_audit.record(session, principal.user, AdminAction.TOP_UP, done.customer, client, detail)
    session.commit()
    return done


def page(session: Session, pg: PageParams, user_id: int | None) -> PageData[WalletTransactionOut]:
    """Top-ups, newest first, of one customer or all; `params` matches the note."""
    stmt = select(WalletTransaction).where(WalletTransaction.transaction_type == TransactionType.TOPUP.value)
    if user_id is not None:
        stmt = stmt.where(WalletTransaction.user_id == user_id)
    stmt = text_filter(stmt, pg.params, WalletTransaction.description)
    stmt = stmt.order_by(WalletTransaction.id.desc())
    return page_of(session, stmt, pg, WalletTransactionOut.of)
