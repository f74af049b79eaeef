"""The calls this bridge follows: one CallFlow and one task per call, and the events that go to them."""

import asyncio

from core import names
from pbx_bridge.call_flow import CallFlow, Context, channel_of
from pbx_bridge.events import Event, EventTable, Source


class Flows:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, table: EventTable) -> None:
        # ARI: the caller's channel while the call is in Stasis, and its playbacks.
        table.subscribe(Source.ARI, "StasisStart", self.stasis_start)
        table.subscribe(Source.ARI, "StasisEnd", self.to_channel)
        table.subscribe(Source.ARI, "PlaybackFinished", self.to_channel)
        table.subscribe(Source.ARI, "ChannelDtmfReceived", self.to_channel)
        # ... and once dialled (CallFlow follows it), its answer and its hang-up, by Asterisk's clock.
        table.subscribe(Source.ARI, "ChannelStateChange", self.to_channel)
        table.subscribe(Source.ARI, "ChannelHangupRequest", self.to_channel)
        # AMI: what the dialplan tells of the call it dials, named by linkedid whichever leg raised it.
        table.subscribe(Source.AMI, names.ATTEMPT_EVENT, self.to_call)
        table.subscribe(Source.AMI, names.ANSWERED_EVENT, self.to_call)
        table.subscribe(Source.AMI, names.END_EVENT, self.to_call)

    def start(self, flow: CallFlow) -> None:
        self.ctx.channels[flow.inbound] = flow
        task = asyncio.create_task(flow.run(), name=f"call-{flow.linkedid}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stasis_start(self, event: Event) -> None:
        """A new call (the dialplan's arguments: the DID and the caller), or one of ours again."""
        if not self._deliver(event):
            did, caller = [*event.get("args", []), "", ""][:2]
            self.start(CallFlow.start(self.ctx, event["channel"], did, caller))

    def to_channel(self, event: Event) -> None:
        """To the call whose channel the event names."""
        self._deliver(event)

    def _deliver(self, event: Event) -> bool:
        channel_id = channel_of(event)
        flow = self.ctx.channels.get(channel_id) if channel_id else None
        if flow is not None:
            flow.deliver(event)
        return flow is not None

    def to_call(self, event: Event) -> None:
        if (flow := self.ctx.channels.get(event.get("linkedid", ""))) is not None:
            flow.deliver(event)

    async def stop(self, timeout: float) -> None:
        """Calls in the dialplan talk on without us (the next bridge takes them back); only calls
        still being routed are worth waiting for."""
        for flow in set(self.ctx.channels.values()):
            if flow.in_dialplan:
                flow.let_go()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=timeout)
