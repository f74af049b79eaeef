"""Schemathesis against the served OpenAPI document, with every check: no 5xx, every response fits
its schema, wrong methods are 405 with the path's own `Allow`, a request the schema forbids is
refused, a request it allows is accepted (not a 400 or 422), a missing or wrong token is a 401.

The schema states the rules (patterns, enums, bounds, what holds between fields); an id naming no
row is a 404, and a phone number is the `phone` format, generated here from phonenumbers' own
example numbers (docs/api.md, "The OpenAPI document").

Bounded: a few examples per operation, signed in as an admin over a small world of rows, so the
generated calls reach real handlers rather than stopping at the 401.
"""

import phonenumbers
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS, load_all_checks, not_a_server_error, positive_data_acceptance

from portal_api.app import create_app
from portal_api.schemas.common import PHONE_FORMAT, PUBLIC_URL_FORMAT
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

# Customers' URLs the platform requests must name public addresses (core.outbound).
schemathesis.openapi.format(
    PUBLIC_URL_FORMAT,
    st.sampled_from(["https://93.184.215.14/calls?caller={caller}", "http://[2606:4700::1111]:8080/bid"]),
)


def _example_numbers() -> list[str]:
    examples = (phonenumbers.example_number(region) for region in sorted(phonenumbers.SUPPORTED_REGIONS))
    return [phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164) for n in examples if n]


schemathesis.openapi.format(PHONE_FORMAT, st.sampled_from(_example_numbers()))
# Where a valid request depends on more than its own fields, a well-formed one may still be refused
# (422), so "a request the schema allows is accepted" is not asked of these (docs/api.md):
RULES_BEYOND_THE_SCHEMA = {
    # A CSV file's contents (header, one number or rate per line) are not a JSON Schema's to say.
    "/api/number/vcr": "the CSV's contents",
    "/api/rate/import/{tariff_id}": "the CSV's contents",
    # Nor is an audio file's (a PCM WAV of a given rate and length).
    "/api/campaign/whisper/{id}/recording": "the audio file's contents",
    # The admin names the owner, a customer may not: the same body, two rules by role.
    "/api/buyer/add": "user_id required of an admin only",
    "/api/campaign/add": "user_id required of an admin only; a region named in the numbering data",
    # A target linked twice: items unique by target_id, which JSON Schema can't say of objects.
    "/api/camp/add": "each target once",
    # Rules between a field and stored data, or between items, that JSON Schema has no words for.
    "/api/number/{id}": "a country must be the number's own",
    "/api/report": "toDate not before fromDate; caller_region needs caller_country",
    "/api/report/save": "toDate not before fromDate; caller_region needs caller_country",
    "/api/target/add": (
        "a schedule's windows start before they end and don't overlap; a region in the numbering data"
    ),
    "/api/target/{id}": (
        "a schedule's windows start before they end and don't overlap; a region in the numbering data"
    ),
    # A place's region must be one of some 18,000 its country's numbering data names (the schema
    # states the country and the shape).
    "/api/campaign/{id}": "a region named in the numbering data",
    # An exact block is a whole phone number: the generator can't join a pattern to the phone format.
    "/api/block/add": "an exact pattern is a whole phone number",
    "/api/block/{id}": "an exact pattern is a whole phone number",
    # Exactly one owner, and the caller's own; a URL whose host resolves to a public address
    # (core/outbound.py): a DNS answer, not a schema's.
    "/api/webhook/add": "exactly one of campaign_id and buyer_id, the caller's own; a public address",
    "/api/webhook/{id}": "a URL whose host resolves to a public address",
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
    if case.path in RULES_BEYOND_THE_SCHEMA:
        excluded.append(positive_data_acceptance)
    case.call_and_validate(headers=headers, checks=CHECKED, excluded_checks=excluded)
