"""What was said, on real calls: sipp speaks on both legs (espeak-ng, 8 kHz, PCMU RTP), Asterisk
records each leg, the worker rates the call and transcribes it on its own queue, and the campaign's
keyword rules tag, convert or unbill it, with the words and their time on the trail."""

import os
import signal
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from sqlmodel import col, select

from core.infra import names
from core.infra.db import session_scope
from core.models import Call, CallConversation, CallTranscript, KeywordRule, Target
from core.values.enums import KeywordEffect, KeywordSide, TokenKind
from portal_api.auth import tokens
from testkit import speech
from testkit.actors import make_actor
from testkit.asterisk import AsteriskUnderTest, bridge_env, calls, seed_plan
from testkit.processes import api_server, start_worker
from testkit.rows import CALLER, change, get, save
from testkit.sipp import call, sipp_target
from testkit.waiting import eventually

pytestmark = pytest.mark.asterisk

GREETING = "Hi, thanks for calling the dental office."
BOOKS = "Hello, I would like to book an appointment for next Tuesday please."
# The bundled engine rarely hears espeak-ng's "number" after "wrong": the rule lists a variant.
WRONG = "Sorry, I think I dialed the wrong number, goodbye."


def said(text: str, folder: Path, name: str) -> Path:
    return speech.capture(speech.spoken(text), folder / f"{name}.pcap", silence_ms=500)


def judged(count: int) -> list[tuple[Call, CallConversation]]:
    """The calls once `count` of them are transcribed and judged, oldest first."""

    def done() -> list[tuple[Call, CallConversation]]:
        with session_scope() as s:
            verdicts = list(s.exec(select(CallConversation).order_by(col(CallConversation.call_id))))
        assert len(verdicts) >= count, f"{len(verdicts)} of {count} calls judged"
        return [(get(Call, v.call_id), v) for v in verdicts]

    return eventually(done, timeout=180, interval=1, what="the calls transcribed")


async def test_what_the_caller_says_converts_or_unbills_the_call_and_the_trail_says_why(
    asterisk: AsteriskUnderTest, sipp_binary: str, bridge: Path, espeak_ng: str, tmp_path: Path
) -> None:
    worker_log = tmp_path / "worker.log"
    queues = (names.CELERY_QUEUE, names.TRANSCRIBE_QUEUE)
    worker = start_worker(str(worker_log), env=bridge_env(asterisk), queues=queues)
    try:
        greeting = said(GREETING, tmp_path, "greeting")
        with (
            sipp_target(sipp_binary, "answer", tmp_path, plays=greeting) as target,
            api_server(tmp_path / "api.log") as base,
        ):
            plan = seed_plan([target.port], pushed_to=asterisk, record=True, buffer_seconds=60)
            change(Target, plan.targets[0], payout=Decimal("12.5"))
            save(
                KeywordRule(
                    campaign_id=plan.campaign_id,
                    name="Booked",
                    phrases=["appointment"],
                    side=KeywordSide.CALLER,
                    effect=KeywordEffect.CONVERT,
                    tag="booked",
                )
            )
            save(
                KeywordRule(
                    campaign_id=plan.campaign_id,
                    name="Wrong number",
                    phrases=["wrong number", "the wrong"],
                    side=KeywordSide.EITHER,
                    effect=KeywordEffect.NOT_BILLABLE,
                    tag="wrong-number",
                )
            )
            for line in (BOOKS, WRONG):
                log = await call(
                    sipp_binary,
                    asterisk,
                    plan.did,
                    CALLER,
                    tmp_path,
                    talk_ms=7000,
                    plays=said(line, tmp_path, line[:5]),
                )
                assert "final=SIP/2.0 200" in log, log
            calls(2)
            (booked, booked_verdict), (wrong, wrong_verdict) = judged(2)
            other = make_actor(2, "Other Customer")
            with session_scope() as s:
                owner = {"Authorization": f"Bearer {tokens.issue(s, plan.user_id, TokenKind.SESSION, 1)[0]}"}
            async with httpx.AsyncClient(base_url=base, timeout=20) as http:
                found = await http.get("/api/report", params={"words": "appointment"}, headers=owner)
                hidden = await http.get("/api/report", params={"words": "appointment"}, headers=other.headers)
                tagged = await http.get("/api/report", params={"tag": "wrong-number"}, headers=owner)
                transcript = await http.get(f"/api/report/transcript/{booked.id}", headers=owner)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(30)
    why = f"{booked.trail}\n{wrong.trail}\n{worker_log.read_text()[-3000:]}"
    # Seven seconds of talk, short of the 60 s buffer: "appointment" converted it, at its second.
    assert booked.talk_seconds < 60 and booked.converted and booked.payout == Decimal("12.5000"), why
    assert booked_verdict.tags == ["booked"], why
    (match,) = [e for e in booked.trail if e["step"] == "keyword"]
    assert match["leg"] == "caller" and "appointment" in match["words"] and 0 < match["start"] < 7, match
    assert f'the caller said "{match["words"]}" at {match["start"]:.1f} s' in match["reason"]
    # The wrong number: answered, never billable to the buyer; its trail says by which words.
    assert not wrong.converted and wrong.payout == Decimal("0.0000") and not wrong_verdict.billable, why
    assert wrong_verdict.tags == ["wrong-number"]
    assert [e["effect"] for e in wrong.trail if e["step"] == "keyword"] == ["not_billable"]
    # Each leg on its own: what the caller and the target said.
    with session_scope() as s:
        legs = {
            t.leg: t.text for t in s.exec(select(CallTranscript).where(CallTranscript.call_id == booked.id))
        }
    assert set(legs) == {"caller", "target"} and "appointment" in legs["caller"], legs
    # Found by a spoken word and by tag, by its customer only.
    assert [r["id"] for r in found.json()["data"]["data"]] == [booked.id]
    assert hidden.json()["data"]["data"] == []
    assert [r["id"] for r in tagged.json()["data"]["data"]] == [wrong.id]
    lines = transcript.json()["data"]
    assert [leg["leg"] for leg in lines["legs"]] == ["caller", "target"] and lines["tags"] == ["booked"]
