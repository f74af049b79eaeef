"""One inbound call, from StasisStart to its call row (domain.md, "A call, from ring to invoice").

The bridge decides in Stasis (admission, the IVR, target selection), then sends the caller on to
the dialplan (`[callroute-dial]`, ARI continue) with the chosen targets in dialling order: Asterisk
dials them in turn, with failover, and bridges the caller with the first that answers. The bridge
follows the rest from the user events that dialplan raises over AMI (each failed attempt, the
answer, the end) and keeps the live view, the credit and the row.

Why the dialplan dials: holding every leg in Stasis cost a dozen ARI requests and events per call
(originate, a bridge, answers, hang-ups), which were most of Asterisk's and the bridge's work per
call; dialled by the dialplan, a call costs three requests after the decision (the plan, `continue`
and the subscription to the caller's channel, whose answer and hang-up bill it), its media is relayed
by Asterisk with nobody asking, and a talking call goes on if the bridge stops (the next one takes
it back, `resume`).

The call's facts are one `core.calls.record.CallState`: the row and the live view are its views. Each
call has its own event queue consumed by its own task, so the events of one call are handled in
the order Asterisk sent them. Database work runs in a thread so the event loop never blocks.

| module | room |
|---|---|
| `flow.py` | the conductor (`CallFlow`): the phases in order, and what ends the call whatever happens |
| `context.py` | what every call shares (`Context`), the gateways and router as a call uses them, `Timing` |
| `caller.py` | the caller's channel: the call's event queue, Asterisk's times, hanging it up once |
| `admission.py` | admission taken in (the first row), the IVR |
| `auction.py` | the targets chosen (again after an IVR) and offered to real-time bidders |
| `claims.py` | `Claims`: the cap slots and repeat-caller key held, given back unless connected |
| `dialling.py` | the plan sent to the dialplan and each attempt it reports: failover, answer, end |
| `talk.py` | the connected call: recording, the answered row, credit slices |
| `ending.py` | who hung up, refusals, the goodbye, the final row and rating |
"""
