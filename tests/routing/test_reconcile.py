"""Completing call rows from Asterisk's channel event log, for every way a call can end unseen.

The rows of `cel` are written here as cel_pgsql writes them (UTC text into a plain timestamp);
tests/asterisk/test_resilience.py shows Asterisk itself writing them under real calls.
"""

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from core.calls import record as calls
from core.infra.db import session_scope
from core.models import Call, ChannelEvent
from core.operations import retention
from core.pbx.nodes import linkedid_prefix, owns
from pbx_bridge import cel
from testkit.rows import CALLER, DID, NOW, change, get, line, save

LINKEDID = "1763000000.42"
TARGET_LEG = f"{LINKEDID}-a1b2c3d4"
AT = NOW + timedelta(minutes=5)  # when the reconciliation runs


def event(
    kind: str, at: datetime, uniqueid: str = LINKEDID, linkedid: str = LINKEDID, **fields: str
) -> ChannelEvent:
    naive_utc = at.astimezone(UTC).replace(tzinfo=None)
    return save(
        ChannelEvent(eventtype=kind, eventtime=naive_utc, uniqueid=uniqueid, linkedid=linkedid, **fields)
    )


def open_row(connected: bool) -> Call:
    """The row as the bridge left it when it went away: no end."""
    answered = NOW + timedelta(seconds=4) if connected else None
    return save(
        Call(
            linkedid=LINKEDID,
            did=DID,
            caller=CALLER,
            started_at=NOW,
            answered_at=answered,
            connected_at=answered,
            disposition="ANSWERED" if connected else "FAILED",
            trail=[{"step": "bridge", "reason": "target answered"}],
            updated_at=answered or NOW,
        )
    )


def reconciled(row: Call, ended_by_us: bool = False) -> dict:
    (completed,) = cel.completed_rows([(row, ended_by_us)], AT)
    calls.save(completed)
    return completed


def test_caller_hanging_up_while_talking_ends_the_call_at_that_moment() -> None:
    row = open_row(connected=True)
    event("HANGUP", NOW + timedelta(seconds=34), extra='{"hangupcause":16,"dialstatus":""}')
    event("HANGUP", NOW + timedelta(seconds=50), uniqueid=TARGET_LEG)  # we hung the leftover leg up later
    done = reconciled(row)
    assert done["disposition"] == "ANSWERED" and done["hangup_by"] == "caller" and done["hangup_cause"] == 16
    assert done["ended_at"] == NOW + timedelta(seconds=34)
    assert (done["duration"], done["billsec"], done["talk_seconds"]) == (34, 30, 30)
    assert done["trail"][0]["reason"] == "target answered" and done["trail"][-1]["step"] == "reconciled"


def test_target_hanging_up_first_is_who_ended_it() -> None:
    row = open_row(connected=True)
    event("HANGUP", NOW + timedelta(seconds=20), uniqueid=TARGET_LEG, extra='{"hangupcause":16}')
    event("HANGUP", AT, extra='{"hangupcause":16}')  # the caller, hung up by the bridge on its return
    done = reconciled(row, ended_by_us=True)
    assert (done["hangup_by"], done["billsec"], done["disposition"]) == ("target", 16, "ANSWERED")


def test_who_hung_up_is_the_source_asterisk_noted_not_whose_leg_went_first() -> None:
    row = open_row(connected=True)
    # The caller hangs up: Dial hangs the target's leg up at once, a hair before the caller's ends.
    event("HANGUP", NOW + timedelta(seconds=34), uniqueid=TARGET_LEG, extra='{"hangupcause":16}')
    source = '{"hangupcause":16,"hangupsource":"PJSIP/carrier-00000001","dialstatus":"ANSWER"}'
    event("HANGUP", NOW + timedelta(seconds=34), channame="PJSIP/carrier-00000001", extra=source)
    done = reconciled(row)
    assert (done["hangup_by"], done["ended_at"]) == ("caller", NOW + timedelta(seconds=34))


def test_caller_giving_up_before_an_answer_is_no_answer_and_costs_nothing() -> None:
    row = open_row(connected=False)
    event("HANGUP", NOW + timedelta(seconds=9), extra="not json")
    done = reconciled(row)
    assert (done["disposition"], done["hangup_by"], done["hangup_cause"]) == ("NO ANSWER", "caller", None)
    assert (done["billsec"], done["talk_seconds"], done["duration"]) == (0, 0, 9)


def test_a_call_the_bridge_ends_on_its_return_ends_then_and_says_so() -> None:
    done = reconciled(open_row(connected=False), ended_by_us=True)
    assert (done["ended_at"], done["hangup_by"], done["disposition"]) == (AT, "system", "FAILED")
    assert "ended what was left" in done["trail"][-1]["reason"]


