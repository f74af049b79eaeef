"""The admin's vendors: each path's happy path, each role's access, bad input, deletes that would orphan."""

import pytest
from sqlmodel import func, select

from core.infra.db import session_scope
from core.models import Number, StatusChange, Trunk, Vendor

ACME = {
    "name": "Acme Telecom",
    "contact_name": "Ann Acme",
    "email": "Noc@Acme.example",
    "phone": "+442079460713",
}


def _vendor(client, admin, **body) -> dict:
    r = client.post("/api/vendor/add", json={**ACME, **body}, headers=admin.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _vendor_count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Vendor)) or 0


def test_admin_creates_lists_updates_and_deletes_a_vendor(client, admin) -> None:
    created = _vendor(client, admin)
    assert created["email"] == "noc@acme.example" and created["status"] == "active"
    vid = created["id"]
    _vendor(client, admin, name="Beta Carrier", contact_name=None, email=None, phone=None)

    page = client.get("/api/vendor/details?page=1&perpage=10&params=acme", headers=admin.headers).json()
    assert page["data"]["total"] == 1 and page["data"]["data"][0]["id"] == vid
    everyone = client.get("/api/vendor/details", headers=admin.headers).json()["data"]
    assert everyone["total"] == 2 and everyone["data"][0]["name"] == "Beta Carrier"  # newest first

    r = client.put(
        f"/api/vendor/{vid}", json={"name": "Acme Telecom Ltd", "phone": None}, headers=admin.headers
    )
    assert r.status_code == 200 and r.json()["data"]["name"] == "Acme Telecom Ltd"
    assert r.json()["data"]["phone"] is None and r.json()["data"]["contact_name"] == "Ann Acme"

    assert client.delete(f"/api/vendor/{vid}", headers=admin.headers).status_code == 200
    assert client.delete(f"/api/vendor/{vid}", headers=admin.headers).status_code == 404
    assert _vendor_count() == 1


def test_vendor_on_lists_active_vendors_by_name(client, admin) -> None:
    zeta = _vendor(client, admin, name="Zeta")
    _vendor(client, admin, name="Alpha")
    off = _vendor(client, admin, name="Off Net")
    client.patch(f"/api/vendor/status/{off['id']}", json={"status": "inactive"}, headers=admin.headers)
    rows = client.get("/api/vendor/on", headers=admin.headers).json()["data"]
    assert [r["name"] for r in rows] == ["Alpha", "Zeta"] and set(rows[1]) == {"id", "name"}
    assert rows[1]["id"] == zeta["id"]


def test_status_change_is_validated_and_recorded(client, admin) -> None:
    vid = _vendor(client, admin)["id"]
    bad = client.patch(f"/api/vendor/status/{vid}", json={"status": "suspended"}, headers=admin.headers)
    assert bad.status_code == 422 and "status" in bad.json()["errors"]
    r = client.patch(f"/api/vendor/status/{vid}", json={"status": "inactive"}, headers=admin.headers)
    assert r.status_code == 200 and r.json()["data"]["status"] == "inactive"
    with session_scope() as s:
        (row,) = s.exec(select(StatusChange)).all()
        assert (row.entity, row.entity_id, row.old_status, row.new_status, row.changed_by) == (
            "vendor",
            vid,
            "active",
            "inactive",
            admin.id,
        )
    assert (
        client.patch("/api/vendor/status/999", json={"status": "active"}, headers=admin.headers).status_code
        == 404
    )


def test_names_are_unique_case_insensitively(client, admin) -> None:
    _vendor(client, admin)
    other = _vendor(client, admin, name="Other")
    r = client.post("/api/vendor/add", json={**ACME, "name": "ACME telecom"}, headers=admin.headers)
    assert r.status_code == 409 and r.json()["errors"] == {
        "name": ["A vendor with this name already exists."]
    }
    clash = client.put(f"/api/vendor/{other['id']}", json={"name": "acme TELECOM"}, headers=admin.headers)
    assert clash.status_code == 409
    # Renaming a vendor to its own name (another case) is no clash.
    same = client.put(f"/api/vendor/{other['id']}", json={"name": "OTHER"}, headers=admin.headers)
    assert same.status_code == 200
    assert _vendor_count() == 2


