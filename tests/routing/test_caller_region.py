"""Caller-region routing (docs/regions.md): the origin read from the number offline, a target's
accept / exclude lists and line types, "unknown" handled by the setting, and a campaign's block,
each visible in the trail; on the real database where the engine reads the rules."""

import pytest

from core.calls.caller_origin import NOWHERE, UNKNOWN, CallerOrigin, caller_origin, region_name, regions_of
from core.models import Call
from core.routing.region import CampaignRule, TargetRule
from core.values.enums import Disposition, LineType, RegionMode
from testkit.rows import admit_call, desk, get, line, route, target_reasons
from testkit.rows import call as ended_call

LONDON = "+442071234567"
CALIFORNIA = "+13105550100"
UK_MOBILE = "+447400123456"
US_TOLL_FREE = "+18005550100"


@pytest.mark.parametrize(
    ("caller", "country", "region", "line_type"),
    [
        (LONDON, "GB", "London", LineType.FIXED),
        (CALIFORNIA, "US", "California", LineType.UNKNOWN),  # US numbers don't tell fixed from mobile
        ("+16502530000", "US", "California", LineType.UNKNOWN),  # "Mountain View, CA": the state
        ("+16135550100", "CA", "Ontario", LineType.UNKNOWN),
        ("+5511987654321", "BR", "São Paulo", LineType.MOBILE),
        ("+8613912345678", "CN", "Jiangsu", LineType.MOBILE),  # "Changzhou, Jiangsu": the province
        (UK_MOBILE, "GB", UNKNOWN, LineType.MOBILE),  # a mobile range names only its country
        (US_TOLL_FREE, "US", UNKNOWN, LineType.OTHER),
        ("+80012345678", UNKNOWN, UNKNOWN, LineType.OTHER),  # international freephone: no country
        ("+447700900123", UNKNOWN, UNKNOWN, LineType.UNKNOWN),  # a range never allocated: invalid
        ("+1234", UNKNOWN, UNKNOWN, LineType.UNKNOWN),
        ("anonymous", UNKNOWN, UNKNOWN, LineType.UNKNOWN),
        ("", UNKNOWN, UNKNOWN, LineType.UNKNOWN),
    ],
)
def test_the_origin_is_read_from_the_number_offline(
    caller: str, country: str, region: str, line_type: str
) -> None:
    origin = caller_origin(caller)
    assert (origin.country, origin.region, origin.line_type) == (country, region, line_type)


def test_region_names_are_the_larger_area_and_the_catalogue_lists_what_calls_show() -> None:
    assert region_name("Mountain View, CA", "US") == "California"
    assert region_name("Abadia de Goiás - GO", "BR") == "Goiás"
    assert region_name("London", "GB") == "London"
    us = regions_of("US")
    assert {"California", "New York", "Texas"} <= set(us) and "Mountain View, CA" not in us
    assert "London" in regions_of("GB") and list(us) == sorted(us)
    assert regions_of("ZZ") == ()


def origin(country: str, region: str, line_type: LineType = LineType.FIXED) -> CallerOrigin:
    return CallerOrigin(country, region, line_type)


def test_a_target_accepts_or_excludes_places_and_line_types() -> None:
    accept = TargetRule.of({"mode": "accept", "regions": ["US:California", "GB"]})
    assert accept.refusal(origin("US", "California")) is None
    assert accept.refusal(origin("GB", "Leeds")) is None  # the whole country is listed
    assert accept.refusal(origin("US", "Texas")) == "region Texas, US not accepted"
    exclude = TargetRule.of({"mode": "exclude", "regions": ["GB:London"], "excluded_line_types": ["mobile"]})
    assert exclude.refusal(origin("GB", "London")) == "region London, GB excluded (London, GB)"
    assert exclude.refusal(origin("GB", "Leeds")) is None
    assert exclude.refusal(origin("GB", "Leeds", LineType.MOBILE)) == "line type mobile excluded"
    assert TargetRule.of({}).refusal(NOWHERE) is None  # the default takes every caller


