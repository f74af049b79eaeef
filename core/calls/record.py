"""The call record contract: what a call is while it runs and once it is over, in one typed state.

A call's facts live in one `CallState`; the two shapes other processes read are views of it, never
kept in step by hand: `row()` is its row in `call` (one per call, keyed by linkedid, written
several times as the call goes) and `live()` its live entry in Redis (core.calls.live). The trail's
vocabulary (`Step`, `Result`, `entry`) is here too, as docs/routing.md describes it: the routing
engine, the bridge and the reconciliation all write it. `save` / `save_many` are the one upsert.

Times and durations are computed in one place (`row()`), from the state's moments, which are
Asterisk's own (docs/billing.md, "Talk time"): milliseconds kept, seconds rounded up.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from itertools import groupby
from typing import Any, NotRequired

from sqlalchemy import Connection
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlmodel import col, select
from typing_extensions import TypedDict  # pydantic reads typing's TypedDict only from Python 3.12

from core.calls import q850
from core.calls.live import LiveCall
from core.infra.db import autocommit_engine, get_engine, session_scope
from core.models import Call
from core.values.enums import CallSource, Disposition, HangupBy, LiveState, RatingStatus

# A value a trail entry holds besides its step, time, result and reason: JSON (ids, numbers, text,
# money as text), as it is stored.
TrailValue = str | int | float | bool | None | Sequence["TrailValue"] | Mapping[str, "TrailValue"]
# One trail entry, stored as-is (JSON) in Call.trail. Any: the routing engine's entries carry
# fields of their own (docs/routing.md, "The trail"), read back as whatever they were written as.
Entry = dict[str, Any]


# --- the trail --------------------------------------------------------------------------------


class Step(StrEnum):
    """What an entry is about (docs/routing.md, "The trail"), by who writes it."""

    # the routing engine (core.routing)
    ROUTE = "route"
    BLOCK = "block"
    REGION = "region"  # where the caller's number is from; a campaign's region block
    CREDIT = "credit"  # also the bridge, for the talking call's credit slices
    DUPLICATE = "duplicate"
    TARGET = "target"
    SELECT = "select"
    # real-time bidding (core.routing.auction): each bidder's answer, the ranking, the post
    BID = "bid"
    RANK = "rank"
    POST = "post"
    # the bridge
    IVR = "ivr"
    DIAL = "dial"
    RECORD = "record"
    WHISPER = "whisper"  # the message the target heard before it was connected (core.calls.whisper)
    HANGUP = "hangup"  # hung up from the portal
    BRIDGE = "bridge"  # the bridge itself: a restart took the call back, or it failed the call
    # the bridge's reconciliation, from Asterisk's record (pbx_bridge.cel)
    RECONCILED = "reconciled"
    # the nightly billing reconciliation (core.billing.reconcile)
    RECONCILE = "reconcile"
    # the transcription worker (core.conversation): the transcript, each keyword rule matched
    TRANSCRIBE = "transcribe"
    KEYWORD = "keyword"


class Result(StrEnum):
    """How the step went for the call."""

    PASSED = "passed"  # the call went on
    STOPPED = "stopped"  # the call ended here; the entry has the call's `disposition`
    FAILED = "failed"  # a try that did not work, the call went on (a wrong PIN, a busy target)
    CANDIDATE = "candidate"  # a target kept for dialling
    SKIPPED = "skipped"  # a target (or its dial) left out
    FLAGGED = "flagged"  # billing: the ledger and the rated cost disagree


def entry(step: Step, result: Result, reason: str, now: datetime, **fields: Any) -> Entry:
    """One trail entry; `fields` must be JSON values (ids, numbers, strings, money as strings)."""
    return {"step": step.value, "at": now.isoformat(), "result": result.value, "reason": reason, **fields}


def stopped_at(trail: list[Entry]) -> str | None:
    """The step a call stopped at: the last entry's step when that entry stopped it."""
    if trail and trail[-1]["result"] == Result.STOPPED:
        return str(trail[-1]["step"])
    return None


# --- the call ---------------------------------------------------------------------------------


def _millis(since: datetime | None, end: datetime | None) -> int:
    """Milliseconds from `since` to `end` (0 when either is unknown)."""
    if since is None or end is None:
        return 0
    return max(0, round((end - since).total_seconds() * 1000))


