"""Where many real calls go: weights, round robin and daily caps, over SIP through Asterisk and the bridge.

The call rows the bridge writes are the truth for where each call went; the sipp targets' own
INVITE counts show the calls really reached them.
"""

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.models import Call, CampaignTarget, Target
from testkit.asterisk import AsteriskUnderTest, Plan, calls, seed_plan
from testkit.rows import CALLER
from testkit.sipp import SippTarget, call_many, sipp_target

pytestmark = pytest.mark.asterisk


@pytest.fixture
def answering(sipp_binary: str, tmp_path: Path) -> Iterator[tuple[SippTarget, SippTarget]]:
    """Two targets that answer every call."""
    with (
        sipp_target(sipp_binary, "answer", tmp_path) as one,
        sipp_target(sipp_binary, "answer", tmp_path) as two,
    ):
        yield one, two


def one_priority(plan: Plan, weights: tuple[int, ...]) -> None:
    """Put the plan's targets in one priority group (seed_plan gives each its own) with these weights."""
    with session_scope() as s:
        for target_id, weight in zip(plan.targets, weights, strict=True):
            link = s.exec(select(CampaignTarget).where(CampaignTarget.target_id == target_id)).one()
            link.priority, link.weight = 1, weight


def step(row: Call, name: str) -> list[dict[str, Any]]:
    return [e for e in row.trail if e["step"] == name]


def target_reasons(row: Call) -> dict[int, tuple[str, str]]:
    return {e["target_id"]: (e["result"], e["reason"]) for e in step(row, "target")}


def all_answered(rows: list[Call], count: int) -> bool:
    return len(rows) == count and all(r.disposition == "ANSWERED" for r in rows)


async def test_weighted_random_splits_many_calls_by_weight(
    asterisk: AsteriskUnderTest,
    sipp_binary: str,
    bridge: Path,
    tmp_path: Path,
    answering: tuple[SippTarget, SippTarget],
) -> None:
    count = 150
    heavy, light = answering
    plan = seed_plan([heavy.port, light.port], pushed_to=asterisk)  # weighted random is the campaign default
    one_priority(plan, (4, 1))
    await call_many(sipp_binary, asterisk, plan.did, CALLER, tmp_path, [200] * count)
    rows = calls(count, timeout=30)
    assert all_answered(rows, count), (Counter(r.disposition for r in rows), bridge.read_text()[-3000:])
    assert {e["strategy"] for r in rows for e in step(r, "select")} == {"priority_weight"}
    taken = Counter(r.target_id for r in rows)
    # Each call goes first to the heavy target with p = 4/5, independently of the others, and that
    # target answers: its count is Binomial(150, 0.8), expected 120, standard deviation
    # sqrt(150 * 0.8 * 0.2) = 4.9. 100..140 is about ±4 sd: a correct split falls outside it about
    # once in 23,000 runs. Weights ignored fails: an equal split (expected 75, sd 6.1) lands inside
    # about once in 37,000 runs, all calls to one target (150 or 0) never.
    assert 100 <= taken[plan.targets[0]] <= 140, taken
    assert (heavy.invites(), light.invites()) == (taken[plan.targets[0]], taken[plan.targets[1]])


async def test_round_robin_alternates_targets_even_for_parallel_calls(
    asterisk: AsteriskUnderTest,
    sipp_binary: str,
    bridge: Path,
    tmp_path: Path,
    answering: tuple[SippTarget, SippTarget],
) -> None:
    count = 20
    first, second = answering
    plan = seed_plan([first.port, second.port], pushed_to=asterisk, strategy="round_robin")
    one_priority(plan, (1, 1))
    await call_many(sipp_binary, asterisk, plan.did, CALLER, tmp_path, [200] * count)
    rows = calls(count)
    assert all_answered(rows, count), (Counter(r.disposition for r in rows), bridge.read_text()[-3000:])
    assert {e["strategy"] for r in rows for e in step(r, "select")} == {"round_robin"}
    # Calls overlap, so rows are in arrival order; the cursor each call took is its turn.
    turns = sorted((step(r, "select")[0]["cursor"], r.target_id) for r in rows)
    cursors, targets = [c for c, _ in turns], [t for _, t in turns]
    assert cursors == list(range(cursors[0], cursors[0] + count))  # every call its own turn
    assert set(targets) == set(plan.targets) and all(a != b for a, b in pairwise(targets)), turns
    assert first.invites() == second.invites() == count // 2


async def test_daily_cap_sends_the_next_call_on_then_no_target_is_left(
    asterisk: AsteriskUnderTest,
    sipp_binary: str,
    bridge: Path,
    tmp_path: Path,
    answering: tuple[SippTarget, SippTarget],
) -> None:
    first, second = answering
    plan = seed_plan([first.port, second.port], pushed_to=asterisk)  # priorities 1 and 2
    # A zone where it is not about midnight, so the calls don't straddle the start of the
    # targets' day, when their daily counts begin again.
    zone = "UTC" if 1 <= datetime.now(UTC).hour <= 22 else "Asia/Tokyo"
    with session_scope() as s:
        for target_id, cap in zip(plan.targets, (2, 1), strict=True):
            target = s.get(Target, target_id)
            assert target is not None
            target.daily_cap, target.timezone = cap, zone
    logs: list[str] = []
    for n in range(1, 5):
        logs += await call_many(sipp_binary, asterisk, plan.did, CALLER, tmp_path, [300])
        rows = calls(n)  # one after the other: a cap counts calls that connected
    one, two = plan.targets
    assert [(r.disposition, r.target_id) for r in rows] == [
        ("ANSWERED", one),
        ("ANSWERED", one),
        ("ANSWERED", two),
        ("NO_ROUTE", None),
    ], [target_reasons(r) for r in rows]
    assert ["final=SIP/2.0 200" in log for log in logs] == [True, True, True, False]
    assert (first.invites(), second.invites()) == (2, 1)
    assert target_reasons(rows[1])[one] == ("candidate", "available (daily cap 1/2)")
    assert target_reasons(rows[2]) == {
        one: ("skipped", "daily cap 2/2"),
        two: ("candidate", "available (daily cap 0/1)"),
    }
    assert target_reasons(rows[3]) == {one: ("skipped", "daily cap 2/2"), two: ("skipped", "daily cap 1/1")}
    last = rows[3].trail[-1]
    assert (last["step"], last["result"], last["reason"]) == ("select", "stopped", "no target available")
