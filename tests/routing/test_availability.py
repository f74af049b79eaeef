"""Which linked targets may take a call now: status, trunk, schedule, concurrency and period caps,
each skip recorded in the trail with its reason."""

from datetime import UTC, datetime

from core.models import Buyer, Target
from core.values.enums import Disposition
from testkit.rows import (
    Live,
    buyer,
    change,
    desk,
    earlier_call,
    line,
    order,
    route,
    set_link,
    target_reasons,
    trunk,
)


def test_inactive_links_targets_buyers_and_trunks_are_skipped_with_reasons() -> None:
    ln = line()
    desk(ln, "Paused link", link_status="inactive")
    desk(ln, "Paused target", status="inactive")
    gone = buyer(ln.user, "Gone buyer")
    change(Buyer, gone.id or 0, status="inactive")
    desk(ln, "Gone buyer's desk", owner=gone)
    desk(ln, "Dead trunk", trunk_id=trunk("dead", status="inactive").id)
    desk(ln, "Inbound trunk", trunk_id=trunk("carrier-in", direction="inbound").id)
    desk(ln, "Good", priority=2, trunk_id=trunk("carrier-out").id)
    selection = route()
    assert order(selection) == ["Good"]
    assert target_reasons(selection) == {
        "Paused link": ("skipped", "link inactive"),
        "Paused target": ("skipped", "inactive"),
        "Gone buyer's desk": ("skipped", "buyer inactive"),
        "Dead trunk": ("skipped", "trunk inactive"),
        "Inbound trunk": ("skipped", "trunk not outbound"),
        "Good": ("candidate", "available"),
    }
    skipped = next(e for e in selection.trail if e["step"] == "target")
    assert set(skipped) == {
        "step",
        "at",
        "result",
        "reason",
        "target_id",
        "name",
        "buyer_id",
        "priority",
        "weight",
    }


def test_no_target_left_stops_the_call_as_no_route() -> None:
    ln = line()
    paused = desk(ln, "Paused")
    set_link(ln, paused, status="inactive")
    selection = route()
    assert selection.disposition is Disposition.NO_ROUTE and selection.stopped_at == "select"
    assert selection.candidates == []
    assert selection.trail[-1] | {"at": None} == {
        "step": "select",
        "at": None,
        "result": "stopped",
        "reason": "no target available",
        "disposition": "NO_ROUTE",
    }
    # The selection's own entries; the admission's come before them on the call.
    assert [e["step"] for e in selection.trail] == ["target", "select"]


def test_no_linked_target_at_all_is_no_route() -> None:
    line()
    assert route().disposition is Disposition.NO_ROUTE


def test_schedules_are_read_in_the_targets_own_time_zone() -> None:
    ln = line()
    # 03:00 UTC on Wednesday is still Tuesday 19:00 in Los Angeles.
    now = datetime(2026, 3, 4, 3, 0, tzinfo=UTC)
    desk(ln, "LA evening", timezone="America/Los_Angeles", schedule={"tue": [["18:00", "20:00"]]})
    desk(ln, "LA Wednesday", timezone="America/Los_Angeles", schedule={"wed": [["00:00", "24:00"]]})
    desk(ln, "UTC Wednesday", schedule={"wed": [["00:00", "24:00"]]})
    desk(ln, "Always open", schedule={})
    desk(ln, "Tuesday listed, no hours", timezone="America/Los_Angeles", schedule={"tue": []})
    selection = route(now=now)
    assert sorted(order(selection)) == ["Always open", "LA evening", "UTC Wednesday"]
    assert target_reasons(selection)["LA Wednesday"] == ("skipped", "closed (schedule)")
    assert target_reasons(selection)["Tuesday listed, no hours"] == ("skipped", "closed (schedule)")


def test_schedule_windows_include_their_start_and_exclude_their_end() -> None:
    ln = line()
    # Tokyo is UTC+9: 2026-03-04 20:00 UTC is Thursday 05:00 there.
    desk(ln, "Tokyo early", timezone="Asia/Tokyo", schedule={"thu": [["05:00", "06:00"]]})
    desk(ln, "Tokyo late", timezone="Asia/Tokyo", schedule={"thu": [["06:00", "07:00"]]})
    desk(ln, "Tokyo night", timezone="Asia/Tokyo", schedule={"wed": [["09:00", "17:00"], ["20:00", "24:00"]]})
    assert sorted(order(route(now=datetime(2026, 3, 4, 20, 0, tzinfo=UTC)))) == ["Tokyo early"]
    assert order(route(now=datetime(2026, 3, 4, 20, 59, 59, tzinfo=UTC))) == ["Tokyo early"]
    # 06:00 Thursday: the early window has closed, the late one opened.
    assert order(route(now=datetime(2026, 3, 4, 21, 0, tzinfo=UTC))) == ["Tokyo late"]
    # Wednesday 23:59 in Tokyo: inside the second window of the day.
    assert order(route(now=datetime(2026, 3, 4, 14, 59, tzinfo=UTC))) == ["Tokyo night"]


