"""The bridge hands hung-up calls to rating in batches (pbx_bridge.rating_queue)."""

import asyncio
import logging

import pytest

from pbx_bridge.rating_queue import FLUSH_SECONDS, RatingQueue
from testkit.waiting import eventually_async


def test_calls_ending_together_go_in_one_message_and_the_rest_at_stop() -> None:
    sent: list[list[str]] = []

    async def scenario() -> None:
        queue, stop = RatingQueue(sent.append), asyncio.Event()
        sender = asyncio.create_task(queue.run(stop))
        for n in range(50):
            queue.add(f"call.{n}")
        await eventually_async(lambda: sent, timeout=FLUSH_SECONDS * 10)  # the first flush went out
        queue.add("call.late")
        stop.set()
        await sender
        await queue.flush()

    asyncio.run(scenario())
    assert sent == [[f"call.{n}" for n in range(50)], ["call.late"]]


def test_a_broker_failure_is_logged_and_the_bridge_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    def broker_down(linkedids: list[str]) -> None:
        raise ConnectionError("broker down")

    async def scenario() -> None:
        queue = RatingQueue(broker_down)
        queue.add("call.1")
        await queue.flush()
        await queue.flush()  # nothing left: the sweep rates call.1, not a retry storm

    with caplog.at_level(logging.ERROR):
        asyncio.run(scenario())
    assert [r.getMessage() for r in caplog.records] == [
        "could not queue 1 calls for rating; the periodic sweep will"
    ]
