"""The live-call WebSocket (spec §7 actions) and hang-up requests, scoped per tenant."""

import asyncio
import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from core.calls.live import LiveCall
from core.calls.record import CallState
from core.infra.names import HANGUP_REQUESTS
from core.infra.redis_client import async_redis, get_redis, pubsub_channel
from core.models import Campaign
from core.values.enums import LiveState
from pbx_bridge.live_store import LiveStore
from testkit.actors import Actor
from testkit.processes import api_server
from testkit.rows import save
from testkit.waiting import eventually


@pytest.fixture(scope="module")
def portal_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the portal serving the sockets logs (stdout and stderr)."""
    return tmp_path_factory.mktemp("portal") / "portal.log"


@pytest.fixture(scope="module")
def ws_base(portal_log: Path) -> Iterator[str]:
    with api_server(log=portal_log, LIVE_TOKEN_CHECK_SECONDS="1") as base:
        yield base.replace("http", "ws", 1)


class Socket:
    """A portal's live socket: JSON in, JSON out."""

    def __init__(self, base: str, token: str, how: str = "protocol") -> None:
        """The token as the browser sends it (`protocol`: the subprotocols `callroute` and
        `bearer.<token>`), as an `Authorization: Bearer` header (`bearer`), or as `?token=` (`query`,
        older clients)."""
        self.url = f"{base}/api/ws?token={token}" if how == "query" else f"{base}/api/ws"
        self.headers = {"Authorization": f"Bearer {token}"} if how == "bearer" else {}
        self.protocols = (
            [Subprotocol("callroute"), Subprotocol(f"bearer.{token}")] if how == "protocol" else None
        )

    def send_json(self, data: dict) -> None:
        self.conn.send(json.dumps(data))

    def receive_json(self) -> dict:
        return json.loads(self.conn.recv(timeout=5))

    def __enter__(self) -> "Socket":
        self.connection = connect(
            self.url, open_timeout=5, additional_headers=self.headers, subprotocols=self.protocols
        )
        self.conn = self.connection.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.__exit__(*exc)


def put_live(call: LiveCall) -> None:
    async def go() -> None:
        client = async_redis()
        await LiveStore(client).put(call)
        await client.aclose()

    asyncio.run(go())


def a_call(customer, buyer, linkedid: str = "1700.1") -> LiveCall:
    """A connected call as the bridge shows it live."""
    call = CallState(
        linkedid=linkedid,
        did="+442071838750",
        caller="+447911123456",
        started_at=datetime(2026, 11, 27, 12, 0, tzinfo=UTC),
        user_id=customer.id,
        buyer_id=buyer.buyer_id,
        target_id=7,
        live_state=LiveState.CONNECTED,
    )
    return call.live()


def shown(call: LiveCall, campaign: str | None = None) -> dict:
    """The call as Live Calls receives it: the conftest's customer and buyer by name."""
    return {**call, "customer_name": "Alice Customer", "campaign_name": campaign, "buyer_name": "Bea Buyer"}


def test_live_calls_name_their_customer_campaign_and_buyer(
    client, ws_base, admin, customer_a, buyer_a
) -> None:
    campaign = save(Campaign(user_id=customer_a.id, name="Solar leads"))
    call = a_call(customer_a, buyer_a) | {"campaign_id": campaign.id}
    put_live(call)
    (seen,) = client.get("/api/live", headers=admin.headers).json()["data"]["livecalls"]
    assert seen == shown(call, "Solar leads")
    with Socket(ws_base, admin.token) as ws:
        ws.send_json({"action": "GET_LIVE_CALLS_BY_ADMIN"})
        assert ws.receive_json()["livecalls"] == [seen]


def test_admin_and_owner_see_the_call_others_do_not(ws_base, admin, customer_a, customer_b, buyer_a) -> None:
    put_live(a_call(customer_a, buyer_a))
    with Socket(ws_base, f"{admin.token}") as ws:
        ws.send_json({"action": "GET_LIVE_CALLS_BY_ADMIN"})
        assert [c["linkedid"] for c in ws.receive_json()["livecalls"]] == ["1700.1"]
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_ADMIN"})
        assert ws.receive_json() == {
            "livecalls": [shown(a_call(customer_a, buyer_a))],
            "callsCount": {"all_calls": 1},
        }
    with Socket(ws_base, f"{customer_a.token}") as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY", "userId": customer_a.id})
        assert ws.receive_json() == {"callsCount": {"all_calls": 1}}
        ws.send_json({"action": "GET_NOTIFICATION_COUNT", "userId": customer_a.id})
        assert ws.receive_json() == {"unread_notification_count": 0}
    with Socket(ws_base, f"{customer_b.token}") as ws:
        # Asking with A's id changes nothing: the scope comes from the token.
        ws.send_json({"action": "GET_LIVE_CALLS_BY_CUSTOMER", "userId": customer_a.id})
        assert ws.receive_json() == {"livecalls": []}
    with Socket(ws_base, f"{buyer_a.token}") as ws:
        ws.send_json({"action": "GET_LIVE_CALLS_BY_CUSTOMER"})
        assert len(ws.receive_json()["livecalls"]) == 1


