"""Where a caller's number is from, read offline from phonenumbers' geocoder and carrier data:
its country, its region and its line type (docs/regions.md).

A region is the larger area the geocoder names for the number's prefix: the part after its last
comma ("Mountain View, CA" is California, "Changzhou, Jiangsu" is Jiangsu), a subdivision code
written out by its ISO 3166-2 name ("CA" of the US is "California"); otherwise the name as given
("London"). A number whose data names only its country (many mobile ranges, toll-free numbers),
an invalid number and a withheld id have the region "unknown"; invalid and withheld ones have the
country and line type "unknown" too.

The geocoder's data is about 100 MB in memory and takes about a second to load: it is loaded
when this module is imported, so a process that routes calls pays it at start, not on a call.
"""

from dataclasses import dataclass
from functools import lru_cache

import phonenumbers
import pycountry
from phonenumbers import PhoneNumberType, carrier, geocoder
from phonenumbers.geodata import GEOCODE_DATA

from core.calls.record import Origin
from core.values.enums import LineType
from core.values.phone import region_for_prefix

UNKNOWN = "unknown"  # the country or region of a number whose data doesn't say
LANGUAGE = "en"  # region names are stored and compared in English, as the geocoder gives them
# The call row's column holds this much: Australian areas list their exchanges ("Blayney/Baldry/…",
# 442 characters in the data today); a longer name in later data is cut, alike everywhere.
REGION_LENGTH = 500

_LINE_TYPES = {
    PhoneNumberType.MOBILE: LineType.MOBILE,
    PhoneNumberType.FIXED_LINE: LineType.FIXED,
    PhoneNumberType.TOLL_FREE: LineType.OTHER,
    PhoneNumberType.PREMIUM_RATE: LineType.OTHER,
    PhoneNumberType.SHARED_COST: LineType.OTHER,
    PhoneNumberType.VOIP: LineType.OTHER,
    PhoneNumberType.PERSONAL_NUMBER: LineType.OTHER,
    PhoneNumberType.PAGER: LineType.OTHER,
    PhoneNumberType.UAN: LineType.OTHER,
    PhoneNumberType.VOICEMAIL: LineType.OTHER,
}


@dataclass(frozen=True)
class CallerOrigin:
    country: str  # ISO 3166-1 alpha-2, or "unknown"
    region: str  # the region's name (see above), or "unknown"
    line_type: LineType
    carrier: str | None = None  # the mobile network the range was allocated to, where known

    @property
    def place(self) -> str:
        """The origin as a person reads it: "California, US", "US", "unknown"."""
        if self.country == UNKNOWN:
            return UNKNOWN
        return self.country if self.region == UNKNOWN else f"{self.region}, {self.country}"

    def columns(self) -> Origin:
        """The call row's columns (core.calls.record.CallState.origin)."""
        return {
            "caller_country": self.country,
            "caller_region": self.region,
            "caller_line_type": self.line_type.value,
        }


NOWHERE = CallerOrigin(UNKNOWN, UNKNOWN, LineType.UNKNOWN)


def region_name(description: str, country: str) -> str:
    """The region a geocoder description names (module docstring); "" for none."""
    area = description.rsplit(", ", 1)[-1].strip()
    if " - " in area:  # Brazil writes "City - SP"
        code = area.rsplit(" - ", 1)[1]
        area = code if _subdivision(country, code) else area
    return (_subdivision(country, area) or area)[:REGION_LENGTH]


def _subdivision(country: str, code: str) -> str | None:
    """The ISO 3166-2 name of subdivision `code` of `country` ("US", "CA" -> "California")."""
    return _subdivisions().get(f"{country}-{code}")


@lru_cache(maxsize=1)
def _subdivisions() -> dict[str, str]:
    return {str(s.code): str(s.name) for s in pycountry.subdivisions}


@lru_cache(maxsize=65536)
def caller_origin(caller: str) -> CallerOrigin:
    """The origin of a caller id as the routing engine compares it (E.164, or as sent: "anonymous")."""
    try:
        number = phonenumbers.parse(caller if caller.startswith("+") else f"+{caller}")
    except phonenumbers.NumberParseException:
        return NOWHERE
    if not phonenumbers.is_valid_number(number):
        return NOWHERE
    country = phonenumbers.region_code_for_number(number)
    if not country or not country.isalpha():  # "001": +800 and such belong to no country
        return CallerOrigin(UNKNOWN, UNKNOWN, _line_type(number))
    description = geocoder.description_for_valid_number(number, LANGUAGE)
    whole_country = geocoder.country_name_for_number(number, LANGUAGE)
    region = region_name(description, country) if description and description != whole_country else ""
    return CallerOrigin(
        country, region or UNKNOWN, _line_type(number), carrier.name_for_number(number, LANGUAGE) or None
    )


def _line_type(number: phonenumbers.PhoneNumber) -> LineType:
    kind = phonenumbers.number_type(number)
    if kind == PhoneNumberType.FIXED_LINE_OR_MOBILE:
        # North America and a few others don't tell the two apart by number; a range in the
        # carrier data was allocated to a mobile network.
        return LineType.MOBILE if carrier.name_for_number(number, LANGUAGE) else LineType.UNKNOWN
    return _LINE_TYPES.get(kind, LineType.UNKNOWN)


@lru_cache(maxsize=256)
def regions_of(country: str) -> tuple[str, ...]:
    """Every region the geocoder's data names in `country`, sorted: what a target or a campaign may
    list (a name outside it would never match a call)."""
    code = phonenumbers.country_code_for_region(country)
    if not code:
        return ()
    prefix = str(code)
    shared = len(phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(code, ())) > 1
    found: set[str] = set()
    for digits, names in GEOCODE_DATA.items():
        description = names.get(LANGUAGE)
        if not description or not digits.startswith(prefix):
            continue
        if shared and region_for_prefix(digits) != country:
            continue
        found.add(region_name(description, country))
    whole = pycountry.countries.get(alpha_2=country)
    found.discard(whole.name if whole is not None else "")
    return tuple(sorted(found))
