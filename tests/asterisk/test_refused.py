"""Refused calls the carrier's way (docs/routing.md, "Refused calls"): each row of the table as a
real call, which hears its announcement as early media (183, never a 200 OK), is released with the
documented SIP status, and leaves a row with the documented disposition and cause."""

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.infra.db import session_scope
from core.models import BlockEntry, Campaign, Number, Target
from core.values.enums import Status
from testkit.asterisk import AsteriskUnderTest, Plan, calls, seed_plan
from testkit.rows import CALLER
from testkit.sipp import call, sipp_target

pytestmark = pytest.mark.asterisk
UNKNOWN = "+442079460000"


def _unassigned(plan: Plan) -> str:
    with session_scope() as s:
        s.add(Number(number=UNKNOWN, user_id=None, campaign_id=None))  # in the inventory, given to nobody
    return UNKNOWN


def _no_campaign(plan: Plan) -> str:
    with session_scope() as s:
        s.add(Number(number=UNKNOWN, user_id=plan.user_id, campaign_id=None))
    return UNKNOWN


def _campaign_inactive(plan: Plan) -> str:
    with session_scope() as s:
        campaign = s.get(Campaign, plan.campaign_id)
        assert campaign is not None
        campaign.status = Status.INACTIVE.value
    return plan.did


def _blocked(plan: Plan) -> str:
    with session_scope() as s:
        s.add(BlockEntry(user_id=plan.user_id, pattern=CALLER, match_type="exact"))
    return plan.did


def _closed(plan: Plan) -> str:
    with session_scope() as s:
        target = s.get(Target, plan.targets[0])
        assert target is not None
        # Open only on a weekday that is never today in the target's zone: closed now.
        other = "mon" if datetime.now(UTC).strftime("%a").lower() != "mon" else "tue"
        target.schedule = {other: [["00:00", "00:01"]]}
    return plan.did


def _capped(plan: Plan) -> str:
    with session_scope() as s:
        target = s.get(Target, plan.targets[0])
        assert target is not None
        target.daily_cap = 0
    return plan.did


def _as_seeded(plan: Plan) -> str:
    return plan.did


# (what is refused, how, the target's behaviour, balance, disposition, Q.850 cause, SIP status)
TABLE: list[tuple[str, Callable[[Plan], str], str, str, str, int, int]] = [
    ("not in the inventory", lambda plan: UNKNOWN, "answer", "100", "NO_ROUTE", 1, 404),
    ("in the inventory, unassigned", _unassigned, "answer", "100", "NO_ROUTE", 1, 404),
    ("no campaign", _no_campaign, "answer", "100", "NO_ROUTE", 1, 404),
    ("campaign inactive", _campaign_inactive, "answer", "100", "NO_ROUTE", 1, 404),
    ("caller blocked", _blocked, "answer", "100", "BLOCKED", 21, 403),
    ("no balance", _as_seeded, "answer", "0", "NO_BALANCE", 34, 503),
    ("closed", _closed, "answer", "100", "NO_ROUTE", 34, 503),
    ("every target capped", _capped, "answer", "100", "NO_ROUTE", 17, 486),
    ("every target busy", _as_seeded, "busy", "100", "BUSY", 17, 486),
]


@pytest.mark.parametrize(
    ("refused", "setup", "behaviour", "balance", "disposition", "cause", "status"),
    TABLE,
    ids=[row[0] for row in TABLE],
)
async def test_a_refused_call_hears_why_unanswered_and_is_released_with_its_cause(
    asterisk: AsteriskUnderTest,
    sipp_binary: str,
    bridge: Path,
    tmp_path: Path,
    refused: str,
    setup: Callable[[Plan], str],
    behaviour: str,
    balance: str,
    disposition: str,
    cause: int,
    status: int,
) -> None:
    with sipp_target(sipp_binary, behaviour, tmp_path) as target:
        plan = seed_plan([target.port], balance=balance, pushed_to=asterisk)
        log = await call(sipp_binary, asterisk, setup(plan), CALLER, tmp_path, talk_ms=15000)
    assert "early_media=183" in log and "final=SIP/2.0 200" not in log, log
    assert f"final=SIP/2.0 {status}" in log, log
    (row,) = calls()
    assert (row.disposition, row.hangup_cause, row.sip_status) == (disposition, cause, status), row.trail
    assert (row.hangup_by, row.answered_at, row.billsec) == ("system", None, 0)


async def test_the_duplicate_of_a_caller_already_put_through_is_rejected(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    with sipp_target(sipp_binary, "answer", tmp_path) as target:
        plan = seed_plan(
            [target.port], pushed_to=asterisk, duplicate_action="reject", duplicate_window_seconds=3600
        )
        await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=1000)
        calls(1)
        log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=15000)
        _, row = calls(2)
    assert "early_media=183" in log and "final=SIP/2.0 200" not in log and "final=SIP/2.0 403" in log
    assert (row.disposition, row.hangup_cause, row.sip_status, row.billsec) == ("DUPLICATE", 21, 403, 0)