def test_changes_are_pushed_and_a_reconnect_gets_a_fresh_snapshot(ws_base, customer_a, buyer_a) -> None:
    with Socket(ws_base, f"{customer_a.token}") as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 0}}
        put_live(a_call(customer_a, buyer_a))
        assert ws.receive_json() == {"callsCount": {"all_calls": 1}}
    put_live(a_call(customer_a, buyer_a, "1700.2"))
    with Socket(ws_base, f"{customer_a.token}") as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 2}}


def test_socket_needs_a_valid_token_and_known_actions(ws_base, customer_a) -> None:
    with pytest.raises(ConnectionClosedError) as refused, Socket(ws_base, "nope") as ws:
        ws.receive_json()
    assert refused.value.rcvd.code == 4401
    with Socket(ws_base, f"{customer_a.token}") as ws:
        ws.send_json({"action": "DROP_TABLES"})
        assert "Unknown action" in ws.receive_json()["error"]


def _sign_out(client, admin, user) -> None:
    assert client.post("/api/logout", headers=user.headers).status_code == 200


def _suspend(client, admin, user) -> None:
    r = client.patch(f"/api/user/status/{user.id}", json={"status": "suspended"}, headers=admin.headers)
    assert r.status_code == 200


def _new_password(client, admin, user) -> None:
    r = client.put(f"/api/user/{user.id}", json={"password": "set-by-admin-1"}, headers=admin.headers)
    assert r.status_code == 200


def _stop_impersonating(client, admin, user) -> None:
    assert client.post("/api/impersonate/stop", headers=user.headers).status_code == 200


def _closed_with(ws: Socket) -> int:
    with pytest.raises(ConnectionClosedError) as closed:
        ws.receive_json()
    return closed.value.rcvd.code


@pytest.mark.parametrize("end", [_sign_out, _suspend, _new_password, _stop_impersonating])
def test_the_socket_closes_with_4401_within_seconds_of_its_token_ending(
    ws_base, client, admin, customer_a, end
) -> None:
    user = customer_a
    if end is _stop_impersonating:
        r = client.post(f"/api/user/impersonate/{customer_a.id}", headers=admin.headers)
        user = Actor(customer_a.id, customer_a.email, customer_a.password, r.json()["data"]["token"])
    with Socket(ws_base, user.token) as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 0}}
        end(client, admin, user)
        assert _closed_with(ws) == 4401  # nothing sent: the periodic check (1 s here) closes it


def test_a_message_after_the_token_ended_is_answered_by_the_close(ws_base, client, admin, customer_a) -> None:
    with Socket(ws_base, customer_a.token) as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 0}}
        _sign_out(client, admin, customer_a)
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert _closed_with(ws) == 4401  # not the count: the message itself re-checks the token


def test_the_socket_takes_the_token_as_a_bearer_header_too(ws_base, customer_a, buyer_a) -> None:
    put_live(a_call(customer_a, buyer_a))
    with Socket(ws_base, f"{customer_a.token}", how="bearer") as ws:
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 1}}
    with pytest.raises(ConnectionClosedError) as refused, Socket(ws_base, "nope", how="bearer") as ws:
        ws.receive_json()
    assert refused.value.rcvd.code == 4401


def test_the_browser_sends_its_token_as_a_subprotocol_and_is_answered_callroute(
    ws_base, customer_a, buyer_a
) -> None:
    put_live(a_call(customer_a, buyer_a))
    with Socket(ws_base, customer_a.token) as ws:
        assert ws.conn.subprotocol == "callroute"  # never the token echoed back
        ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
        assert ws.receive_json() == {"callsCount": {"all_calls": 1}}
    with pytest.raises(ConnectionClosedError) as refused, Socket(ws_base, "cr_nope") as ws:
        ws.receive_json()
    assert refused.value.rcvd.code == 4401


def test_no_token_reaches_the_portals_log(ws_base, portal_log: Path, customer_a, buyer_a) -> None:
    """Uvicorn logs each socket's path with its query string: a token sent there by an older client
    is written as [redacted], in every line of every logger."""
    for how in ("query", "protocol", "bearer"):
        with Socket(ws_base, customer_a.token, how=how) as ws:
            ws.send_json({"action": "GET_CALLS_COUNT_FOR_COMPANY"})
            assert ws.receive_json() == {"callsCount": {"all_calls": 0}}
    eventually(
        lambda: "/api/ws?token=[redacted]" in portal_log.read_text(), timeout=10, what="the socket's line"
    )
    logged = portal_log.read_text()
    assert customer_a.token not in logged and customer_a.token.removeprefix("cr_")[:20] not in logged


