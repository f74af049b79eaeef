"""The routing dry run (domain.md, "Seeing why"): the engine's answer for a call not yet made."""

from fastapi import APIRouter

from portal_api.auth.principal import AdminOrCustomerDep
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.schemas.regions import CountryQuery, Regions
from portal_api.schemas.routing import DryRunIn, DryRunOut
from portal_api.services import regions, routing

router = APIRouter(prefix="/routing", tags=["routing"])


@router.post(
    "/dry-run",
    summary="Where a call from `caller` to `did` would go right now, and why (writes nothing)",
)
def dry_run(body: DryRunIn, principal: AdminOrCustomerDep, session: SessionDep) -> Envelope[DryRunOut]:
    out = routing.dry_run(session, principal, body.did, body.caller)
    if out.disposition is not None:
        return ok(out, f"The call would stop at {out.stopped_at}: {out.disposition}.")
    return ok(out, f"The call would be dialled to {out.candidates[0].name} first.")


@router.get(
    "/regions",
    summary="The regions a country's numbering data names: what region settings pick from (docs/regions.md)",
)
def regions_of_country(
    country: CountryQuery,
    principal: AdminOrCustomerDep,
) -> Envelope[Regions]:
    return ok(regions.of_country(country))