def test_a_target_with_an_unknown_time_zone_is_skipped_not_fatal() -> None:
    ln = line()
    desk(ln, "Mars desk", timezone="Mars/Olympus_Mons")
    desk(ln, "Earth desk")
    selection = route()
    assert order(selection) == ["Earth desk"]
    assert target_reasons(selection)["Mars desk"] == ("skipped", "unknown time zone 'Mars/Olympus_Mons'")


def test_the_concurrency_cap_uses_the_live_count() -> None:
    ln = line()
    one = desk(ln, "One line", concurrency_cap=1)
    two = desk(ln, "Two lines", concurrency_cap=2)
    free = desk(ln, "No cap")
    selection = route(live=Live({one.id: 1, two.id: 1, free.id: 40}))
    assert sorted(order(selection)) == ["No cap", "Two lines"]
    assert target_reasons(selection) == {
        "One line": ("skipped", "concurrency cap 1/1"),
        "Two lines": ("candidate", "available (concurrency cap 1/2)"),
        "No cap": ("candidate", "available"),
    }
    assert sorted(order(route(live=Live({two.id: 2})))) == ["No cap", "One line"]


def test_a_trunk_at_its_channel_limit_is_not_dialled_until_a_channel_frees() -> None:
    ln = line()
    two_lines = trunk("two-lines", max_channels=2)
    desk(ln, "Via small trunk", trunk_id=two_lines.id)
    desk(ln, "Via big trunk", trunk_id=trunk("big").id)
    full = route(live=Live(trunks={two_lines.id or 0: 2}))
    assert order(full) == ["Via big trunk"]
    assert target_reasons(full)["Via small trunk"] == ("skipped", "trunk 'two-lines' channels 2/2")
    one_free = route(live=Live(trunks={two_lines.id or 0: 1}))
    assert target_reasons(one_free)["Via small trunk"] == (
        "candidate",
        "available (trunk 'two-lines' channels 1/2)",
    )


def test_the_daily_cap_resets_at_midnight_in_the_targets_time_zone() -> None:
    ln = line()
    la = desk(ln, "LA desk", timezone="America/Los_Angeles", daily_cap=2)
    # 09:00 UTC on Wednesday = 01:00 in Los Angeles: its day began at 08:00 UTC.
    now = datetime(2026, 3, 4, 9, 0, tzinfo=UTC)
    earlier_call(ln, la, datetime(2026, 3, 4, 7, 30, tzinfo=UTC))  # Tuesday 23:30 there: yesterday
    earlier_call(ln, la, datetime(2026, 3, 4, 7, 59, tzinfo=UTC))
    earlier_call(ln, la, datetime(2026, 3, 4, 8, 30, tzinfo=UTC))
    earlier_call(ln, la, datetime(2026, 3, 4, 8, 40, tzinfo=UTC), connected=False)  # never reached it
    assert target_reasons(route(now=now))["LA desk"] == ("candidate", "available (daily cap 1/2)")
    earlier_call(ln, la, datetime(2026, 3, 4, 8, 50, tzinfo=UTC))
    selection = route(now=now)
    assert target_reasons(selection)["LA desk"] == ("skipped", "daily cap 2/2")
    assert selection.disposition is Disposition.NO_ROUTE
    # Counted in UTC, the same target would have been full since 07:59.
    change(Target, la.id or 0, timezone="UTC")
    assert target_reasons(route(now=now))["LA desk"] == ("skipped", "daily cap 4/2")


def test_the_hourly_cap_follows_a_half_hour_time_zone() -> None:
    ln = line()
    # Kolkata is UTC+05:30: at 09:10 UTC (14:40 there) its hour began at 08:30 UTC.
    kolkata = desk(ln, "Kolkata desk", timezone="Asia/Kolkata", hourly_cap=1)
    now = datetime(2026, 3, 4, 9, 10, tzinfo=UTC)
    earlier_call(ln, kolkata, datetime(2026, 3, 4, 8, 25, tzinfo=UTC))
    assert target_reasons(route(now=now))["Kolkata desk"] == ("candidate", "available (hourly cap 0/1)")
    earlier_call(ln, kolkata, datetime(2026, 3, 4, 8, 40, tzinfo=UTC))
    assert target_reasons(route(now=now))["Kolkata desk"] == ("skipped", "hourly cap 1/1")


def test_the_monthly_cap_resets_on_the_first_in_the_targets_time_zone() -> None:
    ln = line()
    la = desk(ln, "LA desk", timezone="America/Los_Angeles", monthly_cap=1, daily_cap=5, hourly_cap=5)
    earlier_call(ln, la, datetime(2026, 3, 15, 18, 0, tzinfo=UTC))
    # 05:00 UTC on 1 April is still 31 March, 22:00 in Los Angeles (PDT, UTC-7).
    march = route(now=datetime(2026, 4, 1, 5, 0, tzinfo=UTC))
    assert target_reasons(march)["LA desk"] == ("skipped", "monthly cap 1/1")
    april = route(now=datetime(2026, 4, 1, 8, 0, tzinfo=UTC))
    assert target_reasons(april)["LA desk"] == (
        "candidate",
        "available (hourly cap 0/5, daily cap 0/5, monthly cap 0/1)",
    )
