"""The outage journal (pbx_bridge.journal) and its replay through the row writer, into the real
database: kept across a crash, replayed in order, and replayed twice changes nothing."""

import asyncio
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import select

from core.billing import credit
from core.billing.credit import OfflineHold
from core.calls.record import CallRow, CallState, Result, Step
from core.infra.db import session_scope
from core.models import Call, CreditReservation
from pbx_bridge import row_writer
from pbx_bridge.journal import Journal, latest
from pbx_bridge.row_writer import RowWriter, write_journaled
from testkit.rows import customer

AT = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def row(linkedid: str, **fields: Any) -> CallRow:
    """A call's whole row as the bridge writes it, with `fields` changed."""
    state = CallState(linkedid=linkedid, did="+442071838750", caller="+447911123456", started_at=AT)
    state.note(Step.ROUTE, Result.PASSED, "routed", AT)
    found = state.row(AT)
    found.update(fields)  # type: ignore[typeddict-item]  # CallRow's own columns
    return found


def hold(linkedid: str, user_id: int, amount: str, seconds: int) -> OfflineHold:
    return OfflineHold(
        linkedid, user_id, Decimal(amount), seconds, AT, AT + timedelta(seconds=seconds) + credit.GRACE
    )


def stored() -> dict[str, tuple[str, int | None]]:
    with session_scope() as s:
        return {c.linkedid: (c.disposition, c.billsec) for c in s.exec(select(Call)).all()}


def holds() -> dict[str, tuple[Decimal, int, bool]]:
    with session_scope() as s:
        found = s.exec(select(CreditReservation)).all()
        return {h.linkedid: (h.amount, h.seconds, h.released_at is None) for h in found}


def test_a_crashed_bridge_finds_its_journal_and_each_call_as_it_stood_last(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal(path, 1_000_000)
    journal.append([row("call.a"), row("call.b", bid=Decimal("1.2500"))])
    journal.append([row("call.a", disposition="ANSWERED", billsec=7)], [hold("call.a", 1, "0.60", 60)])
    journal.append(holds=[hold("call.a", 1, "1.20", 120)])
    with path.open("ab") as torn:  # the crash cut the last write short: its append never returned
        torn.write(b'{"row": {"linkedid": "call.c", "di')

    again = Journal(path, 1_000_000)  # the restarted bridge
    assert again.pending
    rows, held = latest(again.read())
    assert [(r["linkedid"], r["disposition"], r.get("billsec")) for r in rows] == [
        ("call.a", "ANSWERED", 7),
        ("call.b", "FAILED", 0),
    ]
    assert rows[1]["bid"] == Decimal("1.2500") and rows[1]["started_at"] == AT
    assert rows[0]["trail"] == row("call.a")["trail"]
    assert held == [hold("call.a", 1, "1.20", 120)]


def test_replay_writes_holds_and_rows_once_and_twice_changes_nothing(tmp_path: Path) -> None:
    user = customer("10").id or 0
    journal = Journal(tmp_path / "j.jsonl", 1_000_000)
    lines = [row("call.a", disposition="ANSWERED", billsec=7)], [hold("call.a", user, "0.60", 60)]
    journal.append(*lines)
    journal.append([row("call.b")])
    assert journal.replay(write_journaled) == 3
    assert not journal.pending
    assert stored() == {"call.a": ("ANSWERED", 7), "call.b": ("FAILED", 0)}
    assert holds() == {"call.a": (Decimal("0.6000"), 60, True)}

    # A crash between the commit and the truncation: the same lines again change nothing.
    journal.append(*lines)
    journal.replay(write_journaled)
    assert stored() == {"call.a": ("ANSWERED", 7), "call.b": ("FAILED", 0)}
    assert holds() == {"call.a": (Decimal("0.6000"), 60, True)}

    # Rated meanwhile (the hold released): a late replay neither reopens the hold nor shrinks it.
    with session_scope() as s:
        credit.release(s, "call.a")
    journal.append(holds=[hold("call.a", user, "1.20", 120)])
    journal.replay(write_journaled)
    assert holds() == {"call.a": (Decimal("0.6000"), 60, False)}


def test_a_line_the_database_refuses_is_dropped_alone(tmp_path: Path) -> None:
    user = customer("10").id or 0
    journal = Journal(tmp_path / "j.jsonl", 1_000_000)
    journal.append([row("call.a"), row("call.gone", user_id=987654), row("call.b")])  # no such customer
    journal.append(holds=[hold("call.gone", 987654, "0.60", 60), hold("call.a", user, "0.60", 60)])
    journal.replay(write_journaled)
    assert not journal.pending
    assert sorted(stored()) == ["call.a", "call.b"]
    assert list(holds()) == ["call.a"]


def test_a_replay_that_fails_keeps_everything_and_keeps_what_came_meanwhile(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.jsonl", 1_000_000)
    journal.append([row("call.a")])

    def down(rows: list[CallRow], held: list[OfflineHold]) -> None:
        raise OperationalError("connect", {}, ConnectionRefusedError("stopped"))

    with pytest.raises(OperationalError):
        journal.replay(down)
    assert [r["linkedid"] for r in latest(journal.read())[0]] == ["call.a"]

    def appended_during(rows: list[CallRow], held: list[OfflineHold]) -> None:
        write_journaled(rows, held)
        journal.append([row("call.late")])  # a call ending while the replay ran

    journal.replay(appended_during)
    assert [r["linkedid"] for r in latest(journal.read())[0]] == ["call.late"]
    assert list(stored()) == ["call.a"]


def test_rows_written_while_the_database_is_down_are_journaled_and_written_in_order_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = customer("10").id or 0
    told: list[tuple[str, tuple[Decimal, int, bool] | None]] = []

    def rated(linkedid: str) -> None:  # rating reads the row and releases the hold: both are there
        told.append((linkedid, holds().get(linkedid)))

    def stopped(*args: object) -> None:
        raise OperationalError("connect", {}, ConnectionRefusedError("PostgreSQL is stopped"))

    async def scenario() -> None:
        journal = Journal(tmp_path / "j.jsonl", 1_000_000)
        replayed: list[bool] = []
        writer = RowWriter(journal, replayed=lambda: replayed.append(True))
        with monkeypatch.context() as down:
            down.setattr(row_writer, "save_many", stopped)
            down.setattr(row_writer, "save", stopped)
            down.setattr(row_writer, "write_journaled", stopped)
            writer._replay = stopped
            writer.write(row("call.a", disposition="ANSWERED"))
            assert not await writer.flush()
            journal.append(holds=[hold("call.a", user, "0.60", 60)])  # the call's credit slice
            writer.write(row("call.a", disposition="ANSWERED", billsec=9), then=rated)
            await writer.keep_only()  # the row as it changed: journaled again
            assert not await writer.flush()
        # The bridge crashes here: a new one finds the journal (its pending rows died with it).
        lines = Journal(tmp_path / "j.jsonl", 1_000_000).read()
        assert [line.row["billsec"] if line.row else "hold" for line in lines] == [0, "hold", 9]
        assert stored() == {} and told == []
        writer._replay = write_journaled
        assert await writer.flush()
        assert replayed == [True] and not journal.pending
        assert told == [("call.a", (Decimal("0.6000"), 60, True))]

    asyncio.run(scenario())
    assert stored() == {"call.a": ("ANSWERED", 9)}
