"""What pydantic would read loosely is refused: a day that is not yyyy-mm-dd (`toDate=0` is not
1 January 1970), and `true` where an id or a count belongs (it is not 1)."""

import pytest

from core.models import WalletTransaction
from testkit.actors import Actor
from testkit.rows import count


@pytest.mark.parametrize("path", ["/api/report", "/api/user/wall", "/api/number/ct"])
@pytest.mark.parametrize("day", ["0", "1", "20260101", "2026-1-1", "tomorrow"])
def test_a_day_is_only_yyyy_mm_dd(client, customer_a: Actor, path: str, day: str) -> None:
    r = client.get(path, params={"toDate": day}, headers=customer_a.headers)
    assert r.status_code == 422 and r.json()["errors"]["toDate"] == ["must be a date written yyyy-mm-dd"]
    assert client.get(path, params={"toDate": "2026-11-20"}, headers=customer_a.headers).status_code == 200


def test_a_day_in_a_body_is_only_yyyy_mm_dd(client, customer_a: Actor) -> None:
    r = client.post("/api/buyer/buyer-report", json={"fromDate": 0}, headers=customer_a.headers)
    assert r.status_code == 422 and "fromDate" in r.json()["errors"]


def test_true_is_no_id_or_count(client, admin: Actor, customer_a: Actor) -> None:
    r = client.post("/api/topup/add", json={"user_id": True, "amount": "5"}, headers=admin.headers)
    assert r.status_code == 422 and r.json()["errors"]["user_id"] == ["must be a number"]
    r = client.post(
        "/api/number/give", json={"user_id": customer_a.id, "number_ids": [True]}, headers=admin.headers
    )
    assert r.status_code == 422 and "number_ids" in r.json()["errors"]
    assert count(WalletTransaction) == 0
    # An id in a path is digits: anything else is no such address.
    assert client.get("/api/user/id/true", headers=admin.headers).status_code == 404


def test_a_flag_is_only_true_or_false(client, customer_a: Actor) -> None:
    r = client.post("/api/campaign/add", json={"name": "Flags", "record": 1}, headers=customer_a.headers)
    assert r.status_code == 422 and r.json()["errors"]["record"] == ["must be true or false"]
    r = client.post("/api/campaign/add", json={"name": "Flags", "record": True}, headers=customer_a.headers)
    assert r.status_code == 201 and r.json()["data"]["record"] is True
