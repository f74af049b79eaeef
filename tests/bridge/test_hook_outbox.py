"""The bridge's webhook events (pbx_bridge.hook_outbox): recorded in batches, and a hung-up call
handed to rating only once the events it raised are recorded."""

import asyncio
from datetime import UTC, datetime

from core.calls.record import CallState
from core.values.enums import WebhookEvent
from core.webhooks.intake import Event
from pbx_bridge.hook_outbox import ATTEMPTS, HookOutbox


def _state(campaign_id: int | None = 3) -> CallState:
    at = datetime(2026, 3, 1, tzinfo=UTC)
    return CallState(
        linkedid="5.1", did="+442071838750", caller="+447700900123", started_at=at, campaign_id=campaign_id
    )


def test_events_are_recorded_before_the_call_goes_to_rating_even_when_the_database_hiccups() -> None:
    order: list[str] = []
    failures = [RuntimeError("database away")]

    def record(batch: list[Event]) -> int:
        if failures:
            raise failures.pop()
        order.extend(f"{e.kind.value}:{e.seq}" for e in batch)
        return len(batch)

    async def scenario() -> None:
        outbox = HookOutbox(record)
        rate = outbox.after(lambda linkedid: order.append(f"rated {linkedid}"))
        outbox.event(WebhookEvent.INCOMING, _state())
        outbox.event(WebhookEvent.ROUTED, _state())
        outbox.event(WebhookEvent.INCOMING, _state(campaign_id=None))  # no campaign: nobody to tell
        rate("5.1")
        await outbox.flush()  # the database refused: the hand-over waits with the events
        assert order == []
        await outbox.flush()

    asyncio.run(scenario())
    assert order == ["incoming:0", "routed:1", "rated 5.1"]


def test_a_database_down_for_every_attempt_gives_the_events_up_and_lets_the_call_go_on() -> None:
    handed: list[str] = []

    def record(batch: list[Event]) -> int:
        raise RuntimeError("database away")

    async def scenario() -> None:
        outbox = HookOutbox(record)
        rate = outbox.after(handed.append)
        outbox.event(WebhookEvent.CONNECTED, _state())
        rate("5.1")
        for _ in range(ATTEMPTS):
            await outbox.flush()

    asyncio.run(scenario())
    assert handed == ["5.1"]
