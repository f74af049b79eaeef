"""Dialling order: lowest priority first, then weighted random or round robin within a priority."""

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from sqlmodel import Session

from core.infra.db import get_engine, session_scope
from core.models import Campaign
from core.routing import admit, select_targets
from testkit.rows import CALLER, DID, NOW, Live, desk, line, order, route, trunk


def test_lower_priority_numbers_are_dialled_first() -> None:
    ln = line()
    desk(ln, "Backup", priority=5)
    desk(ln, "Primary", priority=1)
    desk(ln, "Second", priority=2, weight=1000)  # weight never jumps a priority
    selection = route()
    assert selection.disposition is None and selection.stopped_at is None
    assert order(selection) == ["Primary", "Second", "Backup"]
    assert [c.priority for c in selection.candidates] == [1, 2, 5]
    last = selection.trail[-1]
    assert (last["step"], last["result"], last["order"]) == (
        "select",
        "passed",
        [c.target_id for c in selection.candidates],
    )
    assert (
        last["reason"] == "dial order: Primary, Second, Backup (lowest priority first, then weighted random)"
    )


def test_a_candidate_carries_what_the_bridge_dials_with() -> None:
    ln = line()
    out = trunk("carrier-out", port=5080, transport="tcp", dial_prefix="9", strip_digits=1, username="acme")
    via_trunk = desk(ln, "Via trunk", trunk_id=out.id, destination="+14155550111")
    desk(ln, "SIP desk", priority=2, destination="sip:desk@pbx.acme.example.com")
    first, second = route().candidates
    assert (first.target_id, first.buyer_id, first.name, first.destination) == (
        via_trunk.id,
        via_trunk.buyer_id,
        "Via trunk",
        "+14155550111",
    )
    assert first.trunk_id == out.id
    assert (first.trunk.host, first.trunk.port, first.trunk.transport) == (
        "carrier-out.example.net",
        5080,
        "tcp",
    )
    assert (first.trunk.dial_prefix, first.trunk.strip_digits, first.trunk.username) == ("9", 1, "acme")
    assert second.trunk is None and second.trunk_id is None


def test_weights_share_the_first_attempt_within_a_priority() -> None:
    ln = line()
    for name, weight in [("Small", 1), ("Medium", 3), ("Large", 6)]:
        desk(ln, name, weight=weight)
    desk(ln, "Overflow", priority=2, weight=1000)
    rng = random.Random(20260304)
    firsts: Counter[str] = Counter()
    with Session(get_engine()) as s:
        admission = admit(s, DID, CALLER, NOW)
        for _ in range(2000):
            selection = select_targets(s, admission, CALLER, NOW, Live(), rng=rng)
            names = order(selection)
            # Every call still fails over through all of them, the other priority last.
            assert sorted(names[:3]) == ["Large", "Medium", "Small"] and names[3] == "Overflow"
            firsts[names[0]] += 1
    shares = {name: firsts[name] / 2000 for name in ("Small", "Medium", "Large")}
    assert abs(shares["Small"] - 0.1) < 0.03, shares
    assert abs(shares["Medium"] - 0.3) < 0.03, shares
    assert abs(shares["Large"] - 0.6) < 0.03, shares


def test_round_robin_rotates_across_calls() -> None:
    ln = line(strategy="round_robin")
    for name in ("A", "B", "C"):
        desk(ln, name)
    desk(ln, "Backup", priority=2)
    orders = [order(route()) for _ in range(4)]
    assert orders == [
        ["B", "C", "A", "Backup"],
        ["C", "A", "B", "Backup"],
        ["A", "B", "C", "Backup"],
        ["B", "C", "A", "Backup"],
    ]
    with session_scope() as s:
        assert s.get(Campaign, ln.campaign.id).rr_cursor == 4


def test_a_dry_run_reads_the_round_robin_cursor_without_moving_it() -> None:
    ln = line(strategy="round_robin")
    for name in ("A", "B", "C"):
        desk(ln, name)
    route()
    peeks = [order(route(advance_cursor=False)) for _ in range(3)]
    assert peeks == [["C", "A", "B"]] * 3  # what the next real call gets
    assert order(route()) == ["C", "A", "B"]
    with session_scope() as s:
        assert s.get(Campaign, ln.campaign.id).rr_cursor == 2


def test_parallel_calls_each_get_their_own_round_robin_turn() -> None:
    ln = line(strategy="round_robin")
    for name in ("A", "B", "C"):
        desk(ln, name)

    def calls(n: int) -> list[str]:
        return [order(route())[0] for _ in range(n)]

    with ThreadPoolExecutor(max_workers=3) as pool:
        firsts = [name for batch in pool.map(calls, [10, 10, 10]) for name in batch]
    # 30 atomic cursor steps: each target first exactly 10 times, whatever the interleaving.
    assert Counter(firsts) == {"A": 10, "B": 10, "C": 10}
    with session_scope() as s:
        assert s.get(Campaign, ln.campaign.id).rr_cursor == 30
