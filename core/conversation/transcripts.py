"""A recorded call transcribed and judged (docs/conversation.md): each leg's recording fetched from
its Asterisk (core.pbx.recordings) and transcribed by the engine (core.conversation.engine), card
numbers masked (redaction), the legs stored; then the campaign's keyword rules applied (rules):
tags and score stored, each match written to the call's trail with the words and their time, the
conversion and payout worked out again through rating's rule (core.billing.rerate), and the
`transcribed` webhook event recorded, in one transaction.
"""

import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import Session, col

from core.billing import rerate
from core.calls.record import Entry, Result, Step, entry
from core.conversation import redaction, rules
from core.conversation.engine import Phrase, Word, engine
from core.infra import names
from core.infra.db import session_scope
from core.models import Call, CallConversation, CallTranscript, KeywordRule
from core.models.columns import utcnow
from core.pbx import recordings
from core.pbx.nodes import node_of
from core.values.enums import KeywordEffect, KeywordSide, Leg, RatingStatus, WebhookEvent
from core.values.errors import DomainError, ErrorId
from core.webhooks import intake, payload

REAPPLY_BATCH = 500


class AudioAway(RuntimeError):
    """The Asterisk holding the recording can't be reached now: the task tries again later."""


@dataclass(frozen=True)
class Heard:
    """One leg as the engine heard it."""

    leg: Leg
    words: list[Word]
    engine: str
    audio_seconds: float
    cpu_seconds: float


def _leg_file(linkedid: str, leg: Leg, folder: Path) -> Path | None:
    """The leg's recording copied to `folder`; None when the call has no such file (recorded before
    legs were kept, or removed)."""
    path = folder / f"{leg}.wav"
    try:
        with path.open("wb") as out:
            for chunk in recordings.chunks(names.leg_recording_name(linkedid, leg), node_of(linkedid)):
                out.write(chunk)
    except DomainError as exc:
        if exc.error is ErrorId.RECORDING_GONE:
            return None
        raise AudioAway(exc.message) from None
    return path


def listened(campaign_rules: list[rules.Rule], leg: Leg) -> list[Phrase]:
    """The phrases of the rules that listen to `leg`, for the engine to listen for."""
    return [
        rules.parse(phrase)
        for rule in campaign_rules
        if leg in rules.side_legs(rule.side)
        for phrase in rule.phrases
    ]


def hear(linkedid: str, campaign_rules: list[rules.Rule]) -> list[Heard]:
    """Each recorded leg of the call transcribed, listening for its rules' phrases (slow: outside
    any transaction)."""
    heard = []
    with tempfile.TemporaryDirectory(prefix="transcribe-") as folder:
        for leg in Leg:
            path = _leg_file(linkedid, leg, Path(folder))
            if path is None:
                continue
            began = time.process_time()
            words = engine().transcribe(path, listened(campaign_rules, leg))
            cpu = time.process_time() - began
            seconds = max(0, path.stat().st_size - 44) / 16000  # 8 kHz 16-bit mono after its header
            heard.append(Heard(leg, words, engine().name, round(seconds, 2), round(cpu, 3)))
    return heard


def recorded_unrated() -> list[str]:
    """The linkedids of the ended, recorded calls rating has yet to rate (the periodic sweep's)."""
    stmt = select(Call.linkedid).where(
        Call.rating_status == RatingStatus.PENDING,
        col(Call.ended_at).is_not(None),
        col(Call.recording).is_not(None),
    )
    with session_scope() as session:
        return list(session.scalars(stmt))


def rated_among(linkedids: list[str]) -> list[str]:
    """Those of `linkedids` rated now (rating is done with them: their recordings are complete)."""
    if not linkedids:
        return []
    stmt = select(Call.linkedid).where(
        col(Call.linkedid).in_(linkedids), Call.rating_status != RatingStatus.PENDING
    )
    with session_scope() as session:
        return list(session.scalars(stmt))


def transcribe_call(linkedid: str) -> rules.Outcome | None:
    """Transcribe the recorded call `linkedid` and apply its campaign's rules; None when it has no
    recording (or no row yet). Safe to run twice: the legs are replaced, the rules applied again."""
    with session_scope() as session:
        stmt = select(Call.id, Call.recording, Call.campaign_id).where(Call.linkedid == linkedid)
        found = session.execute(stmt).first()
        listening = campaign_rules(session, found.campaign_id) if found is not None else []
    if found is None or found.recording is None:
        return None
    heard = hear(linkedid, listening)
    with session_scope() as session:
        save(session, found.id, heard)
        return judge(session, found.id)


def save(session: Session, call_id: int, heard: list[Heard]) -> None:
    """The legs stored (replacing any stored before), card numbers masked: nothing unmasked is kept."""
    for leg in heard:
        masked, _ = redaction.redact(leg.words)
        words = [{"w": w.text, "s": w.start, "e": w.end, "c": w.confidence} for w in masked]
        values = {
            "call_id": call_id,
            "leg": leg.leg.value,
            "engine": leg.engine,
            "words": words,
            "text": " ".join(w.text for w in masked),
            "audio_seconds": leg.audio_seconds,
            "cpu_seconds": leg.cpu_seconds,
            "created_at": utcnow(),
        }
        stmt = insert(CallTranscript).values(values)
        changed = {k: stmt.excluded[k] for k in values if k not in ("call_id", "leg")}
        session.execute(stmt.on_conflict_do_update(constraint="uq_call_transcript_call_id_leg", set_=changed))


