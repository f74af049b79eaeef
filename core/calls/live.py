"""Live calls in Redis: where the bridge writes them and everyone else reads them.

One key per live call (`names.live_call_key`, the call's JSON: `LiveCall`, core.calls.record.CallState.live)
and index sets per scope, so the admin, a customer, a buyer and a target's concurrency count each
read one set. Every change is published on `names.LIVE_EVENTS` (through
`core.infra.redis_client.pubsub_channel`) as a `LiveChange`. The shapes are defined here once, for the
bridge that writes them and the portal that reads them (`read_call`, `read_change`: checked).
"""

from collections.abc import Callable
from typing import Literal

import redis
from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic reads typing's TypedDict only from Python 3.12

from core.infra import names


class LiveScope(TypedDict):
    """Who may see a live call: its customer and its buyer (admins see every call)."""

    user_id: int | None
    buyer_id: int | None


class LiveCall(LiveScope):
    """A live call as the live views show it: who may see it and where it rings."""

    linkedid: str
    did: str
    caller: str
    state: str  # core.values.enums.LiveState
    started_at: str  # ISO 8601
    connected_at: str | None
    campaign_id: int | None
    target_id: int | None
    trunk_id: int | None
    target_name: str | None


class LiveChange(LiveScope):
    """A change published on `names.LIVE_EVENTS`: the call, and who may see it."""

    event: Literal["update", "end"]
    linkedid: str


Indexed = Literal["user_id", "buyer_id", "target_id", "trunk_id"]

# A live call is indexed under each of these when it has the field: (key of the set, field).
INDEXES: tuple[tuple[Callable[[int], str], Indexed], ...] = (
    (names.live_user_key, "user_id"),
    (names.live_buyer_key, "buyer_id"),
    (names.live_target_key, "target_id"),
    (names.live_trunk_key, "trunk_id"),
)

_CALL = TypeAdapter(LiveCall)
_CHANGE = TypeAdapter(LiveChange)


def read_call(raw: str | bytes) -> LiveCall:
    """A live call's JSON as stored; raises pydantic's ValidationError when it is not one."""
    return _CALL.validate_json(raw)


def read_change(raw: str | bytes) -> LiveChange:
    """A published change's JSON; raises pydantic's ValidationError when it is not one."""
    return _CHANGE.validate_json(raw)


def target_count(client: redis.Redis, target_id: int) -> int:
    """Calls ringing or connected at a target now: what its concurrency cap is checked against."""
    return int(client.scard(names.live_target_key(target_id)))


def trunk_count(client: redis.Redis, trunk_id: int) -> int:
    """Calls dialling out or connected through a trunk now: what its channel limit is checked against."""
    return int(client.scard(names.live_trunk_key(trunk_id)))