def test_get_live_is_the_sockets_snapshot_in_the_callers_scope(
    client, admin, customer_a, customer_b, buyer_a
) -> None:
    put_live(a_call(customer_a, buyer_a))
    seen = {
        who: client.get("/api/live", headers=actor.headers).json()["data"]
        for who, actor in (("admin", admin), ("owner", customer_a), ("other", customer_b), ("buyer", buyer_a))
    }
    snapshot = {"livecalls": [shown(a_call(customer_a, buyer_a))], "callsCount": {"all_calls": 1}}
    assert seen == {
        "admin": snapshot,
        "owner": snapshot,
        "other": {"livecalls": [], "callsCount": {"all_calls": 0}},
        "buyer": snapshot,
    }
    assert client.get("/api/live").status_code == 401
    assert client.get("/api/live", headers={"Authorization": "Bearer nope"}).status_code == 401


def test_hang_up_is_scoped_and_asks_the_bridge(client, customer_a, customer_b, buyer_a) -> None:
    put_live(a_call(customer_a, buyer_a))
    assert (
        client.post(
            "/api/report/callHangUp", json={"linkedid": "1700.1"}, headers=customer_b.headers
        ).status_code
        == 404
    )
    assert (
        client.post(
            "/api/report/callHangUp", json={"linkedid": "nope"}, headers=customer_a.headers
        ).status_code
        == 404
    )
    pubsub = get_redis().pubsub()
    pubsub.subscribe(pubsub_channel(HANGUP_REQUESTS))
    pubsub.get_message(timeout=1)
    r = client.post("/api/report/callHangUp", json={"linkedid": "1700.1"}, headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"] == {"linkedid": "1700.1", "ended": False}
    message = pubsub.get_message(timeout=1)
    assert json.loads(message["data"]) == {"linkedid": "1700.1", "by": customer_a.id}
    pubsub.close()


def test_hundreds_of_calls_ending_together_all_leave_the_live_view(
    ws_base, admin, customer_a, buyer_a
) -> None:
    """500 calls hung up in the same instant (a carrier outage, the end of a benchmark step) once
    left some shown live for ever: the bridge's Redis pool refused connections past 100."""
    calls = [a_call(customer_a, buyer_a, f"1800.{n}") for n in range(500)]

    async def burst() -> None:
        client = async_redis()
        store = LiveStore(client)
        await asyncio.gather(*(store.put(call) for call in calls))
        await asyncio.gather(*(store.remove(call["linkedid"]) for call in calls))
        await client.aclose()

    asyncio.run(burst())
    with Socket(ws_base, f"{admin.token}") as ws:
        ws.send_json({"action": "GET_LIVE_CALLS_BY_ADMIN"})
        assert ws.receive_json() == {"livecalls": []}


def test_changes_keep_coming_through_after_redis_forgot_the_bridges_scripts(
    ws_base, admin, customer_a, buyer_a
) -> None:
    """Live changes go to Redis as stored scripts, many in one pipeline; a Redis that restarted
    (SCRIPT FLUSH here) no longer knows them, and the changes must not be lost for it."""

    async def across_a_flush() -> None:
        client = async_redis()
        store = LiveStore(client)
        await store.put(a_call(customer_a, buyer_a, "1900.1"))
        await client.script_flush()
        await asyncio.gather(*(store.put(a_call(customer_a, buyer_a, f"1900.{n}")) for n in (2, 3)))
        await store.remove("1900.1")
        await client.aclose()

    asyncio.run(across_a_flush())
    with Socket(ws_base, f"{admin.token}") as ws:
        ws.send_json({"action": "GET_LIVE_CALLS_BY_ADMIN"})
        assert sorted(c["linkedid"] for c in ws.receive_json()["livecalls"]) == ["1900.2", "1900.3"]


def test_a_customer_is_pushed_its_balance_when_money_moves(
    ws_base, client, admin, customer_a, buyer_a
) -> None:
    with Socket(ws_base, f"{customer_a.token}") as ws:
        ws.send_json({"action": "GET_BALANCE"})
        first = ws.receive_json()["balance"]
        assert first["user_id"] == customer_a.id
        body = {"user_id": customer_a.id, "amount": "12.5", "reference": "feed-1"}
        assert client.post("/api/topup/add", json=body, headers=admin.headers).status_code == 201
        # Any live change (here a call starting) reads the balance again; a call rated after it
        # ends is read the same way, or at the next poll.
        put_live(a_call(customer_a, buyer_a, "2000.1"))
        pushed = ws.receive_json()["balance"]
        assert Decimal(pushed["balance"]) == Decimal(first["balance"]) + Decimal("12.5")
        assert pushed["currency"] == first["currency"]
        put_live(a_call(customer_a, buyer_a, "2000.2"))  # no money moved: nothing is pushed
        with pytest.raises(TimeoutError):
            ws.conn.recv(timeout=1)


def _receive_until(ws: Socket, done) -> list[dict]:
    """Messages until one `done` accepts (each socket is pushed its scope's whole list per change,
    and a burst of changes may come as fewer messages)."""
    seen = [ws.receive_json()]
    while not done(seen[-1]):
        seen.append(ws.receive_json())
    return seen


def _ids(message: dict) -> list[str]:
    return [c["linkedid"] for c in message["livecalls"]]


def test_a_change_reaches_its_tenants_sockets_and_no_other(
    ws_base, admin, customer_a, customer_b, buyer_a
) -> None:
    """The process's sockets share one subscription (services.live_hub), which reads each change's
    scopes once: A's call reaches the admin, A's sockets and A's buyer; B's socket, with a call of
    its own live, is pushed nothing until B's call changes."""
    b_call = a_call(customer_b, buyer_a, "3000.1") | {"buyer_id": None}
    put_live(b_call)
    opened = {
        "admin": (admin, "GET_LIVE_CALLS_BY_ADMIN"),
        "a": (customer_a, "GET_LIVE_CALLS_BY_CUSTOMER"),
        "a count": (customer_a, "GET_CALLS_COUNT_FOR_COMPANY"),
        "buyer": (buyer_a, "GET_LIVE_CALLS_BY_CUSTOMER"),
        "b": (customer_b, "GET_LIVE_CALLS_BY_CUSTOMER"),
    }
    with contextlib.ExitStack() as stack:
        sockets = {
            who: stack.enter_context(Socket(ws_base, actor.token)) for who, (actor, _) in opened.items()
        }
        for who, (_, action) in opened.items():
            sockets[who].send_json({"action": action})
        assert {who: ws.receive_json() for who, ws in sockets.items()} == {
            "admin": {"livecalls": [shown(b_call) | {"customer_name": "Bob Customer", "buyer_name": None}]},
            "a": {"livecalls": []},
            "a count": {"callsCount": {"all_calls": 0}},
            "buyer": {"livecalls": []},
            "b": {"livecalls": [shown(b_call) | {"customer_name": "Bob Customer", "buyer_name": None}]},
        }
        a_live = a_call(customer_a, buyer_a, "3000.2")
        put_live(a_live)
        assert _ids(sockets["admin"].receive_json()) == ["3000.1", "3000.2"]
        assert sockets["a"].receive_json() == {"livecalls": [shown(a_live)]}
        assert sockets["a count"].receive_json() == {"callsCount": {"all_calls": 1}}
        assert sockets["buyer"].receive_json() == {"livecalls": [shown(a_live)]}
        put_live(b_call | {"state": LiveState.CONNECTED.value, "caller": "+447911000000"})
        # B's next message is its own call's change: A's was never pushed to it.
        assert [(c["linkedid"], c["caller"]) for c in sockets["b"].receive_json()["livecalls"]] == [
            ("3000.1", "+447911000000")
        ]


def test_a_burst_of_changes_of_two_tenants_keeps_each_to_its_own(
    ws_base, admin, customer_a, customer_b, buyer_a
) -> None:
    """Changes arriving together are read and sent together: each socket still gets only its scope."""
    with (
        Socket(ws_base, admin.token) as admin_ws,
        Socket(ws_base, customer_a.token) as a_ws,
        Socket(ws_base, customer_b.token) as b_ws,
    ):
        admin_ws.send_json({"action": "GET_LIVE_CALLS_BY_ADMIN"})
        a_ws.send_json({"action": "GET_LIVE_CALLS_BY_CUSTOMER"})
        b_ws.send_json({"action": "GET_LIVE_CALLS_BY_CUSTOMER"})
        for ws in (admin_ws, a_ws, b_ws):
            assert ws.receive_json() == {"livecalls": []}
        calls = [
            a_call(customer_a, buyer_a, f"3100.{n}")
            if n % 2
            else a_call(customer_b, buyer_a, f"3100.{n}") | {"buyer_id": None}
            for n in range(20)
        ]

        async def burst() -> None:
            client = async_redis()
            store = LiveStore(client)
            await asyncio.gather(*(store.put(call) for call in calls))
            await client.aclose()

        asyncio.run(burst())
        mine = {
            a_ws: {c["linkedid"] for c in calls if c["user_id"] == customer_a.id},
            b_ws: {c["linkedid"] for c in calls if c["user_id"] == customer_b.id},
            admin_ws: {c["linkedid"] for c in calls},
        }
        for ws, theirs in mine.items():
            pushed = _receive_until(ws, lambda m, theirs=theirs: set(_ids(m)) == theirs)
            assert all(set(_ids(m)) <= theirs for m in pushed)
