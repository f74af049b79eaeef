"""The bridge writes call rows in batches (pbx_bridge.row_writer.RowWriter), into the real database."""

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlmodel import select

from core.infra.db import session_scope
from core.models import Call
from pbx_bridge.row_writer import ATTEMPTS, RowWriter
from testkit.waiting import eventually_async


def row(linkedid: str, **fields: Any) -> dict[str, Any]:
    return {
        "linkedid": linkedid,
        "did": "+442071838750",
        "caller": "+447911123456",
        "started_at": datetime(2026, 11, 25, 12, 0, tzinfo=UTC),
        "disposition": "FAILED",
        "trail": [],
        **fields,
    }


def stored() -> dict[str, Call]:
    with session_scope() as s:
        return {c.linkedid: c for c in s.exec(select(Call)).all()}


def test_rows_written_meanwhile_go_in_together_and_a_call_keeps_its_latest() -> None:
    seen_at_callback: list[tuple[str, str | None]] = []

    def then(linkedid: str) -> None:  # the row must already be there, as rating reads it
        seen_at_callback.append((linkedid, stored()[linkedid].disposition))

    async def scenario() -> None:
        writer = RowWriter()
        for n in range(30):
            writer.write(row(f"call.{n}"))
        writer.write(row("call.0", disposition="ANSWERED", target_id=None))  # other columns too
        writer.write(row("call.0", disposition="ANSWERED", billsec=7), then=then)
        assert stored() == {}  # nothing before the flush
        assert await writer.flush()

    asyncio.run(scenario())
    rows = stored()
    assert len(rows) == 30
    assert (rows["call.0"].disposition, rows["call.0"].billsec) == ("ANSWERED", 7)
    assert rows["call.1"].disposition == "FAILED"
    assert seen_at_callback == [("call.0", "ANSWERED")]


def test_a_row_the_database_refuses_does_not_hold_up_the_others(caplog: pytest.LogCaptureFixture) -> None:
    told: list[str] = []

    async def scenario() -> None:
        writer = RowWriter()
        writer.write(row("call.good"), then=told.append)
        writer.write(row("call.bad", user_id=987654), then=told.append)  # no such customer
        for _ in range(ATTEMPTS + 2):
            await writer.flush()

    with caplog.at_level(logging.ERROR):
        asyncio.run(scenario())
    assert list(stored()) == ["call.good"] and told == ["call.good"]
    assert "giving up writing call call.bad; the reconciliation completes it" in caplog.messages


def test_the_rows_left_at_stop_are_written() -> None:
    async def scenario() -> None:
        writer, stop = RowWriter(), asyncio.Event()
        task = asyncio.create_task(writer.run(stop))
        writer.write(row("call.early"))
        # written by the running writer, not at stop
        await eventually_async(lambda: list(stored()) == ["call.early"])
        writer.write(row("call.late"))
        stop.set()
        await task
        await writer.flush()

    asyncio.run(scenario())
    assert sorted(stored()) == ["call.early", "call.late"]
