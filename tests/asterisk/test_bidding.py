"""Real-time bidding with a real call (docs/bidding.md): sipp as carrier and targets, Asterisk 22, the
bridge, three buyers' bidding endpoints on loopback (one too late, one erring, one winning) and a
static target paying less; rated by a real worker."""

import os
import signal
from decimal import Decimal
from pathlib import Path

import pytest

from core.infra.db import session_scope
from core.models import CampaignTarget, Target
from testkit.asterisk import AsteriskUnderTest, Plan, calls, seed_plan
from testkit.bidders import Behaviour, bidding_endpoints
from testkit.processes import start_worker
from testkit.rows import CALLER, change
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually_async

pytestmark = pytest.mark.asterisk
WINNING_NUMBER = "+14155550199"  # where the winning bid asks the call to go


def add_bidder(plan: Plan, name: str, url: str, deadline_ms: int = 300) -> int:
    """A bidding target of the plan's buyer on the campaign, at the first priority."""
    plan_user, campaign_id = plan.user_id, plan.campaign_id
    with session_scope() as s:
        target = Target(
            user_id=plan_user,
            buyer_id=plan.buyer_id,
            name=name,
            destination="+14155550177",
            ping_url=url,
            bid_deadline_ms=deadline_ms,
        )
        s.add(target)
        s.flush()
        s.add(CampaignTarget(user_id=plan_user, campaign_id=campaign_id, target_id=target.id, priority=1))
        return target.id or 0


async def test_the_call_goes_to_the_winning_bid_and_earns_it(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, tmp_path: Path
) -> None:
    paths = {
        "late": Behaviour(body={"bid": 40}, late=True),
        "error": Behaviour(status=500, body={"error": "down"}),
        "win": Behaviour(body={"bid": "12.5", "number": WINNING_NUMBER}),
    }
    worker = start_worker(str(tmp_path / "worker.log"))
    try:
        with (
            bidding_endpoints(paths) as buyers,
            sipp_target(sipp_binary, "answer", tmp_path) as static,
            sipp_target(sipp_binary, "answer", tmp_path) as winner,
        ):
            # Static first in priority, paying 5.00; the winner second in priority, bidding 12.50.
            plan = seed_plan([static.port, winner.port], pushed_to=asterisk, buffer_seconds=0)
            static_id, winner_id = plan.targets
            change(Target, static_id, payout=Decimal("5"))
            # The late bidder has the default 300 ms; the winner more than a loaded test machine needs.
            change(Target, winner_id, ping_url=buyers.url("win"), bid_deadline_ms=3000)
            late = add_bidder(plan, "Late", buyers.url("late"))
            failing = add_bidder(plan, "Erring", buyers.url("error"), deadline_ms=3000)
            log = await call(sipp_binary, asterisk, plan.did, CALLER, tmp_path, talk_ms=2000)
            assert "final=SIP/2.0 200" in log, log + bridge.read_text()[-3000:]
            assert (winner.invites(), static.invites()) == (1, 0)
            assert f"invite={WINNING_NUMBER.lstrip('+')}" in winner.log.read_text()
        (row,) = calls()
        assert (row.disposition, row.target_id) == ("ANSWERED", winner_id), row.trail
        assert row.bid == Decimal("12.5")
        bids = {e["target_id"]: e for e in row.trail if e["step"] == "bid"}
        assert set(bids) == {winner_id, late, failing}
        assert bids[late]["result"] == "skipped"
        assert "no bid within the 300 ms deadline" in bids[late]["reason"]
        assert bids[late]["latency_ms"] >= 300
        assert bids[failing]["result"] == "skipped" and "ping failed: HTTP 500" in bids[failing]["reason"]
        assert (bids[winner_id]["result"], bids[winner_id]["bid"]) == ("candidate", "12.5000")
        steps = [e["step"] for e in row.trail]
        assert steps.index("rank") < steps.index("post") < steps.index("dial")
        dial = [e for e in row.trail if e["step"] == "dial"]
        assert [(d["target_id"], d["destination"], d["status"]) for d in dial] == [
            (winner_id, WINNING_NUMBER, "ANSWER")
        ]
        # The buyers heard of the caller's area in the ping, its number only in the winner's post.
        assert all(CALLER not in str(b) for path in paths for b in buyers.got(path, "ping"))
        assert [p["caller"]["number"] for p in buyers.got("win", "post")] == [CALLER]
        # Rated by the worker (no tariff: `no_rate`, the payout is earned all the same).
        await eventually_async(lambda: calls()[0].rating_status != "pending", timeout=30, interval=0.3)
        (row,) = calls()
        assert (row.converted, row.payout) == (True, Decimal("12.5"))  # the bid, not a target's payout
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=20)
