"""Wallet top-ups by an admin (screen `topup`): a ledger credit with a note (core.billing.topups)."""

from fastapi import APIRouter, Request

from core.values.money import money_text
from portal_api.auth.principal import AdminDep, client_of
from portal_api.deps import PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.billing import TopupIn
from portal_api.schemas.users import WalletTransactionOut
from portal_api.services import topups
from portal_api.services.tenancy import UserFilter

router = APIRouter(prefix="/topup", tags=["billing"])


@router.post(
    "/add",
    status_code=201,
    summary="Credit a customer's wallet; shows in /user/wall",
)
def add(
    body: TopupIn, request: Request, principal: AdminDep, session: SessionDep
) -> Envelope[WalletTransactionOut]:
    done = topups.add(session, body, principal, client_of(request))
    if not done.credited:
        # The same idempotency key again: the credit already made, nothing changed.
        return ok(WalletTransactionOut.of(done.row), "This top-up was already credited.")
    message = f"Credited {money_text(body.amount)} to {done.customer.name}."
    return ok(WalletTransactionOut.of(done.row), message)


@router.get(
    "/details",
    summary="Top-ups, newest first; `params` matches the note",
)
def details(
    principal: AdminDep,
    session: SessionDep,
    pg: PageDep,
    user_id: UserFilter,
) -> Envelope[PageData[WalletTransactionOut]]:
    return ok(topups.page(session, pg, user_id))
