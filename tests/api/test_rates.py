"""Rate-card entries (spec §7 Rates): validation, money as strings, history protection, who sees what."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from core.infra.db import session_scope
from core.models import Call, Country, Rate, StatusChange, Tariff, User


@pytest.fixture
def tariff_id() -> int:
    with session_scope() as s:
        tariff = Tariff(name="Standard", currency="USD")
        s.add(tariff)
        s.flush()
        return tariff.id


def _body(tariff_id: int, **fields) -> dict:
    return {"tariff_id": tariff_id, "prefix": "4420", "rate_per_minute": "0.0125", **fields}


def _add(client, admin, tariff_id: int, **fields) -> dict:
    r = client.post("/api/rate/add", json=_body(tariff_id, **fields), headers=admin.headers)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def _count() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(Rate))


def _country_id(iso2: str) -> int:
    with session_scope() as s:
        return s.scalar(select(Country.id).where(Country.iso2 == iso2))


def _call_at(rate_id: int) -> None:
    with session_scope() as s:
        s.add(
            Call(
                linkedid=f"call-{rate_id}",
                did="+442071838750",
                caller="+15551234567",
                started_at=datetime.now(UTC),
                disposition="ANSWERED",
                rate_id=rate_id,
            )
        )


def test_add_applies_defaults_infers_the_country_and_answers_money_as_strings(
    client, admin, tariff_id
) -> None:
    before = datetime.now(UTC)
    rate = _add(client, admin, tariff_id, prefix="+4420", connection_fee=0.05)
    assert rate["prefix"] == "4420" and rate["country"] == "GB" and rate["country_id"] == _country_id("GB")
    assert (rate["rate_per_minute"], rate["connection_fee"]) == ("0.0125", "0.0500")
    assert (rate["initial_increment"], rate["billing_increment"], rate["min_duration"]) == (60, 60, 0)
    assert rate["status"] == "active" and datetime.fromisoformat(rate["effective_from"]) >= before

    canada = _add(client, admin, tariff_id, prefix="1416", rate_per_minute="0", initial_increment=30)
    assert canada["country"] == "CA" and canada["rate_per_minute"] == "0.0000"
    international = _add(client, admin, tariff_id, prefix="800")
    assert international["country"] is None

    with session_scope() as s:
        stored = s.get(Rate, rate["id"])
        assert stored.rate_per_minute == Decimal("0.0125") and stored.connection_fee == Decimal("0.05")


def test_country_by_id_or_iso2_and_naive_times_are_utc(client, admin, tariff_id) -> None:
    fr = _country_id("FR")
    by_code = _add(client, admin, tariff_id, prefix="33", country="fr", effective_from="2026-01-01T00:00:00")
    assert by_code["country_id"] == fr and by_code["effective_from"] == "2026-01-01T00:00:00Z"
    by_id = _add(
        client, admin, tariff_id, prefix="33", country_id=fr, effective_from="2026-02-01T01:00:00+01:00"
    )
    assert by_id["country"] == "FR" and by_id["effective_from"] == "2026-02-01T00:00:00Z"
    both = _add(client, admin, tariff_id, prefix="331", country="FR", country_id=fr)
    assert both["country"] == "FR"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"rate_per_minute": "-0.01"}, "rate_per_minute", "rate_per_minute can't be negative."),
        ({"rate_per_minute": -1}, "rate_per_minute", "rate_per_minute can't be negative."),
        ({"connection_fee": "-0.5"}, "connection_fee", "connection_fee can't be negative."),
        ({"rate_per_minute": "abc"}, "rate_per_minute", "rate_per_minute must be a number."),
        ({"rate_per_minute": "NaN"}, "rate_per_minute", "rate_per_minute must be a number."),
        ({"rate_per_minute": True}, "rate_per_minute", "rate_per_minute must be a number."),
        (
            {"rate_per_minute": "0.00001"},
            "rate_per_minute",
            "rate_per_minute has more than 4 decimal places.",
        ),
        ({"rate_per_minute": "1e20"}, "rate_per_minute", "rate_per_minute must be at most 100,000."),
        ({"rate_per_minute": "100000.0001"}, "rate_per_minute", "rate_per_minute must be at most 100,000."),
        ({"connection_fee": "100000.0001"}, "connection_fee", "connection_fee must be at most 100,000."),
        ({"initial_increment": 0}, "initial_increment", "initial_increment must be greater than 0."),
        ({"billing_increment": -6}, "billing_increment", "billing_increment must be greater than 0."),
        ({"billing_increment": 7200}, "billing_increment", "billing_increment must be at most 3600 seconds."),
        ({"initial_increment": "sixty"}, "initial_increment", "initial_increment must be a whole number."),
        ({"min_duration": -1}, "min_duration", "min_duration can't be negative."),
        ({"prefix": "44a"}, "prefix", "prefix must be digits only (a leading + is allowed)."),
        ({"prefix": ""}, "prefix", "prefix must be digits only (a leading + is allowed)."),
        ({"prefix": "0044"}, "prefix", None),
        ({"prefix": "1234567890123456"}, "prefix", "prefix has more than 15 digits."),
        ({"effective_from": "yesterday"}, "effective_from", None),
        ({"tariff_id": 424242}, "tariff_id", "Tariff 424242 does not exist."),
        ({"tariff_id": "one"}, "tariff_id", "tariff_id must be a whole number."),
        ({"country": "XX"}, "country", "'XX' is not an ISO 3166 alpha-2 country code."),
        ({"country": "GBR"}, "country", None),
        ({"country_id": 999999}, "country_id", "Country 999999 does not exist."),
        ({"country": "GB", "country_id": 1}, "country", "country and country_id name different countries."),
        ({"status": "active"}, "status", None),
    ],
)
def test_add_refuses_bad_input_naming_the_field_and_writes_nothing(
    client, admin, tariff_id, fields, field, message
) -> None:
    if fields.get("country_id") == 1:
        fields = {**fields, "country_id": _country_id("FR")}
    r = client.post("/api/rate/add", json={**_body(tariff_id), **fields}, headers=admin.headers)
    # A well-formed id that names no row is a 404 (docs/api.md); every other refusal a 422.
    assert r.status_code == (404 if message and "does not exist" in message else 422), r.text
    assert field in r.json()["errors"]
    if message:
        assert r.json()["message"] == message
    assert _count() == 0


def test_missing_rate_or_body_is_refused(client, admin, tariff_id) -> None:
    r = client.post("/api/rate/add", json={"tariff_id": tariff_id, "prefix": "44"}, headers=admin.headers)
    assert r.status_code == 422 and r.json()["errors"] == {"rate_per_minute": ["is required"]}
    assert client.post("/api/rate/add", headers=admin.headers).status_code == 422
    malformed = {**admin.headers, "Content-Type": "application/json"}
    assert client.post("/api/rate/add", content="{", headers=malformed).status_code == 400
    assert _count() == 0


def test_same_prefix_and_start_is_a_conflict(client, admin, tariff_id) -> None:
    start = "2026-01-01T00:00:00Z"
    _add(client, admin, tariff_id, effective_from=start)
    r = client.post("/api/rate/add", json=_body(tariff_id, effective_from=start), headers=admin.headers)
    assert r.status_code == 409 and "effective_from" in r.json()["errors"]
    # A later start for the same prefix is the normal way to change a price.
    _add(client, admin, tariff_id, effective_from="2026-02-01T00:00:00Z")
    assert _count() == 2


def test_lists_filter_and_page(client, admin, tariff_id) -> None:
    with session_scope() as s:
        other = Tariff(name="Other", currency="EUR")
        s.add(other)
        s.flush()
        other_id = other.id
    for prefix in ("4420", "4477", "33", "49"):
        _add(client, admin, tariff_id, prefix=prefix)
    _add(client, admin, other_id, prefix="4420")

    everything = client.get("/api/rate/details", headers=admin.headers).json()["data"]
    assert everything["total"] == 5
    only = client.get(f"/api/rate/details?tariff_id={tariff_id}", headers=admin.headers).json()["data"]
    assert [r["prefix"] for r in only["data"]] == ["33", "4420", "4477", "49"]
    france = client.get("/api/rate/details?params=france", headers=admin.headers).json()["data"]
    assert [r["prefix"] for r in france["data"]] == ["33"]
    by = client.get(f"/api/rate/by/{tariff_id}?page=2&perpage=3", headers=admin.headers).json()["data"]
    assert (by["total"], by["last_page"], by["from"], [r["prefix"] for r in by["data"]]) == (4, 2, 4, ["49"])
    assert client.get("/api/rate/by/424242", headers=admin.headers).status_code == 404
    assert client.get("/api/rate/by/x", headers=admin.headers).status_code == 404
    assert client.get("/api/rate/details?tariff_id=abc", headers=admin.headers).status_code == 422


def test_customer_reads_only_its_own_tariffs_rates(
    client, admin, customer_a, customer_b, buyer_a, tariff_id
) -> None:
    with session_scope() as s:
        other = Tariff(name="Other", currency="EUR")
        s.add(other)
        s.flush()
        other_id = other.id
        s.get(User, customer_a.id).tariff_id = tariff_id
    _add(client, admin, tariff_id, prefix="44")
    _add(client, admin, other_id, prefix="33")

    mine = client.get("/api/rate/details", headers=customer_a.headers).json()["data"]
    assert [r["prefix"] for r in mine["data"]] == ["44"]
    sneaky = client.get(f"/api/rate/details?tariff_id={other_id}", headers=customer_a.headers)
    assert sneaky.status_code == 404  # another tariff is none the customer may read
    assert client.get(f"/api/rate/by/{tariff_id}", headers=customer_a.headers).json()["data"]["total"] == 1
    assert client.get(f"/api/rate/by/{other_id}", headers=customer_a.headers).status_code == 404
    assert client.get("/api/rate/details", headers=customer_b.headers).json()["data"]["total"] == 0
    assert client.get(f"/api/rate/by/{tariff_id}", headers=customer_b.headers).status_code == 404
    for path in ("/api/rate/details", f"/api/rate/by/{tariff_id}"):
        assert client.get(path, headers=buyer_a.headers).status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/rate/add", "new"),
        ("put", "/api/rate/{id}", {"rate_per_minute": "0"}),
        ("patch", "/api/rate/status/{id}", {"status": "inactive"}),
        ("delete", "/api/rate/{id}", None),
    ],
)
def test_writes_are_admin_only(client, admin, customer_a, buyer_a, tariff_id, method, path, body) -> None:
    rate = _add(client, admin, tariff_id)
    with session_scope() as s:
        s.get(User, customer_a.id).tariff_id = tariff_id
    payload = _body(tariff_id, prefix="33") if body == "new" else body
    for actor in (customer_a, buyer_a):
        r = client.request(method.upper(), path.format(id=rate["id"]), json=payload, headers=actor.headers)
        assert r.status_code == 403, r.text
    with session_scope() as s:
        assert [(r.prefix, r.rate_per_minute, r.status) for r in s.scalars(select(Rate))] == [
            ("4420", Decimal("0.0125"), "active")
        ]


def test_update_changes_fields_and_refollows_the_country(client, admin, tariff_id) -> None:
    rate = _add(client, admin, tariff_id)
    r = client.put(
        f"/api/rate/{rate['id']}",
        json={"rate_per_minute": "0.02", "initial_increment": 30, "billing_increment": 6},
        headers=admin.headers,
    )
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert (data["rate_per_minute"], data["initial_increment"], data["billing_increment"]) == (
        "0.0200",
        30,
        6,
    )
    moved = client.put(f"/api/rate/{rate['id']}", json={"prefix": "+3312"}, headers=admin.headers).json()[
        "data"
    ]
    assert (moved["prefix"], moved["country"]) == ("3312", "FR")
    cleared = client.put(f"/api/rate/{rate['id']}", json={"country": None}, headers=admin.headers).json()[
        "data"
    ]
    assert cleared["country"] is None and cleared["country_id"] is None


def test_update_refuses_bad_input_and_keeps_the_row(client, admin, tariff_id) -> None:
    rate = _add(client, admin, tariff_id, effective_from="2026-01-01T00:00:00Z")
    later = _add(client, admin, tariff_id, effective_from="2026-06-01T00:00:00Z")
    for body, status in (
        ({"rate_per_minute": None}, 422),
        ({"prefix": None}, 422),
        ({"billing_increment": 0}, 422),
        ({"connection_fee": "-1"}, 422),
        ({"tariff_id": 424242}, 404),
        ({"colour": "red"}, 422),
        ({"effective_from": "2026-06-01T00:00:00Z"}, 409),
    ):
        r = client.put(f"/api/rate/{rate['id']}", json=body, headers=admin.headers)
        assert r.status_code == status, (body, r.text)
    assert (
        client.put("/api/rate/424242", json={"rate_per_minute": "1"}, headers=admin.headers).status_code
        == 404
    )
    with session_scope() as s:
        row = s.get(Rate, rate["id"])
        assert (row.prefix, row.rate_per_minute, row.billing_increment, row.effective_from) == (
            "4420",
            Decimal("0.0125"),
            60,
            datetime(2026, 1, 1, tzinfo=UTC),
        )
        assert s.get(Rate, later["id"]) is not None


def test_a_rate_calls_used_keeps_its_price_and_cannot_be_deleted(client, admin, tariff_id) -> None:
    rate = _add(client, admin, tariff_id)
    _call_at(rate["id"])
    for body in ({"rate_per_minute": "0.5"}, {"prefix": "33"}, {"effective_from": "2030-01-01T00:00:00Z"}):
        r = client.put(f"/api/rate/{rate['id']}", json=body, headers=admin.headers)
        assert r.status_code == 409 and "add a new rate" in r.json()["message"]
    # Sending the same values, or only the country, is still fine.
    same = client.put(
        f"/api/rate/{rate['id']}", json={"rate_per_minute": "0.0125", "country": "GB"}, headers=admin.headers
    )
    assert same.status_code == 200
    r = client.delete(f"/api/rate/{rate['id']}", headers=admin.headers)
    assert r.status_code == 409 and "deactivate it instead" in r.json()["message"]
    off = client.patch(f"/api/rate/status/{rate['id']}", json={"status": "inactive"}, headers=admin.headers)
    assert off.status_code == 200 and off.json()["data"]["status"] == "inactive"
    with session_scope() as s:
        assert s.get(Rate, rate["id"]).rate_per_minute == Decimal("0.0125")


def test_status_is_validated_and_recorded_and_delete_removes(client, admin, tariff_id) -> None:
    rate = _add(client, admin, tariff_id)
    bad = client.patch(f"/api/rate/status/{rate['id']}", json={"status": "paused"}, headers=admin.headers)
    assert bad.status_code == 422
    r = client.patch(f"/api/rate/status/{rate['id']}", json={"status": "inactive"}, headers=admin.headers)
    assert r.json()["data"]["status"] == "inactive" and r.json()["data"]["rate_per_minute"] == "0.0125"
    with session_scope() as s:
        (change,) = s.scalars(select(StatusChange))
        assert (change.entity, change.entity_id, change.new_status, change.changed_by) == (
            "rate",
            rate["id"],
            "inactive",
            admin.id,
        )
    assert client.delete(f"/api/rate/{rate['id']}", headers=admin.headers).status_code == 200
    assert client.delete(f"/api/rate/{rate['id']}", headers=admin.headers).status_code == 404
    assert _count() == 0
