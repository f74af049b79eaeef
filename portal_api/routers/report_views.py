"""Saved views of the call report (issue 37): each person's own named filters, columns, sort and
grouping, kept on the server so they follow the person to any browser."""

from fastapi import APIRouter

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import IdPath, SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.report_views import ReportViewIn, ReportViewOut
from portal_api.services import report_views

router = APIRouter(prefix="/report/views", tags=["reports"])


@router.get("", summary="Your saved report views, by name")
def mine(principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[list[ReportViewOut]]:
    return ok([ReportViewOut.model_validate(v) for v in report_views.mine(session, principal)])


@router.post("", status_code=201, summary="Save the report's current view under a name")
def add(body: ReportViewIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[ReportViewOut]:
    return ok(ReportViewOut.model_validate(report_views.create(session, principal, body)), "View saved.")


@router.put("/{id:int}", summary="Replace a saved view")
def update(
    id: IdPath, body: ReportViewIn, principal: AdminOrCustomerDep, session: SessionDep
) -> Envelope[ReportViewOut]:
    return ok(ReportViewOut.model_validate(report_views.update(session, principal, id, body)), "View saved.")


@router.delete("/{id:int}", summary="Delete a saved view")
def remove(id: IdPath, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[None]:
    report_views.delete(session, principal, id)
    return ok(None, "View deleted.")
