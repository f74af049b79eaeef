"""Static attribution (issue 33): the bridge writes the number's traffic source on the call's row
from admission on, whatever happens next; a number with no source leaves it empty."""

from core.models import BlockEntry, Number, TrafficSource
from testkit.rows import CALLER, change, save
from tests.bridge.call.trail import dialled_line
from tests.bridge.fakes import bridge


async def test_the_call_row_carries_the_numbers_traffic_source() -> None:
    ln, _ = dialled_line("Acme desk")
    radio = save(TrafficSource(user_id=ln.user.id or 0, name="Radio"))
    change(Number, ln.number.id or 0, source_id=radio.id)
    save(BlockEntry(user_id=ln.user.id, pattern=CALLER, match_type="exact"))  # refused after the route
    async with bridge() as b:
        with_source = await b.ended(b.call())
        change(Number, ln.number.id or 0, source_id=None)
        without = await b.ended(b.call())
    assert (with_source.disposition, with_source.source_id) == ("BLOCKED", radio.id)
    assert (without.disposition, without.source_id) == ("BLOCKED", None)
