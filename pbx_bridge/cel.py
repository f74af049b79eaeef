"""Completing call rows from Asterisk's own record of the call (CEL, table `cel`).

The bridge writes a call's row as the call goes; when it was down or restarting as a call ended,
the row stays open (no end), and a call that arrived while it was down has no row at all (Asterisk
refused it). Asterisk wrote both into `cel` itself, so the rows are completed or created from there:
the first hang-up says when and by whom the call ended. Rows are `core.calls.record.CallState` views,
upserted like the bridge's own, so doing this twice changes nothing and a rated row is never touched.
The bridge's reconciliation (pbx_bridge.reconcile) decides which calls need it.
"""

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import exists
from sqlalchemy.orm import aliased
from sqlmodel import col, select

from core.calls.record import CallRow, CallState, Result, Step
from core.infra.db import session_scope
from core.infra.names import ELSEWHERE_CAUSE
from core.models import Call, ChannelEvent
from core.routing import Admission, admit
from core.values.enums import CallSource, Disposition, HangupBy

# The application inbound calls are handed to (asterisk_config/templates/extensions.conf).
HANDOFF_APP = "Stasis"
# How far back calls missing a row are looked for: older ones were dealt with by earlier runs.
LOOKBACK = timedelta(days=1)
LOST = "the call ended while the bridge was away; Asterisk's record has no hang-up: last known moment used"
ENDED_ON_RETURN = "the bridge restarted and ended what was left of the call"
NODE_LOST = 38  # Q.850 network out of order: the Asterisk that held the call stopped without ending it
NEVER_ROUTED = (
    "the call never reached the routing application (it was not running, or the dialplan refused "
    "the dialled number); Asterisk ended it"
)


@dataclass(frozen=True)
class Ending:
    at: datetime
    by: HangupBy  # caller, target or system
    cause: int | None
    reason: str


def _utc(naive: datetime) -> datetime:
    return naive.replace(tzinfo=UTC)  # cel_pgsql writes UTC (usegmtime) without a zone


def ending(
    linkedid: str,
    events: list[ChannelEvent],
    otherwise: datetime,
    otherwise_reason: str,
    otherwise_cause: int = NODE_LOST,
) -> Ending:
    """When and how a call ended per Asterisk: its first hang-up, else `otherwise` (by default
    with cause 38: no hang-up recorded means the Asterisk holding the call went away).

    Who ended it: the hang-up source Asterisk noted on the caller's leg (the caller's own channel,
    or the target's leg that hung up first) and, where it noted none, whose leg hung up first.
    With the dialplan dialling, the first of the two is not always the one who hung up: Dial
    hangs up the target's leg as soon as the caller goes, before the caller's leg ends."""
    hangups = sorted((e for e in events if e.eventtype == "HANGUP"), key=lambda e: e.eventtime)
    if not hangups:
        return Ending(otherwise, HangupBy.SYSTEM, otherwise_cause, otherwise_reason)
    caller = next((e for e in hangups if e.uniqueid == linkedid), None)
    told = _extra(caller) if caller is not None else {}
    if caller is not None and told.get("hangupsource"):
        by = HangupBy.CALLER if told["hangupsource"] == caller.channame else HangupBy.TARGET
    else:
        by = HangupBy.CALLER if hangups[0].uniqueid == linkedid else HangupBy.TARGET
    try:
        cause = int(str((told or _extra(hangups[0])).get("hangupcause", "")))  # "" fails as None would
    except (TypeError, ValueError):
        cause = None
    reason = f"the {by} hung up (from Asterisk's record of the call)"
    return Ending(_utc(hangups[0].eventtime), by, cause, reason)


def _extra(event: ChannelEvent) -> dict[str, object]:
    try:
        extra = json.loads(event.extra or "{}")
    except ValueError:
        return {}
    return extra if isinstance(extra, dict) else {}


def last_seen(events: list[ChannelEvent], known: datetime | None = None) -> datetime:
    """The latest moment the call is known to have been up (its row's last write, its events)."""
    return max([*(_utc(e.eventtime) for e in events), *([known] if known else [])])


def _ended(call: CallState, end: Ending, disposition: Disposition, reason: str, now: datetime) -> CallRow:
    """The call's row, over as Asterisk's record says."""
    call.ended_at, call.disposition, call.source = end.at, disposition, CallSource.RECONCILED
    call.hangup_by, call.hangup_cause = end.by, end.cause
    call.note(Step.RECONCILED, Result.STOPPED, reason, now, disposition=disposition.value)
    return call.row(now)


