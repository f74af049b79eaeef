"""Wallet top-ups by an admin (screen `topup`): a ledger credit with a note.

The credit also settles, in the same transaction, the monthly fees the customer's numbers owe:
a number suspended for an unpaid fee is back the moment the money is.
"""

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from sqlalchemy import select

from core.billing import fees
from core.enums import Role, TransactionType
from core.models import User, WalletTransaction
from core.money import format_money
from core.wallet import post
from portal_api.auth.principal import AdminDep
from portal_api.crud import page_of, text_filter
from portal_api.deps import MAX_ID, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.errors import field_error
from portal_api.schemas.billing import TopupIn
from portal_api.schemas.users import WalletTransactionOut

router = APIRouter(prefix="/topup", tags=["billing"])


@router.post(
    "/add",
    response_model=Envelope[WalletTransactionOut],
    status_code=201,
    summary="Credit a customer's wallet; shows in /user/wall",
)
def add(body: TopupIn, principal: AdminDep, session: SessionDep) -> dict[str, Any]:
    user = session.get(User, body.user_id)
    if user is None or user.role != Role.CUSTOMER:
        raise field_error("user_id", f"Customer {body.user_id} does not exist.")
    reference = body.reference or uuid.uuid4().hex
    row = post(
        session,
        user_id=body.user_id,
        kind=TransactionType.TOPUP,
        amount=body.amount,
        reference=reference,
        description=body.note or "Top-up",
        created_by=principal.user.id,
    )
    if row is None:
        # The same idempotency key again: answer with the credit already made, change nothing.
        row = session.scalars(
            select(WalletTransaction).where(
                WalletTransaction.transaction_type == TransactionType.TOPUP.value,
                WalletTransaction.reference == reference,
            )
        ).one()
        if row.user_id != body.user_id:
            raise field_error(
                "reference", "This reference was already used for another customer.", status=409
            )
        return ok(WalletTransactionOut.of(row), "This top-up was already credited.")
    fees.settle(session, body.user_id, datetime.now(UTC))
    session.commit()
    return ok(WalletTransactionOut.of(row), f"Credited {format_money(body.amount)} to {user.name}.")


@router.get(
    "/details",
    response_model=Envelope[PageData[WalletTransactionOut]],
    summary="Top-ups, newest first; `params` matches the note",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> dict[str, Any]:
    stmt = select(WalletTransaction).where(WalletTransaction.transaction_type == TransactionType.TOPUP.value)
    if user_id is not None:
        stmt = stmt.where(WalletTransaction.user_id == user_id)
    stmt = text_filter(stmt, pg.params, WalletTransaction.description)
    stmt = stmt.order_by(WalletTransaction.id.desc())
    return ok(page_of(session, stmt, pg, WalletTransactionOut.of))
