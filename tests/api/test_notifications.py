"""The header bell: own notifications only, paged as the spec reads them, unread count, mark read."""

from core.infra.db import session_scope
from core.models import Notification


def _notify(user_id: int, count: int) -> None:
    with session_scope() as s:
        for i in range(count):
            s.add(Notification(user_id=user_id, text=f"Notice {i}"))


def test_list_pages_like_the_spec_reads_them(client, customer_a, customer_b) -> None:
    _notify(customer_a.id, 12)
    _notify(customer_b.id, 3)
    body = client.get("/api/notification/notification?page=1&perpage=10", headers=customer_a.headers).json()
    assert body["data"]["total"] == 12 and body["data"]["to"] == 10
    assert len(body["data"]["data"]) == 10 and body["data"]["data"][0]["text"].startswith("Notice")
    second = client.get("/api/notification/notification?page=2&perpage=10", headers=customer_a.headers).json()
    assert second["data"]["to"] == 12 and len(second["data"]["data"]) == 2


def test_unread_count_and_mark_read_are_per_user(client, customer_a, customer_b, buyer_a) -> None:
    _notify(customer_a.id, 3)
    _notify(customer_b.id, 1)
    count = client.get("/api/notification/unread-count", headers=customer_a.headers).json()["data"]
    assert count == {"unread_notification_count": 3}
    first_id = client.get("/api/notification/notification", headers=customer_a.headers).json()["data"][
        "data"
    ][0]["id"]
    assert client.patch(f"/api/notification/read/{first_id}", headers=customer_b.headers).status_code == 404
    assert client.patch(f"/api/notification/read/{first_id}", headers=buyer_a.headers).status_code == 404
    r = client.patch(f"/api/notification/read/{first_id}", headers=customer_a.headers)
    assert r.status_code == 200 and r.json()["data"]["read_at"]
    assert (
        client.get("/api/notification/unread-count", headers=customer_a.headers).json()["data"][
            "unread_notification_count"
        ]
        == 2
    )
    client.post("/api/notification/read-all", headers=customer_a.headers)
    assert (
        client.get("/api/notification/unread-count", headers=customer_a.headers).json()["data"][
            "unread_notification_count"
        ]
        == 0
    )
    assert (
        client.get("/api/notification/unread-count", headers=customer_b.headers).json()["data"][
            "unread_notification_count"
        ]
        == 1
    )