def completed(row: Call, end: Ending, now: datetime) -> CallRow:
    """The row's missing end, as the bridge would have written it."""
    if row.connected_at is not None:
        disposition = Disposition.ANSWERED
    elif end.by == HangupBy.CALLER:
        disposition = Disposition.NO_ANSWER  # abandoned before anyone answered, as the bridge counts it
    else:
        disposition = Disposition.FAILED
    return _ended(CallState.of_row(row), end, disposition, end.reason, now)


def completed_rows(ended: list[tuple[Call, bool]], now: datetime) -> list[CallRow]:
    """Rows for open calls that are over, each with whether the bridge ended it just now."""
    events = events_of([row.linkedid for row, _ in ended])
    rows = []
    for row, ended_by_us in ended:
        found = events.get(row.linkedid, [])
        if ended_by_us:  # its hang-up may not be in Asterisk's record yet
            end = ending(row.linkedid, found, now, ENDED_ON_RETURN, 16)
        else:
            end = ending(row.linkedid, found, last_seen(found, row.updated_at or row.started_at), LOST)
        rows.append(completed(row, end, now))
    return rows


def events_of(linkedids: list[str]) -> dict[str, list[ChannelEvent]]:
    found: dict[str, list[ChannelEvent]] = defaultdict(list)
    if not linkedids:
        return found
    with session_scope() as session:
        stmt = select(ChannelEvent).where(col(ChannelEvent.linkedid).in_(linkedids))
        for event in session.exec(stmt):
            found[str(event.linkedid)].append(event)
    return found


def missed_calls(now: datetime, skip: set[str], linkedid_prefix: str = "") -> list[CallRow]:
    """Rows for inbound calls Asterisk took and ended with no row written (the bridge was down);
    with a prefix, only those of the node whose linkedids start with it (core.pbx.nodes). A call
    this node refused for Kamailio to send to another node (ELSEWHERE_CAUSE) is that node's: none."""
    return missed_rows([i for i in missed_linkedids(now, linkedid_prefix) if i not in skip], now)


def missed_linkedids(now: datetime, linkedid_prefix: str = "") -> list[str]:
    """The inbound calls handed to the bridge that Asterisk ended in the last LOOKBACK with no row
    written; with a prefix, only the node's."""
    since = (now - LOOKBACK).astimezone(UTC).replace(tzinfo=None)
    with session_scope() as session:
        no_row = ~exists().where(Call.linkedid == ChannelEvent.linkedid)
        # Only calls for the bridge: in SQL, or calls some dialplan-only route took would be read
        # again at every sweep.
        app = aliased(ChannelEvent)
        handed = exists().where(
            app.linkedid == ChannelEvent.linkedid, app.eventtype == "APP_START", app.appname == HANDOFF_APP
        )
        stmt = select(ChannelEvent.linkedid).where(
            ChannelEvent.eventtype == "LINKEDID_END", ChannelEvent.eventtime >= since, no_row, handed
        )
        if linkedid_prefix:
            stmt = stmt.where(col(ChannelEvent.linkedid).startswith(linkedid_prefix, autoescape=True))
        return [str(i) for i in session.exec(stmt)]


def missed_rows(linkedids: list[str], now: datetime) -> list[CallRow]:
    """The rows of calls that have none, from Asterisk's record: admitted as the routing would
    have (customer, campaign, number), refused as Asterisk refused them."""
    rows = []
    with session_scope() as session:  # read-only: which customer, campaign and number each DID is
        for linkedid, events in events_of(linkedids).items():
            start = next((e for e in events if e.eventtype == "CHAN_START" and e.uniqueid == linkedid), None)
            if start is None:
                continue
            end = ending(linkedid, events, last_seen(events), "Asterisk ended the call")
            if end.cause == ELSEWHERE_CAUSE:
                continue
            started = _utc(start.eventtime)
            admission = admit(session, start.exten or "", start.cid_num or "", started)
            rows.append(_missed_row(linkedid, end, started, admission, now))
    return rows


def _missed_row(
    linkedid: str, end: Ending, started: datetime, admission: Admission, now: datetime
) -> CallRow:
    call = CallState(
        linkedid=linkedid,
        did=admission.did,
        caller=admission.caller,
        started_at=started,
        user_id=admission.user_id,
        campaign_id=admission.campaign_id,
        number_id=admission.number_id,
        source_id=admission.source_id,
    )
    return _ended(call, end, Disposition.FAILED, NEVER_ROUTED, now)
