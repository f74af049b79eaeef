"""Repeat callers: rejected, sent to another buyer, or allowed, per the campaign's setting."""

from datetime import timedelta

from core.values.enums import Disposition
from testkit.rows import NOW, buyer, desk, earlier_call, line, order, route, target_reasons


def duplicates(selection) -> list[dict]:
    return [e for e in selection.trail if e["step"] == "duplicate"]


def two_buyers(action: str, window: int = 86400):
    ln = line(duplicate_action=action, duplicate_window_seconds=window)
    acme = desk(ln, "Acme desk", owner=buyer(ln.user, "Acme"))
    desk(ln, "Beta desk", priority=2, owner=buyer(ln.user, "Beta"))
    return ln, acme


def test_reject_stops_a_caller_who_reached_a_buyer_within_the_window() -> None:
    ln, acme = two_buyers("reject")
    earlier = earlier_call(ln, acme, NOW - timedelta(hours=2))
    selection = route()
    assert selection.disposition is Disposition.DUPLICATE and selection.stopped_at == "duplicate"
    assert selection.candidates == []
    assert selection.trail[-1] | {"at": None} == {
        "step": "duplicate",
        "at": None,
        "result": "stopped",
        "reason": f"caller +447911123456 reached a buyer at {(NOW - timedelta(hours=2)).isoformat()}"
        f" (call {earlier.id}); the campaign rejects repeat callers for 24 h",
        "disposition": "DUPLICATE",
        "call_id": earlier.id,
    }


def test_reject_lets_through_calls_outside_the_window_or_that_reached_nobody() -> None:
    ln, acme = two_buyers("reject")
    earlier_call(ln, acme, NOW - timedelta(hours=24, seconds=1))  # just outside 24 h
    earlier_call(ln, acme, NOW - timedelta(minutes=5), connected=False)  # rang, nobody answered
    earlier_call(ln, acme, NOW - timedelta(minutes=5), caller="+447700900123")  # someone else
    other = line(ln.user, did="+442071838751")
    earlier_call(other, acme, NOW - timedelta(minutes=5), campaign_id=other.campaign.id)  # another campaign
    selection = route()
    assert selection.disposition is None and order(selection) == ["Acme desk", "Beta desk"]
    (entry,) = duplicates(selection)
    assert (entry["result"], entry["reason"], entry["buyer_ids"]) == (
        "passed",
        "caller +447911123456 reached no buyer within 24 h",
        [],
    )


def test_the_window_is_the_campaigns_own() -> None:
    ln, acme = two_buyers("reject", window=30 * 60)
    earlier_call(ln, acme, NOW - timedelta(minutes=31))
    assert route().disposition is None
    earlier_call(ln, acme, NOW - timedelta(minutes=29))
    assert route().disposition is Disposition.DUPLICATE


def test_other_buyer_skips_the_buyers_already_reached() -> None:
    ln, acme = two_buyers("other_buyer")
    earlier_call(ln, acme, NOW - timedelta(hours=3))
    selection = route()
    assert order(selection) == ["Beta desk"]
    assert target_reasons(selection)["Acme desk"] == ("skipped", "duplicate")
    (entry,) = duplicates(selection)
    assert (entry["result"], entry["reason"], entry["buyer_ids"]) == (
        "passed",
        "caller +447911123456 reached 'Acme' within 24 h: other buyers only",
        [acme.buyer_id],
    )


def test_other_buyer_with_no_other_buyer_left_is_no_route() -> None:
    ln = line(duplicate_action="other_buyer")
    acme = desk(ln, "Acme desk")
    earlier_call(ln, acme, NOW - timedelta(hours=1))
    selection = route()
    assert selection.disposition is Disposition.NO_ROUTE
    assert (selection.trail[-1]["step"], selection.trail[-1]["reason"]) == ("select", "no target available")


def test_allow_routes_repeat_callers_as_usual() -> None:
    ln, acme = two_buyers("allow")
    earlier_call(ln, acme, NOW - timedelta(minutes=10))
    selection = route()
    assert order(selection) == ["Acme desk", "Beta desk"]
    assert duplicates(selection) == []
