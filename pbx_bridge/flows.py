"""The calls this bridge follows: one CallFlow and one task per call, and the events that go to them.

Once the caller's channel is followed in the dialplan (pbx_bridge.call.caller: its answer and
hang-up bill the call), Asterisk sends every state change, hang-up request and DTMF digit of
every caller: ARI's event filter allows or refuses by type only. What no flow reads is dropped
here, before it wakes a call's task: a state change other than the answer, a soft hang-up
request (Asterisk's own), a digit of a call already in the dialplan (the IVR is in Stasis).
"""

import asyncio

from core.infra import names
from pbx_bridge.call.caller import channel_of
from pbx_bridge.call.context import Context
from pbx_bridge.call.flow import CallFlow
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
        table.subscribe(Source.ARI, "ChannelDtmfReceived", self.digit)
        # ... and once dialled (the flow follows it), its answer and its hang-up, by Asterisk's clock.
        table.subscribe(Source.ARI, "ChannelStateChange", self.state_changed)
        table.subscribe(Source.ARI, "ChannelHangupRequest", self.hangup_requested)
        # AMI: what the dialplan tells of the call it dials, named by linkedid whichever leg raised it.
        table.subscribe(Source.AMI, names.ATTEMPT_EVENT, self.to_call)
        table.subscribe(Source.AMI, names.ANSWERED_EVENT, self.to_call)
        table.subscribe(Source.AMI, names.END_EVENT, self.to_call)

    def start(self, flow: CallFlow) -> None:
        self.ctx.channels[flow.linkedid] = flow
        task = asyncio.create_task(flow.run(), name=f"call-{flow.linkedid}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stasis_start(self, event: Event) -> None:
        """A new call (the dialplan's arguments: the DID and the caller), or one of ours again."""
        if self._flow_of(event) is None:
            did, caller = [*event.get("args", []), "", ""][:2]
            self.start(CallFlow.start(self.ctx, event.get("channel", {}), did, caller))
        else:
            self.to_channel(event)

    def to_channel(self, event: Event) -> None:
        """To the call whose channel the event names."""
        if (flow := self._flow_of(event)) is not None:
            flow.deliver(event)

    def digit(self, event: Event) -> None:
        """A digit the caller pressed: the IVR's, while the call is in Stasis."""
        if (flow := self._flow_of(event)) is not None and not flow.caller.in_dialplan:
            flow.deliver(event)

    def state_changed(self, event: Event) -> None:
        """The caller's channel answered (the only state a flow reads)."""
        if event.get("channel", {}).get("state") == "Up":
            self.to_channel(event)

    def hangup_requested(self, event: Event) -> None:
        """The caller hung up (a soft request is Asterisk's own: a redirect, ARI's hang-up)."""
        if not event.get("soft"):
            self.to_channel(event)

    def _flow_of(self, event: Event) -> CallFlow | None:
        channel_id = channel_of(event)
        return self.ctx.channels.get(channel_id) if channel_id else None

    def to_call(self, event: Event) -> None:
        if (flow := self.ctx.channels.get(event.get("linkedid", ""))) is not None:
            flow.deliver(event)

    async def stop(self, timeout: float) -> None:
        """Calls in the dialplan talk on without us (the next bridge takes them back); only calls
        still being routed are worth waiting for."""
        for flow in set(self.ctx.channels.values()):
            if flow.caller.in_dialplan:
                flow.let_go()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=timeout)
