"""Routing through a PostgreSQL outage (pbx_bridge.routing, core.routing.last_known): the router
decides from what it last read, on the real database before and after; the outage itself is a
connection that can't be made, as when PostgreSQL is stopped."""

import time
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from core.billing.credit import OfflineHold
from core.routing.last_known import LastKnown, Unknown
from core.values.enums import Disposition, RoutingStrategy
from pbx_bridge import routing
from pbx_bridge.credit_hold import CreditHold
from pbx_bridge.journal import Journal
from pbx_bridge.outage import Outage
from pbx_bridge.routing import EngineRouter, OutageTooLong
from testkit.rows import CALLER, DID, NOW, customer, desk, line, tariff


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Database:
    """Whether the router's connections can be made: `down` as PostgreSQL stopped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = False
        connect = routing._connect

        def maybe(wait: float) -> Connection:
            if self.down:
                raise OperationalError("connect", {}, ConnectionRefusedError("PostgreSQL is stopped"))
            return connect(wait)

        monkeypatch.setattr(routing, "_connect", maybe)

    def stop(self, router: EngineRouter) -> None:
        self.down = True
        router._local.conn = None  # the open connection died with the server


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> Database:
    return Database(monkeypatch)


@pytest.fixture
def outage(tmp_path: Path) -> Iterator[Outage]:
    yield Outage(LastKnown(clock=Clock()), Journal(tmp_path / "journal.jsonl", 10_000))


def names(router: EngineRouter, caller: str = CALLER) -> tuple[Disposition | None, list[str]]:
    admission, selection = router.route(DID, caller, NOW)
    return admission.disposition, [c.name for c in selection.candidates] if selection else []


def test_calls_route_from_what_was_read_while_the_database_is_away(
    database: Database, outage: Outage
) -> None:
    ln = line(strategy=RoutingStrategy.ROUND_ROBIN)
    desk(ln, "First")
    desk(ln, "Second")
    router = EngineRouter(outage.known, outage.journal)
    assert names(router) == (None, ["Second", "First"])  # read from the database: remembered

    database.stop(router)
    # Round robin goes on from the cursor read last; the decision never reaches the database.
    assert names(router) == (None, ["First", "Second"])
    assert names(router) == (None, ["Second", "First"])
    assert outage.known.offline
    # A caller not seen since the bridge started: not blocked (no block read for them), routed.
    assert names(router, "+447911000999") == (None, ["First", "Second"])
    with pytest.raises(Unknown):  # a number never routed before: refused, as with no database
        router.route("+442071830000", CALLER, NOW)

    database.down = False
    router._probed -= routing.PROBE_SECONDS  # the next decision asks the database again
    assert names(router)[0] is None
    assert not outage.known.offline


def test_routing_reads_the_database_again_under_calls_faster_than_its_probe(
    database: Database, outage: Outage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A steady carrier (a call each 0.2 s) through an outage: once PostgreSQL is back, a decision
    within PROBE_SECONDS asks it again, however busy the bridge is."""
    clock = Clock()
    monkeypatch.setattr(routing, "time", SimpleNamespace(monotonic=clock, sleep=time.sleep))
    ln = line()
    desk(ln, "First")
    router = EngineRouter(outage.known, outage.journal)
    names(router)
    database.stop(router)
    for _ in range(10):
        clock.now += 0.2
        assert names(router) == (None, ["First"])
    assert outage.known.offline
    database.down = False
    for _ in range(int(routing.PROBE_SECONDS / 0.2) + 1):
        clock.now += 0.2
        names(router)
    assert not outage.known.offline


def test_offline_routing_stops_past_its_bounds(database: Database, outage: Outage) -> None:
    ln = line()
    desk(ln, "First")
    router = EngineRouter(outage.known, outage.journal)
    names(router)
    database.stop(router)
    assert names(router) == (None, ["First"])
    clock = outage.known._clock
    assert isinstance(clock, Clock)
    clock.now += 901  # past OUTAGE_ROUTE_SECONDS (900 by default)
    with pytest.raises(OutageTooLong, match="past OUTAGE_ROUTE_SECONDS"):
        names(router)
    clock.now -= 901
    outage.journal.append(holds=[_hold(50) for _ in range(100)])  # past its 10,000 bytes
    with pytest.raises(OutageTooLong, match="journal is full"):
        names(router)


def test_a_router_without_a_journal_refuses_as_before(database: Database) -> None:
    ln = line()
    desk(ln, "First")
    router = EngineRouter()
    names(router)
    database.stop(router)
    with pytest.raises(OperationalError):
        names(router)


async def test_credit_held_offline_is_the_balance_last_read_less_what_was_held_since(
    database: Database, outage: Outage
) -> None:
    # A cent a second, per-second billing: 1.00 of credit is 100 s of talk.
    user = customer("1.00", tariff(("1", "0.60"), increments=(1, 1)))
    ln = line(user)
    desk(ln, "First", destination="+14155550100")
    router = EngineRouter(outage.known, outage.journal)
    assert names(router) == (None, ["First"])  # the customer, and the destination's rate, read
    database.stop(router)
    assert names(router) == (None, ["First"])
    assert user.id is not None and user.tariff_id is not None

    first = CreditHold(user.id, user.tariff_id, "call.1", "+14155550100", NOW, outage)
    second = CreditHold(user.id, user.tariff_id, "call.2", "+14155550100", NOW, outage)
    assert await first.next_slice() == 60  # a whole slice: 0.60
    assert await second.next_slice() == 40  # what is left: 0.40
    assert await first.next_slice() == 60  # nothing more to hold: it stays what it paid for
    assert outage.known.held(user.id) == Decimal("1.00")
    # The next call is refused its credit check: nothing left of what was last read.
    admission, _ = router.route(DID, CALLER, NOW)
    assert admission.disposition == Disposition.NO_BALANCE

    held = {line.hold.linkedid: line.hold.amount for line in outage.journal.read() if line.hold}
    assert held == {"call.1": Decimal("0.6000"), "call.2": Decimal("0.4000")}


def _hold(seconds: int) -> OfflineHold:
    at = NOW
    return OfflineHold("call.x", 1, Decimal("0.5"), seconds, at, at + timedelta(seconds=seconds))
