"""Every amount a person enters has an upper bound (core.values.money): one past it is a clear 422 that
changes nothing, on the API and in the rate-card import alike; the bound itself is accepted."""

from decimal import Decimal

from sqlalchemy import func, select

from core.infra.db import session_scope
from core.models import Number, Rate, Target, Tariff, User
from tests.api.test_buyers_targets import make_buyer, make_target
from tests.api.test_rate_import import _csv, _upload


def _tariff() -> int:
    with session_scope() as s:
        tariff = Tariff(name="Standard", currency="USD")
        s.add(tariff)
        s.flush()
        return tariff.id or 0


def _rates() -> list[tuple[str, Decimal, Decimal]]:
    with session_scope() as s:
        return [tuple(r) for r in s.execute(select(Rate.prefix, Rate.rate_per_minute, Rate.connection_fee))]


def test_rates_and_connection_fees_stop_at_their_bounds(client, admin) -> None:
    tariff_id = _tariff()
    body = {"tariff_id": tariff_id, "prefix": "44", "rate_per_minute": "100000", "connection_fee": "100000"}
    r = client.post("/api/rate/add", json=body, headers=admin.headers)
    assert r.status_code == 201, r.text
    rate_id = r.json()["data"]["id"]
    for field in ("rate_per_minute", "connection_fee"):
        too_much = client.post(
            "/api/rate/add", json={**body, "prefix": "33", field: "100000.0001"}, headers=admin.headers
        )
        assert too_much.status_code == 422
        assert too_much.json()["errors"] == {field: ["must be at most 100,000"]}
        changed = client.put(
            f"/api/rate/{rate_id}", json={field: "99999999999999.9999"}, headers=admin.headers
        )
        assert changed.status_code == 422 and changed.json()["message"] == f"{field} must be at most 100,000."
    assert _rates() == [("44", Decimal("100000.0000"), Decimal("100000.0000"))]


def test_a_rate_card_line_past_a_bound_refuses_the_file(client, admin) -> None:
    tariff_id = _tariff()
    r = _upload(
        client, admin, tariff_id, _csv("44,,0.05,,,,,", "33,,99999999999999.9999,,,,,", "49,,0.1,5e6,,,,")
    )
    assert r.status_code == 422
    assert r.json()["errors"] == {
        "line 3": ["rate must be at most 100,000"],
        "line 4": ["connection_fee must be at most 100,000"],
    }
    assert _rates() == []


def test_number_fees_payouts_and_top_ups_stop_at_their_bounds(client, admin, customer_a) -> None:
    number = {"number": "+442071838750", "setup_fee": "1000000.0001"}
    r = client.post("/api/number/add", json=number, headers=admin.headers)
    assert r.status_code == 422 and r.json()["message"] == "setup_fee must be at most 1,000,000."
    with session_scope() as s:
        assert s.scalar(select(func.count()).select_from(Number)) == 0

    buyer = make_buyer(client, customer_a)
    target = make_target(client, customer_a, buyer["id"], payout="1000000")
    assert target["payout"] == "1000000.0000"
    r = client.put(f"/api/target/{target['id']}", json={"payout": "1000000.0001"}, headers=customer_a.headers)
    assert r.status_code == 422 and r.json()["message"] == "payout must be at most 1,000,000."
    with session_scope() as s:
        assert s.scalar(select(Target.payout).where(Target.id == target["id"])) == Decimal("1000000")

    r = client.post(
        "/api/topup/add", json={"user_id": customer_a.id, "amount": "1000000.0001"}, headers=admin.headers
    )
    assert r.status_code == 422 and "amount" in r.json()["errors"]
    with session_scope() as s:
        assert s.scalar(select(User.balance).where(User.id == customer_a.id)) == Decimal("0")