@pytest.mark.parametrize(
    "body",
    [{}, {"name": ""}, {"name": "x" * 121}, {**ACME, "email": "not-an-email"}, {**ACME, "status": "active"}],
)
def test_add_rejects_bad_input(client, admin, body) -> None:
    r = client.post("/api/vendor/add", json=body, headers=admin.headers)
    assert r.status_code == 422, r.text
    assert _vendor_count() == 0


def test_update_rejects_bad_input_and_changes_nothing(client, admin) -> None:
    vid = _vendor(client, admin)["id"]
    for body in ({"name": None}, {"name": " "}, {"email": "nope"}, {"colour": "red"}):
        r = client.put(f"/api/vendor/{vid}", json=body, headers=admin.headers)
        assert r.status_code == 422, (body, r.text)
    assert client.put("/api/vendor/abc", json={"name": "X"}, headers=admin.headers).status_code == 404
    assert client.put("/api/vendor/424242", json={"name": "X"}, headers=admin.headers).status_code == 404
    with session_scope() as s:
        assert s.get(Vendor, vid).name == "Acme Telecom"


def test_delete_is_refused_while_numbers_or_trunks_reference_the_vendor(client, admin) -> None:
    with_number = _vendor(client, admin, name="Numbers Inc")["id"]
    with_trunk = _vendor(client, admin, name="Trunks Inc")["id"]
    with session_scope() as s:
        s.add(Number(number="+442071838750", vendor_id=with_number))
        s.add(Trunk(name="in-1", direction="inbound", host="sip.example.com", vendor_id=with_trunk))
    r = client.delete(f"/api/vendor/{with_number}", headers=admin.headers)
    assert r.status_code == 409 and "1 number(s) and 0 trunk(s)" in r.json()["message"]
    r = client.delete(f"/api/vendor/{with_trunk}", headers=admin.headers)
    assert r.status_code == 409 and "0 number(s) and 1 trunk(s)" in r.json()["message"]
    assert _vendor_count() == 2


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/vendor/details", None),
        ("get", "/api/vendor/on", None),
        ("post", "/api/vendor/add", ACME),
        ("put", "/api/vendor/{v}", {"name": "Hacked"}),
        ("patch", "/api/vendor/status/{v}", {"status": "inactive"}),
        ("delete", "/api/vendor/{v}", None),
    ],
)
def test_vendor_paths_are_admin_only(client, admin, customer_a, buyer_a, method, path, body) -> None:
    vid = _vendor(client, admin)["id"]
    for actor in (customer_a, buyer_a):
        kwargs = {"headers": actor.headers} | ({"json": body} if body is not None else {})
        r = client.request(method.upper(), path.format(v=vid), **kwargs)
        assert r.status_code == 403 and r.json()["message"] == "Only an admin can do this.", r.text
    assert client.request(method.upper(), path.format(v=vid)).status_code == 401
    with session_scope() as s:
        vendor = s.get(Vendor, vid)
        assert (vendor.name, vendor.status) == ("Acme Telecom", "active")
        assert s.scalar(select(func.count()).select_from(Vendor)) == 1


def test_a_vendors_numbers_and_trunks_are_listed_by_vendor_id(client, admin) -> None:
    mine = _vendor(client, admin, name="Numbers Inc")["id"]
    other = _vendor(client, admin, name="Other Inc")["id"]
    with session_scope() as s:
        s.add(Number(number="+442071838750", vendor_id=mine))
        s.add(Number(number="+442071838751", vendor_id=other))
        s.add(Trunk(name="in-mine", direction="inbound", host="sip.example.com", vendor_id=mine))
        s.add(Trunk(name="in-other", direction="inbound", host="sip.example.com", vendor_id=other))
    numbers = client.get(f"/api/number/details?vendor_id={mine}", headers=admin.headers).json()["data"]
    assert [n["number"] for n in numbers["data"]] == ["+442071838750"] and numbers["total"] == 1
    trunks = client.get(f"/api/trunk/details?vendor_id={mine}", headers=admin.headers).json()["data"]
    assert [t["name"] for t in trunks["data"]] == ["in-mine"]
    for path in ("number", "trunk"):
        assert client.get(f"/api/{path}/details?vendor_id=0", headers=admin.headers).status_code == 422
