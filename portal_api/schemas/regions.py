"""Caller-region settings of targets and campaigns (docs/regions.md), and the regions a country's
numbering data names. A place is an ISO 3166 country ("US") or a region of one ("US:California")."""

from typing import Annotated

import pycountry
from fastapi import Query
from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema, model_validator

from core.calls.caller_origin import UNKNOWN, regions_of
from core.routing.region import SEPARATOR
from core.values.enums import LineType, RegionMode
from core.values.errors import DomainError, ErrorId
from portal_api.schemas.common import StrictBody

MAX_PLACES = 500
# ISO 3166-1 alpha-2, as the OpenAPI lists them (a client picks from the list; the validator
# also takes lower case).
COUNTRIES = sorted(c.alpha_2 for c in pycountry.countries)


def country_code(value: str) -> str:
    """An ISO 3166-1 alpha-2 code, upper-cased; ValueError naming the mistake otherwise."""
    code = value.strip().upper()
    if len(code) != 2 or pycountry.countries.get(alpha_2=code) is None:
        raise ValueError(f"'{value}' is not an ISO 3166 country code such as US or GB")
    return code


def _place(value: str) -> str:
    country, sep, region = value.partition(SEPARATOR)
    code = country_code(country)
    if not sep:
        return code
    region = region.strip()
    if region not in regions_of(code):
        raise ValueError(
            f"'{region}' is not a region of {code} in the numbering data; GET /routing/regions?country={code}"
            " lists them"
        )
    return f"{code}{SEPARATOR}{region}"


# Which regions a country's numbering data names (some 18,000 in all) is more than a schema lists:
# it states the country and the shape, the validator the region.
_PLACE_SCHEMA = {"type": "string", "maxLength": 510, "pattern": rf"^(?:{'|'.join(COUNTRIES)})(?::.+)?$"}
Place = Annotated[str, Field(max_length=510), AfterValidator(_place), WithJsonSchema(_PLACE_SCHEMA)]
Places = Annotated[
    list[Place], Field(max_length=MAX_PLACES), AfterValidator(lambda v: list(dict.fromkeys(v)))
]
LineTypes = Annotated[
    list[LineType], Field(max_length=len(LineType)), AfterValidator(lambda v: sorted(set(v)))
]
_UNKNOWN = (
    "Whether a caller whose region the number doesn't tell (withheld, mobile ranges, toll-free) is taken"
)
_PLACES = 'Places: "US" or "US:California"'


# A country named in a query, e.g. whose regions to list.
CountryQuery = Annotated[
    str,
    Query(max_length=8, description="ISO 3166 code, e.g. US", json_schema_extra={"enum": COUNTRIES}),
    AfterValidator(country_code),
]


class TargetRegionRulesOut(BaseModel):
    mode: RegionMode = Field(
        default=RegionMode.ALL, description="all, accept (listed places only) or exclude them"
    )
    regions: list[str] = Field(default_factory=list, description=_PLACES)
    excluded_line_types: list[LineType] = Field(default_factory=list)
    accept_unknown: bool = Field(default=True, description=_UNKNOWN)


class TargetRegionRules(TargetRegionRulesOut, StrictBody):
    # _listed as JSON Schema: a mode but `all` lists a place; not every line type is excluded.
    rules = {
        "anyOf": [
            {"properties": {"mode": {"const": RegionMode.ALL.value}}},
            {"required": ["regions"], "properties": {"regions": {"minItems": 1}}},
        ],
        "not": {
            "required": ["excluded_line_types"],
            "properties": {
                "excluded_line_types": {"allOf": [{"contains": {"const": t.value}} for t in LineType]}
            },
        },
    }
    regions: Places = Field(default_factory=list, description=_PLACES)
    excluded_line_types: LineTypes = Field(default_factory=list)

    @model_validator(mode="after")
    def _listed(self) -> "TargetRegionRules":
        if self.mode != RegionMode.ALL and not self.regions:
            raise ValueError(f"mode '{self.mode}' needs at least one place in regions")
        if len(self.excluded_line_types) == len(LineType):
            raise ValueError("excluding every line type would take no call; make the target inactive instead")
        return self


class CampaignRegionRulesOut(BaseModel):
    blocked_regions: list[str] = Field(default_factory=list, description=_PLACES)
    blocked_line_types: list[LineType] = Field(default_factory=list)
    accept_unknown: bool = Field(default=True, description=_UNKNOWN)


class CampaignRegionRules(CampaignRegionRulesOut, StrictBody):
    blocked_regions: Places = Field(default_factory=list, description=_PLACES)
    blocked_line_types: LineTypes = Field(default_factory=list)


class Regions(BaseModel):
    country: str
    name: str = Field(description="The country's name (ISO 3166)")
    regions: list[str] = Field(description="Every region its numbering data names, sorted")


class OriginFilter(BaseModel):
    """The call report's filters by where callers are from: a country and, within it, a region
    (`unknown` for either selects the calls whose data didn't say)."""

    country: str | None = None
    region: str | None = None

    @classmethod
    def of_query(
        cls,
        caller_country: Annotated[
            str | None,
            Query(
                max_length=8,
                description='ISO 3166 code (US, GB) or "unknown"',
                json_schema_extra={"enum": [*COUNTRIES, UNKNOWN]},
            ),
        ] = None,
        caller_region: Annotated[
            str | None,
            Query(
                max_length=500,
                description='A region as the calls show it, or "unknown"; needs caller_country',
            ),
        ] = None,
    ) -> "OriginFilter":
        country = (caller_country or "").strip() or None
        region = (caller_region or "").strip() or None
        if country is not None and country.lower() != UNKNOWN:
            try:
                country = country_code(country)
            except ValueError as exc:
                raise DomainError(ErrorId.REPORT_CALLER_PLACE, str(exc), "caller_country") from None
        elif country is not None:
            country = UNKNOWN
        if region is not None and country is None:
            message = "caller_region needs caller_country (a region is named within one)."
            raise DomainError(ErrorId.REPORT_CALLER_PLACE, message, "caller_region")
        return cls(country=country, region=region)
