"""The dashboard: how many calls, how many answered, talk time, spend, over a period in the caller's
time zone, and where the calls went. Admins see all calls, customers theirs, buyers the calls sent
to them (with their payout, never the customer's spend)."""

from fastapi import APIRouter

from portal_api.auth.principal import AdminOrCustomerDep, PrincipalDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.dashboard import (
    CallDetail,
    CallRegions,
    CallSources,
    DashboardCalls,
    PartyCounts,
    Period,
)
from portal_api.services import dashboard

router = APIRouter(prefix="/dashboard", tags=["dashboard"])


@router.get(
    "/call",
    summary="Call counts for a period (today, yesterday, week, month), with an hourly or daily series",
)
def calls(
    principal: PrincipalDep, session: SessionDep, type: Period = Period.TODAY
) -> Envelope[DashboardCalls]:
    return ok(dashboard.calls(session, principal, type))


@router.get(
    "/call-detail",
    summary="Where the period's calls went: by disposition, the busiest campaigns and targets",
)
def call_detail(
    principal: PrincipalDep, session: SessionDep, type: Period = Period.TODAY
) -> Envelope[CallDetail]:
    return ok(dashboard.call_detail(session, principal, type))


@router.get(
    "/BuyerCounts/{id:int}",
    summary="A buyer's calls today and this month, and live now (its customer, the admin, the buyer)",
)
def buyer_counts(id: IdPath, principal: PrincipalDep, session: SessionDep) -> Envelope[PartyCounts]:
    return ok(dashboard.buyer_counts(session, principal, id))


@router.get(
    "/CustomerCounts",
    summary="Per customer: calls today and this month, live now (admin: all customers; a customer: itself)",
)
def customer_counts(principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[PartyCounts]]:
    return ok(dashboard.customer_counts(session, principal))


@router.get(
    "/call-region",
    summary="Where the period's callers were from: by region, country and line type (admins, customers)",
)
def call_regions(
    principal: AdminOrCustomerDep, session: SessionDep, type: Period = Period.TODAY
) -> Envelope[CallRegions]:
    return ok(dashboard.call_regions(session, principal, type))


@router.get(
    "/call-source",
    summary="The period's calls by traffic source: calls, answered, converted, revenue, cost, publisher"
    " payout, profit (admins, customers)",
)
def call_sources(
    principal: AdminOrCustomerDep, session: SessionDep, type: Period = Period.TODAY
) -> Envelope[CallSources]:
    return ok(dashboard.call_sources(session, principal, type))
