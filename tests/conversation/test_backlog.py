"""Transcription's backlog never delays rating (issue 34): a real worker, reading the main queue as
`make run`'s does, rates 200 recorded calls by the periodic sweep (the bridge's batch lost) and
queues each for transcription on its own queue; while those wait (no transcriber runs here), calls
hung up next are rated all the same, and queued in turn."""

import base64
import json
import os
import signal

import pytest
from sqlalchemy import func, insert, select

from core.infra import jobs, names
from core.infra.db import session_scope
from core.infra.redis_client import get_redis
from core.models import Call
from core.values.enums import Disposition, RatingStatus
from testkit.processes import start_worker
from testkit.rows import MAR, customer_id, tariff
from testkit.waiting import eventually

pytestmark = pytest.mark.slow
SWEPT, HUNG_UP, UNRECORDED = 200, 40, 20


def calls(user_id: int, prefix: str, count: int, recorded: bool) -> list[str]:
    rows = [
        {
            "linkedid": f"{prefix}.{n}",
            "user_id": user_id,
            "did": "+442071838750",
            "caller": "+447700900123",
            "destination": "+447911123456",
            "started_at": MAR,
            "ended_at": MAR,
            "billsec": 30,
            "talk_seconds": 30,
            "disposition": Disposition.ANSWERED.value,
            "recording": f"call-{prefix}.{n}.wav" if recorded else None,
        }
        for n in range(count)
    ]
    with session_scope() as s:
        return list(s.scalars(insert(Call).returning(Call.linkedid), rows))


def rated(linkedids: list[str]) -> int:
    stmt = select(func.count()).where(
        Call.linkedid.in_(linkedids),  # type: ignore[attr-defined]
        Call.rating_status != RatingStatus.PENDING,
    )
    with session_scope() as s:
        return int(s.scalar(stmt) or 0)


def waiting() -> list[str]:
    """The calls queued for transcription, by linkedid, as the transcriber would read them."""
    queued = []
    for message in get_redis().lrange(names.TRANSCRIBE_QUEUE, 0, -1):
        envelope = json.loads(message)
        assert envelope["headers"]["task"] == names.TRANSCRIBE_CALL
        (linkedid,), _, _ = json.loads(base64.b64decode(envelope["body"]))
        queued.append(linkedid)
    return queued


def test_rating_goes_on_while_transcriptions_wait_and_swept_calls_are_queued_too(tmp_path) -> None:
    alice = customer_id("0", tariff(("44", "0.10")))
    swept = calls(alice, "swept", SWEPT, recorded=True)
    unrecorded = calls(alice, "plain", UNRECORDED, recorded=False)
    worker = start_worker(str(tmp_path / "worker.log"))  # the main queue only
    try:
        jobs.enqueue(names.RATE_PENDING)  # what beat sends every 30 s
        eventually(lambda: len(waiting()) == SWEPT, 180, 0.2, "the swept calls queued for transcription")
        assert rated(swept + unrecorded) == SWEPT + UNRECORDED
        assert sorted(waiting()) == sorted(swept)  # each recorded call once; no unrecorded one

        # Calls hung up now, with 200 transcriptions waiting: rated by the bridge's batches.
        hung_up = calls(alice, "hangup", HUNG_UP, recorded=True)
        for start in range(0, HUNG_UP, 20):
            jobs.enqueue(names.RATE_CALL, *hung_up[start : start + 20])
        eventually(lambda: rated(hung_up) == HUNG_UP, 120, 0.1, "the hung-up calls rated")
        eventually(lambda: len(waiting()) == SWEPT + HUNG_UP, 30, 0.1, "the hung-up calls queued")
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
    assert sorted(waiting()) == sorted(swept + hung_up)  # the backlog untouched by the main worker