def started_seconds(millis: int) -> int:
    """Whole seconds, a started second counting as one (as carriers bill): 7.006 s is 8 s."""
    return -(-millis // 1000)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


class Origin(TypedDict):
    """Where the caller's number is from, as routing read it (core.calls.caller_origin): row columns."""

    caller_country: str | None
    caller_region: str | None
    caller_line_type: str | None


class CallRow(TypedDict):
    """A call's row as the bridge and the reconciliation write it (`CallState.row()`): columns of
    `call`, upserted by `save` / `save_many`. The origin's columns only once routing read them."""

    linkedid: str
    did: str
    caller: str
    user_id: int | None
    campaign_id: int | None
    number_id: int | None
    source_id: int | None
    target_id: int | None
    buyer_id: int | None
    trunk_id: int | None
    destination: str | None
    started_at: datetime
    answered_at: datetime | None
    connected_at: datetime | None
    ended_at: datetime | None
    duration: int
    billsec: int
    billsec_ms: int
    talk_seconds: int
    talk_ms: int
    disposition: str
    hangup_by: str | None
    hangup_cause: int | None
    hangup_cause_text: str | None
    sip_status: int | None
    ivr_result: str | None
    recording: str | None
    bid: Decimal | None
    trail: list[Entry]
    source: str
    updated_at: datetime
    caller_country: NotRequired[str | None]
    caller_region: NotRequired[str | None]
    caller_line_type: NotRequired[str | None]


@dataclass
class CallState:
    """One call's facts. Ids are filled as the call goes (admission, then the target ringing);
    `disposition` is set once the call is over, or decided before (a refused call is what its
    refusal says, whoever hangs up during the announcement), and until then the row says what the
    call counts as should nothing more be heard of it (`provisional`)."""

    linkedid: str  # Asterisk's: the caller's channel is the call's first, so its uniqueid
    did: str
    caller: str
    started_at: datetime
    user_id: int | None = None
    campaign_id: int | None = None
    number_id: int | None = None
    # The traffic source the call is attributed to: the number's (static), or its visitor session's.
    source_id: int | None = None
    target_id: int | None = None  # the target ringing now, then the one that answered
    buyer_id: int | None = None
    trunk_id: int | None = None
    target_name: str | None = None  # shown live only
    destination: str | None = None  # the number dialled at the target: what the call is rated on
    answered_at: datetime | None = None  # the caller's channel answered (a prompt, the IVR or the target)
    connected_at: datetime | None = None  # the target answered: talk time starts
    ended_at: datetime | None = None  # the caller's end, by Asterisk's clock when it was heard
    disposition: Disposition | None = None
    hangup_by: HangupBy | None = None
    hangup_cause: int | None = None  # Q.850, of the caller's channel
    sip_status: int | None = None  # the last attempt's final SIP status (the caller's, if none)
    ivr_result: str | None = None
    recording: str | None = None
    bid: Decimal | None = None  # the winning bid of the target ringing now: its payout (docs/bidding.md)
    live_state: LiveState = LiveState.RINGING
    source: CallSource = CallSource.BRIDGE
    trail: list[Entry] = field(default_factory=list)
    # The caller's country, region and line type as routing read them (core.calls.caller_origin's
    # `columns()`); None until admission read them.
    origin: Origin | None = None

    @classmethod
    def of_row(cls, row: Call) -> "CallState":
        """The state a stored row describes (a call taken back, or completed, after a restart)."""
        return cls(
            linkedid=row.linkedid,
            did=row.did,
            caller=row.caller,
            started_at=row.started_at,
            user_id=row.user_id,
            campaign_id=row.campaign_id,
            number_id=row.number_id,
            source_id=row.source_id,
            target_id=row.target_id,
            buyer_id=row.buyer_id,
            trunk_id=row.trunk_id,
            destination=row.destination,
            answered_at=row.answered_at,
            connected_at=row.connected_at,
            ended_at=row.ended_at,
            disposition=Disposition(row.disposition) if row.ended_at else None,
            hangup_by=HangupBy(row.hangup_by) if row.hangup_by else None,
            hangup_cause=row.hangup_cause,
            sip_status=row.sip_status,
            ivr_result=row.ivr_result,
            recording=row.recording,
            bid=row.bid,
            live_state=LiveState.CONNECTED if row.connected_at else LiveState.RINGING,
            source=CallSource(row.source),
            trail=list(row.trail),
            origin=_origin_of(row),
        )

    def note(self, step: Step, result: Result, reason: str, now: datetime, **fields: TrailValue) -> None:
        self.trail.append(entry(step, result, reason, now, **fields))

    def hung_up_by(self, who: HangupBy) -> None:
        """Who ended the call, unless someone already did (the first to hang up is the one)."""
        self.hangup_by = self.hangup_by or who

    @property
    def provisional(self) -> Disposition:
        """What the call counts as while it runs: answered once connected, else failed (a call
        whose bridge died before an end was heard is completed from Asterisk's record)."""
        return Disposition.ANSWERED if self.connected_at else Disposition.FAILED

    def row(self, now: datetime) -> CallRow:
        """The call's row as of `now` (`updated_at`); durations count up to `ended_at`, which the
        row shows once the call is over (its disposition set; its end by Asterisk's clock may be
        heard a moment before), as `of_row` reads it."""
        end = self.ended_at if self.disposition is not None else None
        row: CallRow = {
            "linkedid": self.linkedid,
            "did": self.did,
            "caller": self.caller,
            "user_id": self.user_id,
            "campaign_id": self.campaign_id,
            "number_id": self.number_id,
            "source_id": self.source_id,
            "target_id": self.target_id,
            "buyer_id": self.buyer_id,
            "trunk_id": self.trunk_id,
            "destination": self.destination,
            "started_at": self.started_at,
            "answered_at": self.answered_at,
            "connected_at": self.connected_at,
            "ended_at": end,
            "duration": started_seconds(_millis(self.started_at, end)),
            "billsec": started_seconds(billsec_ms := _millis(self.answered_at, end)),
            "billsec_ms": billsec_ms,
            "talk_seconds": started_seconds(talk_ms := _millis(self.connected_at, end)),
            "talk_ms": talk_ms,
            "disposition": (self.disposition or self.provisional).value,
            "hangup_by": self.hangup_by.value if self.hangup_by else None,
            "hangup_cause": self.hangup_cause,
            "hangup_cause_text": q850.text(self.hangup_cause),
            "sip_status": self.sip_status,
            "ivr_result": self.ivr_result,
            "recording": self.recording,
            "bid": self.bid,
            "trail": self.trail,
            "source": self.source.value,
            "updated_at": now,
        }
        if (origin := self.origin) is not None:  # else left as they are (none read, or written before)
            row["caller_country"], row["caller_region"] = origin["caller_country"], origin["caller_region"]
            row["caller_line_type"] = origin["caller_line_type"]
        return row

    def live(self) -> LiveCall:
        """The call as the live views show it (JSON, core.calls.live): who may see it and where it rings."""
        return {
            "linkedid": self.linkedid,
            "did": self.did,
            "caller": self.caller,
            "state": self.live_state.value,
            "started_at": self.started_at.isoformat(),
            "connected_at": _iso(self.connected_at),
            "user_id": self.user_id,
            "campaign_id": self.campaign_id,
            "buyer_id": self.buyer_id,
            "target_id": self.target_id,
            "trunk_id": self.trunk_id,
            "target_name": self.target_name,
        }


def _origin_of(row: Call) -> Origin | None:
    if row.caller_country is None:
        return None  # a row written before origins were read, or by a path that never read one
    return {
        "caller_country": row.caller_country,
        "caller_region": row.caller_region,
        "caller_line_type": row.caller_line_type,
    }


# --- the row ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _upsert(columns: tuple[str, ...]) -> Insert:
    """The statement for rows with these columns, built once: building it (`excluded` copies the
    whole table) cost more than the write itself."""
    stmt = insert(Call)
    updates = {k: stmt.excluded[k] for k in columns if k not in ("linkedid", "started_at")}
    # A rated call is final: a late or repeated write must not change what was charged.
    pending = col(Call.rating_status) == RatingStatus.PENDING.value
    # The key holds `started_at` too (the table is partitioned by it): a call's never changes.
    return stmt.on_conflict_do_update(index_elements=["linkedid", "started_at"], set_=updates, where=pending)


def _columns(row: CallRow) -> tuple[str, ...]:
    return tuple(sorted(row))


def save(row: CallRow, conn: Connection | None = None) -> None:
    """Insert the call, or update the row already there for its linkedid (idempotent); in `conn`'s
    transaction when given, else on its own (autocommit: the one statement is its own transaction)."""
    if conn is not None:
        conn.execute(_upsert(_columns(row)), row)
        return
    with autocommit_engine().connect() as own:
        own.execute(_upsert(_columns(row)), row)


def save_many(rows: list[CallRow]) -> None:
    """Several calls' rows (one per linkedid) in one transaction, one statement per column set."""
    with get_engine().begin() as conn:
        for columns, same in groupby(sorted(rows, key=_columns), key=_columns):
            conn.execute(_upsert(columns), list(same))


def open_calls(linkedid_prefix: str = "") -> list[Call]:
    """Calls the bridge started but never finished (it stopped or crashed meanwhile); with a
    prefix, only the calls whose linkedid starts with it (one node's, core.pbx.nodes)."""
    stmt = select(Call).where(col(Call.ended_at).is_(None))
    if linkedid_prefix:
        stmt = stmt.where(col(Call.linkedid).startswith(linkedid_prefix, autoescape=True))
    with session_scope() as session:
        return list(session.exec(stmt).all())
