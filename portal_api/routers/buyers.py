"""Buyers (spec §7 Buyers): a customer's clients, each with its own role-3 login."""

from fastapi import APIRouter, Request

from core.values.enums import Role
from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep, client_of, require_roles
from portal_api.deps import IdPath, PageDep, SessionDep
from portal_api.envelope import Envelope, PageData, ok
from portal_api.schemas.buyers import (
    BuyerBrief,
    BuyerCallRow,
    BuyerIn,
    BuyerOut,
    BuyerReportFilter,
    BuyerUpdate,
)
from portal_api.schemas.common import StatusIn
from portal_api.schemas.reports import AfterDep
from portal_api.schemas.targets import BuyerTarget
from portal_api.services import buyers

router = APIRouter(prefix="/buyer", tags=["buyers"])
BuyerOnly = require_roles(Role.BUYER)


@router.get(
    "/details",
    summary="Buyers, paginated (a buyer sees only itself)",
)
def details(principal: PrincipalDep, session: SessionDep, pg: PageDep) -> Envelope[PageData[BuyerOut]]:
    return ok(buyers.page(session, principal, pg))


@router.get("/buyer-userId/{id:int}", summary="The buyers of customer `id`")
def of_user(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[BuyerBrief]]:
    return ok(buyers.of_user(session, principal, id))


@router.get(
    "/target",
    summary="The signed-in buyer's own targets, with this hour's, today's and this month's calls",
    dependencies=[BuyerOnly],
)
def own_targets(principal: PrincipalDep, session: SessionDep) -> Envelope[list[BuyerTarget]]:
    return ok(buyers.own_targets(session, principal))


@router.post(
    "/buyer-report",
    summary="Calls delivered to buyers (a buyer sees its own)",
)
def report(
    body: BuyerReportFilter, principal: PrincipalDep, session: SessionDep, pg: PageDep, after: AfterDep = None
) -> Envelope[PageData[BuyerCallRow]]:
    return ok(buyers.report(session, principal, body, pg, after))


@router.post(
    "/add",
    status_code=201,
    summary="Create a buyer and its sign-in (role 3)",
)
def add(body: BuyerIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[BuyerOut]:
    buyer = buyers.create(session, principal, body)
    # The same answer whether or not the address already has an account (docs/security.md).
    return ok(
        buyers.out(session, buyer),
        "Buyer created. It signs in with this email and password, unless the address already has a"
        " Callroute account: its owner is then told by mail.",
    )


@router.put("/{id:int}", summary="Update a buyer (and its sign-in)")
def update(
    id: IdPath, body: BuyerUpdate, request: Request, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[BuyerOut]:
    buyer = buyers.update(session, principal, id, body, client_of(request))
    return ok(buyers.out(session, buyer), "Buyer saved.")


@router.patch(
    "/status/{id:int}",
    summary="Activate or deactivate a buyer; its sign-in follows",
)
def status(
    id: IdPath, body: StatusIn, request: Request, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[BuyerOut]:
    buyer = buyers.change_status(session, principal, id, body.status, client_of(request))
    return ok(buyers.out(session, buyer), f"Buyer is now {body.status.value}.")


@router.post(
    "/invite/{id:int}",
    summary="Mail the buyer's address a link to choose its sign-in's password (sent, again, or made)",
)
def invite(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[BuyerOut]:
    buyer = buyers.invite(session, principal, id)
    # The same answer whether or not the address has an account elsewhere (docs/security.md).
    return ok(buyers.out(session, buyer), f"Invitation sent to {buyer.email}.")


@router.delete(
    "/{id:int}",
    summary="Delete a buyer, its targets and its sign-in (refused while calls reference them)",
)
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    buyers.delete(session, principal, id)
    return ok(None, "Buyer deleted.")
