"""The country list behind every country picker."""

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict

from portal_api.auth.principal import PrincipalDep
from portal_api.deps import SessionDep
from portal_api.envelope import Envelope, ok
from portal_api.services import country

router = APIRouter(tags=["countries"])


class CountryOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    iso2: str
    iso3: str
    name: str
    dial_code: str


@router.get("/country", summary="All countries, by name")
def countries(principal: PrincipalDep, session: SessionDep) -> Envelope[list[CountryOut]]:
    return ok([CountryOut.model_validate(c) for c in country.by_name(session)])
