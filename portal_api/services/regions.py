"""The regions a country's numbering data names: what target and campaign region settings pick from."""

import pycountry

from core.calls.caller_origin import regions_of
from portal_api.schemas.regions import Regions


def of_country(country: str) -> Regions:
    """`country` is an ISO code already checked (schemas.regions.country_code)."""
    found = pycountry.countries.get(alpha_2=country)
    assert found is not None  # checked by the query's validator
    return Regions(country=country, name=str(found.name), regions=list(regions_of(country)))
