"""Caller-region routing with real calls (docs/regions.md): the first target excludes London, so a
London caller reaches the second target and a Californian the first; a campaign that blocks mobile
lines refuses a mobile caller as a block (403); every row carries the caller's origin."""

from pathlib import Path

import pytest

from core.models import Campaign
from testkit.asterisk import AsteriskUnderTest, calls, seed_plan
from testkit.rows import change
from testkit.sipp import answering_plan, call, sipp_target

pytestmark = pytest.mark.asterisk
LONDON = "+442071234567"  # a London fixed line
CALIFORNIA = "+13105550100"  # area code 310, Los Angeles: California
UK_MOBILE = "+447400123456"  # a UK mobile range: no region, line type mobile


async def test_a_caller_from_an_excluded_region_goes_to_the_next_target(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    excludes_london = {"mode": "exclude", "regions": ["GB:London"]}
    with answering_plan(sipp_binary, asterisk, tmp_path, 2, region_rules=excludes_london) as plan:
        await call(sipp_binary, asterisk, plan.did, LONDON, tmp_path, talk_ms=1000)
        calls(1)
        await call(sipp_binary, asterisk, plan.did, CALIFORNIA, tmp_path, talk_ms=1000)
        london, california = calls(2)
    assert (london.disposition, london.target_id) == ("ANSWERED", plan.targets[1]), london.trail
    assert (california.disposition, california.target_id) == ("ANSWERED", plan.targets[0]), california.trail
    assert (london.caller_country, london.caller_region, london.caller_line_type) == ("GB", "London", "fixed")
    assert (california.caller_country, california.caller_region) == ("US", "California")
    region = next(e for e in london.trail if e["step"] == "region")
    assert (region["result"], region["country"], region["region"]) == ("passed", "GB", "London")
    skipped = next(e for e in london.trail if e["step"] == "target" and e["target_id"] == plan.targets[0])
    assert (skipped["result"], skipped["reason"]) == ("skipped", "region London, GB excluded (London, GB)")


async def test_a_campaign_blocking_mobile_lines_refuses_a_mobile_caller(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan([target.port], pushed_to=asterisk)
        change(Campaign, plan.campaign_id, region_rules={"blocked_line_types": ["mobile"]})
        log = await call(sipp_binary, asterisk, plan.did, UK_MOBILE, tmp_path, talk_ms=15000)
        (row,) = calls()
    assert "early_media=183" in log and "final=SIP/2.0 403" in log, log
    assert (row.disposition, row.hangup_cause, row.sip_status, row.target_id) == ("BLOCKED", 21, 403, None)
    assert (row.caller_country, row.caller_region, row.caller_line_type) == ("GB", "unknown", "mobile")
    assert row.trail[-1]["step"] == "region" and row.trail[-1]["disposition"] == "BLOCKED", row.trail
    assert "the campaign blocks mobile lines" in row.trail[-1]["reason"]
