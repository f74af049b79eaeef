"""Schemathesis against the served OpenAPI document, with every check on every operation: no 5xx,
every response fits its schema, wrong methods are 405 with the path's own `Allow`, a request the
schema forbids is refused, a request it allows is accepted (not a 400 or 422), a missing or wrong
token is a 401.

The schema states the rules (patterns, enums, bounds, what holds between fields); an id naming no
row is a 404, and a phone number is the `phone` format, generated here from phonenumbers' own
example numbers, a customer's URL the `public-url` format, and an uploaded file the media type its
part declares (a numbers CSV, an 8 kHz PCM WAV). The few rules no JSON Schema can state (between a
field and stored rows, the numbering data or DNS, or a file's columns) are met by completing the
generated positive cases in COMPLETE, each with its reason; negative cases are sent as generated
(docs/api.md, "The OpenAPI document").

Bounded: a few examples per operation, signed in as an admin over a small world of rows, so the
generated calls reach real handlers rather than stopping at the 401.
"""

import csv
import io
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import phonenumbers
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError
from schemathesis.checks import CHECKS, load_all_checks, not_a_server_error

from core.calls.caller_origin import regions_of
from core.infra import outbound
from core.routing.region import SEPARATOR
from core.values.phone import region_of
from core.webhooks import template
from portal_api.app import create_app
from portal_api.schemas.common import PHONE_FORMAT, PUBLIC_URL_FORMAT, outbound_url
from portal_api.schemas.conversions import LONGEST_RANGE_DAYS
from portal_api.schemas.rating import RATE_CARD
from portal_api.schemas.targets import Destination
from portal_api.services.number_upload import COLUMNS as NUMBER_COLUMNS
from testkit.audio import wav
from testkit.world import World, build_world

pytestmark = pytest.mark.slow

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())
schema.config.generation.update(
    # Unknown query parameters are ignored (a body's unknown fields are refused): no case sends them.
    allow_extra_parameters=False,
    # The test signs every call in itself, as the admin; `ignored_auth` checks the 401s.
    with_security_parameters=False,
)
load_all_checks()
CHECKED = CHECKS.get_all()

# Customers' URLs the platform requests must name public addresses (core.infra.outbound).
PUBLIC_URLS = ["https://93.184.215.14/calls?caller={caller}", "http://[2606:4700::1111]:8080/bid"]
schemathesis.openapi.format(PUBLIC_URL_FORMAT, st.sampled_from(PUBLIC_URLS))


def _example_numbers() -> list[str]:
    examples = (phonenumbers.example_number(region) for region in sorted(phonenumbers.SUPPORTED_REGIONS))
    return [phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164) for n in examples if n]


PHONES = _example_numbers()
schemathesis.openapi.format(PHONE_FORMAT, st.sampled_from(PHONES))


# Uploaded files, by the media type their part declares (`encoding` in the OpenAPI).
def _numbers_csv(numbers: list[str]) -> bytes:
    """A number upload: its header, then a number a line (the other columns left to their defaults)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(NUMBER_COLUMNS)
    writer.writerows([n, "", "", "", ""] for n in numbers)
    return out.getvalue().encode()


def _rate_card(numbers: list[str], rate: str) -> bytes:
    """A rate card: its required columns, the numbers' country codes as prefixes (each once)."""
    prefixes = dict.fromkeys(str(phonenumbers.parse(n).country_code) for n in numbers)
    return ("prefix,rate\n" + "".join(f"{p},{rate}\n" for p in prefixes)).encode()


_SOME_NUMBERS = st.lists(st.sampled_from(PHONES), min_size=1, max_size=5)
# 0.3 to 2 s at 8 kHz: a whisper lasts 300 ms to 15 s (core.calls.whisper).
schemathesis.openapi.media_type("audio/wav", st.floats(0.3, 2.0).map(lambda seconds: wav(seconds, rate=8000)))
schemathesis.openapi.media_type("text/csv", _SOME_NUMBERS.map(_numbers_csv))
schemathesis.openapi.media_type(
    RATE_CARD, st.builds(_rate_card, _SOME_NUMBERS, st.sampled_from(["0.01", "0.125", "3"]))
)


# Completing a positive case: the generated data changed as little as the rule needs.
Fixup = Callable[[Any, World], Any]