def test_a_call_asterisk_lost_without_a_hangup_ends_at_its_last_known_moment() -> None:
    row = open_row(connected=True)
    event("CHAN_START", NOW + timedelta(seconds=61), uniqueid=TARGET_LEG)
    done = reconciled(row)
    assert done["ended_at"] == NOW + timedelta(seconds=61) and done["billsec"] == 57
    assert done["hangup_by"] == "system" and "last known moment" in done["trail"][-1]["reason"]


def test_a_rated_row_is_never_changed_by_a_late_reconciliation() -> None:
    row = open_row(connected=True)
    event("HANGUP", NOW + timedelta(seconds=34))
    reconciled(row)
    change(Call, row.id or 0, rating_status="rated")
    event("HANGUP", NOW + timedelta(seconds=3))  # an odd late record must not rewrite what was charged
    reconciled(row)
    assert get(Call, row.id or 0).billsec == 30


def test_a_call_refused_while_the_bridge_was_down_gets_a_failed_row_of_its_customer() -> None:
    ln = line()
    event(
        "CHAN_START",
        AT - timedelta(seconds=30),
        context="from-carrier",
        exten=DID.lstrip("+"),
        cid_num=CALLER,
    )
    event("APP_START", AT - timedelta(seconds=30), context="from-carrier", appname="Stasis")
    event("HANGUP", AT - timedelta(seconds=30), extra='{"hangupcause":34}')
    event("LINKEDID_END", AT - timedelta(seconds=30))
    (row,) = cel.missed_calls(AT, skip=set())
    assert (row["did"], row["caller"], row["user_id"], row["campaign_id"]) == (
        DID,
        CALLER,
        ln.user.id,
        ln.campaign.id,
    )
    assert (row["disposition"], row["hangup_cause"], row["source"]) == ("FAILED", 34, "reconciled")
    calls.save(row)
    assert cel.missed_calls(AT, skip=set()) == []  # it has its row now


def test_only_recent_calls_handed_to_the_bridge_and_not_handled_by_it_get_rows() -> None:
    event("CHAN_START", AT, context="default", exten="s")  # an originated channel, not a call
    event("LINKEDID_END", AT)
    dialplan_only = "1763000000.55"  # a carrier call some dialplan route took, never meant for Stasis
    for kind in ("CHAN_START", "LINKEDID_END"):
        event(kind, AT, uniqueid=dialplan_only, linkedid=dialplan_only, context="from-carrier", exten="4420")
    assert cel.missed_calls(AT, skip=set()) == []
    other = "1763000000.77"
    event("CHAN_START", AT, uniqueid=other, linkedid=other, context="from-carrier", exten="442071838750")
    event("APP_START", AT, uniqueid=other, linkedid=other, context="from-carrier", appname="Stasis")
    event("LINKEDID_END", AT, uniqueid=other, linkedid=other)
    assert cel.missed_calls(AT, skip={other}) == []  # a flow of the bridge has it
    assert cel.missed_calls(AT + timedelta(days=2), skip=set()) == []  # long dealt with
    assert [r["linkedid"] for r in cel.missed_calls(AT, skip=set())] == [other]


def test_each_node_reconciles_only_its_own_calls() -> None:
    """Linkedids start with their node's id (core.pbx.nodes): `n1_b` is not `n1`, `_` is no wildcard."""
    for node in ("n1", "n1_b", "n11"):
        missed = f"{node}-1763000000.1"  # refused while its bridge was down: only in Asterisk's record
        for kind in ("CHAN_START", "APP_START", "LINKEDID_END"):
            event(kind, AT, uniqueid=missed, linkedid=missed, exten="442071838750", appname="Stasis")
        opened = f"{node}-1763000000.2"
        save(Call(linkedid=opened, did=DID, caller=CALLER, started_at=NOW, disposition="FAILED"))
    assert [r["linkedid"] for r in cel.missed_calls(AT, set(), linkedid_prefix("n1"))] == ["n1-1763000000.1"]
    assert [c.linkedid for c in calls.open_calls(linkedid_prefix("n1"))] == ["n1-1763000000.2"]
    assert len(calls.open_calls(linkedid_prefix(""))) == 3  # the only node answers for every call
    assert owns("n1", "n1-1763000000.2") and not owns("n1", "n11-1763000000.1") and owns("", "n11-1.1")


def test_asterisks_events_are_kept_thirty_days() -> None:
    event("HANGUP", AT - timedelta(days=31))
    kept = event("HANGUP", AT - timedelta(days=29))
    assert retention.purge_channel_events(AT) == 1
    with session_scope() as s:
        assert [e.id for e in s.exec(select(ChannelEvent))] == [kept.id]
