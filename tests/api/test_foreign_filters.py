"""An id in a list's filter that names no row the caller may see is a 404 naming the field, as an id
in a path is (docs/api.md), never a 200 with an empty list that tells nothing apart."""

import pytest

from core.models import Buyer, TrafficSource
from testkit.rows import campaign_with_target, get, save

OWN_LISTS = [
    "/api/campaign/details",
    "/api/number/details",
    "/api/invoice/details",
    "/api/block/details",
    "/api/ivr/details",
    "/api/target/details",
    "/api/user/wall",
    "/api/report",
    "/api/report/totals",
]


@pytest.mark.parametrize("path", OWN_LISTS)
def test_another_customers_user_id_is_a_404(client, customer_a, customer_b, path) -> None:
    r = client.get(path, params={"user_id": customer_b.id}, headers=customer_a.headers)
    assert r.status_code == 404, r.text
    assert r.json()["errors"] == {"user_id": [f"User {customer_b.id} does not exist."]}
    assert client.get(path, params={"user_id": customer_a.id}, headers=customer_a.headers).status_code == 200


def test_an_admins_filter_naming_no_row_is_a_404(client, admin, customer_a) -> None:
    for path, params in [
        ("/api/topup/details", {"user_id": 987654}),
        ("/api/campaign/details", {"user_id": 987654}),
        ("/api/number/details", {"country_id": 987654}),
        ("/api/number/details", {"vendor_id": 987654}),
        ("/api/trunk/details", {"vendor_id": 987654}),
        ("/api/impersonate/audit", {"admin_id": 987654}),
        ("/api/rate/details", {"tariff_id": 987654}),
    ]:
        r = client.get(path, params=params, headers=admin.headers)
        assert r.status_code == 404, (path, params, r.text)
    assert (
        client.get("/api/topup/details", params={"user_id": customer_a.id}, headers=admin.headers).status_code
        == 200
    )


def test_another_customers_buyer_or_campaign_is_a_404(client, customer_a, customer_b) -> None:
    campaign_id, target_id = campaign_with_target(customer_b.id)
    from core.models import Target

    buyer_id = get(Target, target_id).buyer_id
    assert get(Buyer, buyer_id).user_id == customer_b.id
    h = customer_a.headers
    for path, params, field in [
        ("/api/target/details", {"buyer_id": buyer_id}, "buyer_id"),
        ("/api/webhook/details", {"buyer_id": buyer_id}, "buyer_id"),
        ("/api/webhook/details", {"campaign_id": campaign_id}, "campaign_id"),
        ("/api/number/details", {"campaign_id": campaign_id}, "campaign_id"),
    ]:
        r = client.get(path, params=params, headers=h)
        assert r.status_code == 404 and field in r.json()["errors"], (path, r.text)
        own = client.get(path, params=params, headers=customer_b.headers)
        assert own.status_code == 200, own.text
    source_id = save(TrafficSource(user_id=customer_b.id, name="Radio")).id
    r = client.get("/api/report", params={"source_id": source_id}, headers=h)
    assert r.status_code == 404 and "source_id" in r.json()["errors"], r.text
    assert (
        client.get("/api/report", params={"source_id": source_id}, headers=customer_b.headers).status_code
        == 200
    )
    for path in ("/api/report", "/api/report/totals", "/api/report/groups"):
        for field, value in (("campaign_id", campaign_id), ("target_id", target_id), ("buyer_id", buyer_id)):
            params = {field: value, "by": "day"}
            r = client.get(path, params=params, headers=h)
            assert r.status_code == 404 and list(r.json()["errors"]) == [field], (path, r.text)
            assert client.get(path, params=params, headers=customer_b.headers).status_code == 200
    r = client.post("/api/buyer/buyer-report", json={"buyer_id": buyer_id}, headers=h)
    assert r.status_code == 404 and "buyer_id" in r.json()["errors"], r.text
