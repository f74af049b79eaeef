"""Phone numbers are stored in E.164 ('+' and digits); `phonenumbers` does the parsing."""

import re
from functools import lru_cache
from importlib import resources

import phonenumbers


# Every call parses its DID and caller: parsing is the costly part of routing a call whose
# catalogue is cached, and the same numbers come back again and again.
@lru_cache(maxsize=65536)
def to_e164(raw: str, region: str | None = None, require_valid: bool = True) -> str:
    """Normalise `raw` to E.164; raises ValueError with a reason a person can act on.

    `require_valid=False` accepts any number of a possible length for its country: caller ids
    (to block, say) may be spoofed or unallocated and still need a canonical form.
    """
    return e164_and_region(raw, region, require_valid)[0]


def e164_and_region(
    raw: str, region: str | None = None, require_valid: bool = True
) -> tuple[str, str | None]:
    """`to_e164`, and the region the number belongs to as `region_of` says it, from one parse:
    a number upload needs both for every line, and parsing is most of its time."""
    text = (raw or "").strip()
    if not text:
        raise ValueError("a phone number is required")
    if region is None and not text.startswith("+"):
        # Carriers often send international numbers without the '+'.
        text = "+" + text.lstrip("0")
    try:
        parsed = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException as exc:
        raise ValueError(f"{raw!r} is not a phone number") from exc
    if not phonenumbers.is_possible_number(parsed):
        raise ValueError(f"{raw!r} is not a phone number of a possible length")
    owner = phonenumbers.region_code_for_number(parsed)
    # is_valid_number is exactly this test for the number's own region, which we have already.
    if require_valid and (owner is None or not phonenumbers.is_valid_number_for_region(parsed, owner)):
        raise ValueError(f"{raw!r} is not a valid phone number")
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164), owner or None


@lru_cache
def _zone_regions() -> dict[str, str]:
    """IANA zone -> ISO country, from the zone table the tzdata package ships (zones with no one
    country, UTC, Etc/GMT+5, have none)."""
    table = resources.files("tzdata").joinpath("zoneinfo/zone.tab").read_text()
    rows = (line.split("\t") for line in table.splitlines() if line and not line.startswith("#"))
    return {row[2]: row[0] for row in rows if len(row) >= 3}


def region_of_zone(zone: str) -> str | None:
    """The country of an account's time zone (Europe/Berlin: DE), or None for UTC and the like."""
    return _zone_regions().get(zone)


def contact_number(raw: str, zone: str) -> str:
    """A contact's phone as a person types it, in E.164: international (+44..., 0044...) or national
    in the country of the account's time zone (030 12345678 in Europe/Berlin). ValueError says why not."""
    text = raw.strip()
    region = region_of_zone(zone)
    if text.startswith("00"):
        text = "+" + text[2:]
    if not text.startswith("+") and region is None:
        raise ValueError(f"{raw!r} needs its country code, such as +44 20 7946 0713")
    try:
        return to_e164(text, None if text.startswith("+") else region)
    except ValueError:
        where = f" or a {region} number" if region else ""
        raise ValueError(f"{raw!r} is not a phone number; write it as +44 20 7946 0713{where}") from None


def region_of(e164: str) -> str | None:
    """ISO 3166 alpha-2 region of an E.164 number, or None when it belongs to none."""
    return phonenumbers.region_code_for_number(phonenumbers.parse(e164)) or None


def digits(number: str) -> str:
    """The number's digits only, as rate-card prefixes are matched."""
    return "".join(ch for ch in number if ch.isdigit())


def digit_prefixes(number: str) -> list[str]:
    """Every leading run of the number's digits, shortest first, up to E.164's 15: what an
    index on a prefix column is probed with (rate cards, caller blocks)."""
    all_digits = digits(number)
    return [all_digits[:n] for n in range(1, min(len(all_digits), 15) + 1)]


def region_for_prefix(prefix: str) -> str | None:
    """The ISO country a destination prefix dials, as far as its digits tell (None for +800 and such)."""
    for size in (1, 2, 3):
        regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(prefix[:size]))
        if regions:
            break
    else:
        return None
    if regions == ("001",):
        return None  # international services (+800, +882...) belong to no country
    if len(regions) == 1:
        return str(regions[0])
    # Five more digits settle every shared code (the longest leading digits are +379 06698, +44 74576).
    return _shared_code_region(int(prefix[:size]), prefix[size : size + 5])


@lru_cache(maxsize=65536)
def _shared_code_region(code: int, national: str) -> str:
    """Among the regions sharing calling `code`: the one claiming `national`, else the main one."""
    for lead, region in _leading_digits(code):
        if lead.match(national):
            return region
    return _region_by_number_shape(code, national[:4]) or str(
        phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code][0]
    )


@lru_cache
def _leading_digits(code: int) -> list[tuple[re.Pattern[str], str]]:
    """The regions of a shared calling code that are told apart by their first national digits."""
    found = []
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code][1:]:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        assert meta is not None  # the library has metadata for every region it lists under a code
        lead = meta.leading_digits
        if lead:
            found.append((re.compile(lead), str(region)))
    return found


@lru_cache(maxsize=16384)
def _region_by_number_shape(code: int, national: str) -> str | None:
    """Regions without leading digits (Canada within +1, Jersey within +44): test a number of that shape."""
    if not national:
        return None
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code][1:]:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        assert meta is not None and meta.general_desc is not None  # as above; every region has one
        if meta.leading_digits:
            continue
        for length in meta.general_desc.possible_length:
            if length >= len(national):
                number = phonenumbers.parse(f"+{code}{national}{'2' * (length - len(national))}")
                if phonenumbers.is_valid_number_for_region(number, region):
                    return str(region)
    return None


def region_problem(number: str, iso2: str) -> str | None:
    """Why E.164 `number` can't be filed under country `iso2`, or None when it can."""
    return filing_problem(number, region_of(number), iso2)


def filing_problem(number: str, region: str | None, iso2: str) -> str | None:
    """`region_problem` for a number whose region (`region_of`) is known already."""
    # Non-geographic numbers (+800, +882...) have the region "001": any country may hold them.
    if region and region.isalpha() and region != iso2:
        return f"{number} is a {region} number, not {iso2}"
    return None