def legs_of(session: Session, call_id: int) -> dict[Leg, list[Word]]:
    stmt = select(CallTranscript.leg, CallTranscript.words).where(CallTranscript.call_id == call_id)
    return {
        Leg(leg): [Word(w["w"], w["s"], w["e"], w["c"]) for w in words]
        for leg, words in session.execute(stmt).all()
    }


def campaign_rules(session: Session, campaign_id: int | None) -> list[rules.Rule]:
    stmt = select(KeywordRule).where(KeywordRule.campaign_id == campaign_id).order_by(col(KeywordRule.id))
    return [
        rules.Rule(
            r.id or 0, r.name, tuple(r.phrases), KeywordSide(r.side), KeywordEffect(r.effect), r.tag, r.score
        )
        for r in session.scalars(stmt)
    ]


def _trail(outcome: rules.Outcome, legs: dict[Leg, list[Word]], now: datetime) -> list[Entry]:
    said = ", ".join(f"{leg}: {len(words)} words" for leg, words in legs.items())
    entries = [entry(Step.TRANSCRIBE, Result.PASSED, f"transcribed ({said})", now)]
    for m in outcome.matches:
        reason = f'{m.rule.effect} by rule "{m.rule.name}": the {m.leg} said "{m.words}" at {m.start:.1f} s'
        fields: dict[str, Any] = {"rule_id": m.rule.id, "effect": m.rule.effect.value, "leg": m.leg.value}
        entries.append(
            entry(Step.KEYWORD, Result.PASSED, reason, now, words=m.words, start=m.start, end=m.end, **fields)
        )
    return entries


def _conversation(outcome: rules.Outcome) -> payload.Conversation:
    return {
        "tags": outcome.tags,
        "score": outcome.score,
        "matches": [
            {
                "rule_id": m.rule.id,
                "rule": m.rule.name,
                "effect": m.rule.effect.value,
                "leg": m.leg.value,
                "words": m.words,
                "start": m.start,
                "end": m.end,
            }
            for m in outcome.matches
        ],
    }


def judge(session: Session, call_id: int) -> rules.Outcome | None:
    """The campaign's rules on the call's stored legs, and all that follows (the module's doc), in
    the caller's transaction; None when the call has no transcript."""
    stmt = select(Call).where(Call.id == call_id).with_for_update()
    call = session.scalars(stmt.execution_options(populate_existing=True)).first()
    legs = legs_of(session, call_id)
    if call is None or not legs:
        return None
    now = utcnow()
    outcome = rules.apply(campaign_rules(session, call.campaign_id), legs)
    conversation = _conversation(outcome)
    values = {
        "call_id": call_id,
        "tags": outcome.tags,
        "score": outcome.score,
        "converted": outcome.converted,
        "billable": outcome.billable,
        "matches": conversation["matches"],
        "applied_at": now,
    }
    stmt_up = insert(CallConversation).values(values)
    session.execute(
        stmt_up.on_conflict_do_update(
            index_elements=["call_id"], set_={k: v for k, v in values.items() if k != "call_id"}
        )
    )
    kept = [e for e in call.trail if e.get("step") not in (Step.TRANSCRIBE, Step.KEYWORD)]
    call.trail = kept + _trail(outcome, legs, now)  # a new list: the JSON column is written again
    session.add(call)
    session.flush()
    if call.rating_status != RatingStatus.PENDING:  # not yet rated: rating reads the verdict itself
        rerate.rerate_conversion(session, call)
    body = payload.transcribed(call, conversation, now)
    intake.add(
        session,
        [intake.Event(call.linkedid, WebhookEvent.TRANSCRIBED, call.campaign_id, call.buyer_id, body)],
    )
    return outcome


def transcribed_calls(campaign_id: int, after: int) -> list[int]:
    """The next batch of the campaign's transcribed calls, by id after `after`."""
    stmt = (
        select(CallTranscript.call_id)
        .join(Call, col(Call.id) == CallTranscript.call_id)
        .where(Call.campaign_id == campaign_id, CallTranscript.call_id > after)
        .distinct()
        .order_by(CallTranscript.call_id)
        .limit(REAPPLY_BATCH)
    )
    with session_scope() as session:
        return list(session.scalars(stmt))


def reapply(campaign_id: int) -> int:
    """The campaign's rules applied again to every call of it already transcribed (after the rules
    changed), a call per transaction; how many calls."""
    done = 0
    for batch in _batches(campaign_id):
        for call_id in batch:
            with session_scope() as session:
                done += judge(session, call_id) is not None
    return done


def _batches(campaign_id: int) -> Iterator[list[int]]:
    after = 0
    while batch := transcribed_calls(campaign_id, after):
        yield batch
        after = batch[-1]
