"""Control characters (a bell, an escape sequence, a newline, NUL) are refused in every name and text
a person types: a 422 naming the field and the character, nothing saved."""

import pytest

from core.models import BlockEntry, Buyer, Trunk, User
from testkit.rows import count


@pytest.mark.parametrize("bad", ["Ann\x07", "\x1b[31mRed", "Two\nLines", "Nul\x00", "C1\x85"])
def test_a_name_with_a_control_character_is_refused(client, admin, customer_a, bad) -> None:
    users = count(User)
    r = client.post(
        "/api/user/add",
        json={"name": bad, "email": "ctl@example.com", "password": "goodpass1"},
        headers=admin.headers,
    )
    assert r.status_code == 422 and list(r.json()["errors"]) == ["name"], r.text
    assert "control characters" in r.json()["errors"]["name"][0]
    assert count(User) == users
    r = client.post("/api/buyer/add", json={"name": bad}, headers=customer_a.headers)
    assert r.status_code == 422 and "name" in r.json()["errors"], r.text
    assert count(Buyer) == 0


def test_other_texts_refuse_them_too(client, admin, customer_a) -> None:
    trunk = {"name": "Out\r1", "direction": "outbound", "host": "203.0.113.5"}
    r = client.post("/api/trunk/add", json=trunk, headers=admin.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["name"], r.text
    assert count(Trunk) == 0
    block = {"pattern": "+14155550123", "match_type": "exact", "reason": "spam\x1b"}
    r = client.post("/api/block/add", json=block, headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["reason"], r.text
    assert count(BlockEntry) == 0
    r = client.put("/api/profile", json={"company": "Acme\x0b"}, headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["company"], r.text