def test_unknown_regions_follow_the_setting_and_what_is_known_still_counts() -> None:
    us_unknown, ru_unknown = origin("US", UNKNOWN, LineType.OTHER), origin("RU", UNKNOWN, LineType.MOBILE)
    accept = {"mode": "accept", "regions": ["US:California"]}
    assert TargetRule.of(accept).refusal(us_unknown) is None  # may be Californian: taken
    assert TargetRule.of(accept).refusal(NOWHERE) is None
    assert TargetRule.of(accept).refusal(ru_unknown) == "region RU not accepted"  # not from the US at all
    refused = TargetRule.of({**accept, "accept_unknown": False}).refusal(us_unknown)
    assert refused == "caller's region unknown (US) not accepted"
    assert (
        TargetRule.of({"accept_unknown": False}).refusal(NOWHERE)
        == "caller's region unknown (unknown) not accepted"
    )
    assert (
        TargetRule.of({"mode": "exclude", "regions": ["US"]}).refusal(us_unknown) == "region US excluded (US)"
    )
    assert TargetRule.of({"mode": "exclude", "regions": ["US:California"]}).refusal(us_unknown) is None


def test_a_campaign_blocks_places_line_types_and_optionally_unknown_regions() -> None:
    rule = CampaignRule.of({"blocked_regions": ["US:Texas"], "blocked_line_types": ["other"]})
    assert rule.refusal(origin("US", "Texas")) == "the campaign blocks callers from Texas, US"
    assert rule.refusal(origin("US", UNKNOWN, LineType.OTHER)) == "the campaign blocks other lines"
    assert rule.refusal(origin("US", "Ohio")) is None and rule.refusal(NOWHERE) is None
    strict = CampaignRule.of({"accept_unknown": False})
    assert strict.refusal(NOWHERE) == "the campaign blocks callers whose region is unknown (unknown)"
    # Rows written outside the API with values the rules don't know take every caller.
    assert TargetRule.of({"mode": "sideways", "excluded_line_types": ["satellite"]}).mode == RegionMode.ALL


def test_the_engine_skips_a_target_by_region_and_says_so_in_the_trail() -> None:
    ln = line()
    desk(ln, "London desk", priority=1, region_rules={"mode": "exclude", "regions": ["GB:London"]})
    desk(ln, "Anyone desk", priority=2)
    selection = route(caller=LONDON)
    assert [c.name for c in selection.candidates] == ["Anyone desk"]
    assert target_reasons(selection)["London desk"] == ("skipped", "region London, GB excluded (London, GB)")
    assert [c.name for c in route(caller=CALIFORNIA).candidates] == ["London desk", "Anyone desk"]
    everyone_skipped = route(caller="anonymous")  # unknown accepted by default
    assert everyone_skipped.disposition is None


def test_a_campaign_block_stops_the_call_as_blocked_after_reading_the_region() -> None:
    ln = line(region_rules={"blocked_line_types": ["mobile"], "blocked_regions": ["US:California"]})
    desk(ln, "Desk")
    for caller, why in [
        (UK_MOBILE, "blocks mobile lines"),
        (CALIFORNIA, "blocks callers from California, US"),
    ]:
        admission = admit_call(caller=caller)
        assert (admission.disposition, admission.stopped_at) == (Disposition.BLOCKED, "region")
        last = admission.trail[-1]
        assert why in last["reason"] and last["disposition"] == "BLOCKED"
    passed = admit_call(caller=LONDON)
    assert passed.admitted
    (region,) = [e for e in passed.trail if e["step"] == "region"]
    assert (region["country"], region["region"], region["line_type"]) == ("GB", "London", "fixed")
    assert region["reason"] == "caller from London, GB (fixed line)"


def test_the_longest_region_names_fit_the_call_row() -> None:
    # Australian ranges name their exchanges: 442 characters for +61 2 5341.
    long = caller_origin("+61253419999")
    assert long.country == "AU" and long.region.startswith("Blayney/Baldry/") and len(long.region) > 400
    ended = ended_call(
        None, 0, caller_country=long.country, caller_region=long.region, caller_line_type="fixed"
    )
    assert get(Call, ended).caller_region == long.region