def _public(url: Any) -> Any:
    """A URL the platform may request (core.infra.outbound): its host a name or an address written out
    (`host_name`: a pattern can't say that `https://0000…` is no name), a public one once resolved."""
    if not isinstance(url, str):
        return url
    rendered = template.render(url, {})
    try:
        outbound_url(rendered, example="")
    except ValueError:
        return PUBLIC_URLS[0]
    return PUBLIC_URLS[0] if outbound.url_refusal(rendered) else url


def _place(place: Any) -> Any:
    """A place whose region is one its country's numbering data names (or the country alone)."""
    if not isinstance(place, str) or SEPARATOR not in place:
        return place
    country, _, region = place.partition(SEPARATOR)
    named = regions_of(country)
    if region.strip() in named:
        return place
    return f"{country}{SEPARATOR}{named[len(region) % len(named)]}" if named else country


def _places(rules: Any, field: str) -> None:
    if isinstance(rules, dict) and isinstance(rules.get(field), list):
        rules[field] = [_place(p) for p in rules[field]]


def _schedule(schedule: Any) -> Any:
    """Each day's windows start before they end and don't overlap: a later overlapping one is left out."""
    if not isinstance(schedule, dict):
        return schedule
    fixed: dict[str, list[list[str]]] = {}
    for day, windows in schedule.items():
        kept: list[list[str]] = []
        for start, end in sorted(sorted(w) for w in windows):
            if start < end and (not kept or kept[-1][1] <= start):
                kept.append([start, end])
        fixed[day] = kept
    return fixed


_DESTINATION = TypeAdapter(Destination)
# A contact's phone: the `phone` format, whose numbers the service reads in the account's country.
CONTACT_PHONES = ("phone", "page_number")


def _contact_phones(body: dict[str, Any]) -> None:
    """What is no number at all (the generator knows the format's name, not its rule), a phone number
    replaces; an empty one, which clears the field, stays."""
    for name in CONTACT_PHONES:
        value = body.get(name)
        if isinstance(value, str) and value.strip() and value.strip() not in PHONES:
            body[name] = PHONES[len(value) % len(PHONES)]


def _pool(body: Any, world: World) -> Any:
    body["number_ids"] = [world.ids["number"]]  # a pool's numbers are its campaign's own (stored data)
    return body


def _target(body: Any, world: World, *, update: bool = False) -> Any:
    if "destination" in body:
        # The `phone` format beside a SIP pattern: what the validator refuses, a phone number replaces.
        try:
            _DESTINATION.validate_python(body["destination"])
        except ValidationError:
            body["destination"] = PHONES[len(str(body["destination"])) % len(PHONES)]
    if body.get("trunk_id") == world.ids["inbound_trunk"]:
        body["trunk_id"] = world.ids["trunk"]  # targets dial out: an outbound trunk (stored data)
    _places(body.get("region_rules"), "regions")
    if "schedule" in body:
        body["schedule"] = _schedule(body["schedule"])
    for name in ("ping_url", "post_url"):
        if name in body:
            body[name] = _public(body[name])
    bidding = body.get("post_url") is not None or body.get("min_bid") is not None
    if update and bidding and body.get("ping_url") is None:
        # The world's target has no ping URL: an update giving a post URL or a minimum bid names one.
        body["ping_url"] = PUBLIC_URLS[0]
    elif update and "ping_url" in body and body["ping_url"] is None:
        # No longer a bidder: its post URL and minimum bid (as an earlier case may have set) go too.
        body["post_url"] = body["min_bid"] = None
    return body


def _campaign(body: Any, world: World) -> Any:
    _places(body.get("region_rules"), "blocked_regions")
    return body


def _owned(body: Any, world: World) -> Any:
    if body.get("user_id") is None:
        body["user_id"] = world.a.id
    return body


def _exact_block(body: Any, world: World) -> Any:
    if "pattern" in body and body.get("match_type") != "prefix":
        body["pattern"] = PHONES[len(body["pattern"]) % len(PHONES)]
    return body


def _each_target_once(body: Any, world: World) -> Any:
    seen: set[Any] = set()
    body["targets"] = [t for t in body["targets"] if not (t["target_id"] in seen or seen.add(t["target_id"]))]
    return body


def _numbers_country(body: Any, world: World) -> Any:
    if body.get("iso2") is not None:
        body["iso2"] = "GB"
    if body.get("country_id") is not None:
        body["country_id"] = world.ids["country"]
    return body


def _new_number_country(body: Any, world: World) -> Any:
    # A country named beside a new number is the number's own (the numbering plan's rule).
    if body.get("iso2") is not None:
        body["iso2"] = region_of(body["number"]) or "GB"
    body.pop("country_id", None)
    return body


def _report_query(query: Any, world: World) -> Any:
    if query.get("fromDate") and query.get("toDate") and query["fromDate"] > query["toDate"]:
        query["fromDate"], query["toDate"] = query["toDate"], query["fromDate"]
    if str(query.get("caller_region") or "").strip() and not str(query.get("caller_country") or "").strip():
        query["caller_country"] = "GB"
    return query


def _conversions_query(query: Any, world: World) -> Any:
    query = _report_query(query, world)
    first, last = date.fromisoformat(query["fromDate"]), date.fromisoformat(query["toDate"])
    query["toDate"] = min(last, first + timedelta(days=LONGEST_RANGE_DAYS - 1)).isoformat()
    query["user_id"] = world.a.id  # the admin names the customer whose conversions these are
    return query


def _webhook(body: Any, world: World) -> Any:
    if "url" in body:
        body["url"] = _public(body["url"])
    return body


# Rules JSON Schema has no words for, met by completing the positive cases (docs/api.md):
COMPLETE: dict[str, tuple[str, Fixup]] = {
    # A block's exact pattern is a whole phone number: the generator can't join a pattern to a format.
    "/api/block/add": ("body", _exact_block),
    "/api/block/{id}": ("body", _exact_block),
    # The admin names the owner, a customer may not: the same body, two rules by role.
    "/api/buyer/add": ("body", _owned),
    # ... and a region must be one of some 18,000 its country's numbering data names.
    "/api/campaign/add": ("body", lambda body, world: _campaign(_owned(body, world), world)),
    "/api/campaign/{id}": ("body", _campaign),
    # Items unique by target_id: JSON Schema's uniqueItems compares whole objects.
    "/api/camp/add": ("body", _each_target_once),
    # The admin names the customer of a new traffic source (the list's GET has no body).
    "/api/sources": ("body", _owned),
    # A number's country is its own (stored data: the world's numbers are British).
    "/api/number/{id}": ("body", _numbers_country),
    "/api/number/add": ("body", _new_number_country),
    # toDate not before fromDate; caller_region within a caller_country (query parameters, not one schema).
    "/api/report": ("query", _report_query),
    "/api/report/save": ("query", _report_query),
    "/api/report/totals": ("query", _report_query),
    "/api/report/groups": ("query", _report_query),
    # The same days, at most 90 of them (Google's window); the admin names the customer.
    "/api/conversions/google-ads": ("query", _conversions_query),
    # A schedule's windows in order and apart, a region in the numbering data, a public address
    # (a DNS answer), an outbound trunk; an update's post URL or minimum bid beside the ping URL the
    # target has; a destination the `phone` format (a library's rule) or the SIP pattern allows.
    "/api/target/add": ("body", _target),
    "/api/target/{id}": ("body", lambda body, world: _target(body, world, update=True)),
    "/api/dni/pool/{id}": ("body", _pool),
    "/api/webhook/add": ("body", _webhook),
    "/api/webhook/{id}": ("body", _webhook),
}
# Recordings come from Asterisk, which these tests don't run: its documented 503 is the right answer.
NEEDS_PBX = {"/api/report/recording/{id}"}


@pytest.fixture
def world() -> World:
    return build_world()


@schema.parametrize()
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_api_contract(case: schemathesis.Case, world: World) -> None:
    # Not /logout: revoking the shared token would leave the rest of this operation's examples at 401.
    headers = {} if case.path == "/api/logout" else world.admin.headers
    excluded = [not_a_server_error] if case.path in NEEDS_PBX else []
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive and isinstance(case.body, dict):
        _contact_phones(case.body)
    if case.path in COMPLETE and meta is not None and meta.generation.mode.is_positive:
        where, fixup = COMPLETE[case.path]
        data = getattr(case, where)
        if isinstance(data, dict):
            setattr(case, where, fixup(data, world))
    case.call_and_validate(headers=headers, checks=CHECKED, excluded_checks=excluded)
