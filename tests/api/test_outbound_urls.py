"""Customers' URLs naming an internal address (core.infra.outbound, docs/security.md) are refused when
saved: a 422 naming the field and the address, nothing changed. The tests allow loopback only
(testkit.processes.RECEIVERS_ENV), so every other internal address is refused here as in production."""

import pytest

from core.infra.db import session_scope
from core.models import Target, Webhook
from testkit.rows import count
from tests.api.test_buyers_targets import make_buyer, make_target
from tests.api.test_campaigns import make_campaign

PUBLIC = "https://93.184.215.14/hook"
INTERNAL = [
    ("http://10.0.0.5:6379/", "10.0.0.5 is a private address"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
    ("http://[::1]:8000/api/user/list", "::1 is a loopback address"),  # IPv6 loopback: not allowed
    ("http://[::ffff:a9fe:a9fe]/", "a link-local address"),
    ("http://0xa9fea9fe/latest/meta-data/", "0xa9fea9fe resolves to 169.254.169.254, a link-local"),
]


@pytest.mark.parametrize(("url", "said"), INTERNAL)
def test_a_webhook_to_an_internal_address_is_refused_and_nothing_changes(
    client, customer_a, url, said
) -> None:
    campaign = make_campaign(client, customer_a)["id"]
    body = {"campaign_id": campaign, "url": url + "?c={caller}", "events": ["completed"]}
    r = client.post("/api/webhook/add", json=body, headers=customer_a.headers)
    assert r.status_code == 422, r.text
    assert list(r.json()["errors"]) == ["url"] and said in r.json()["errors"]["url"][0], r.text
    assert count(Webhook) == 0
    body["url"] = PUBLIC
    hook = client.post("/api/webhook/add", json=body, headers=customer_a.headers).json()["data"]
    r = client.put(f"/api/webhook/{hook['id']}", json={"url": url}, headers=customer_a.headers)
    assert r.status_code == 422 and said in r.json()["errors"]["url"][0], r.text
    with session_scope() as s:
        assert s.get(Webhook, hook["id"]).url == PUBLIC


@pytest.mark.parametrize(("url", "said"), INTERNAL)
def test_a_bidding_url_at_an_internal_address_is_refused_and_nothing_changes(
    client, customer_a, url, said
) -> None:
    buyer = make_buyer(client, customer_a)
    body = {"buyer_id": buyer["id"], "name": "Bidder", "destination": "+14155550100", "ping_url": url}
    r = client.post("/api/target/add", json=body, headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["ping_url"], r.text
    assert said in r.json()["errors"]["ping_url"][0]
    assert count(Target) == 0
    t = make_target(client, customer_a, buyer["id"], ping_url=PUBLIC)
    r = client.put(f"/api/target/{t['id']}", json={"post_url": url}, headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["post_url"], r.text
    with session_scope() as s:
        assert s.get(Target, t["id"]).post_url is None


def test_the_allowed_loopback_and_public_addresses_are_saved(client, customer_a) -> None:
    campaign = make_campaign(client, customer_a)["id"]
    for url in (PUBLIC, "http://127.0.0.1:8080/hook"):
        body = {"campaign_id": campaign, "url": url, "events": ["completed"]}
        assert client.post("/api/webhook/add", json=body, headers=customer_a.headers).status_code == 201


@pytest.mark.parametrize(
    "url",
    ["https://{caller}/in", "https://{did}.hooks.example/in", "http://169.254.169.254./latest/meta-data/"],
)
def test_a_webhook_host_must_be_written_out(client, customer_a, url) -> None:
    campaign = make_campaign(client, customer_a)["id"]
    body = {"campaign_id": campaign, "url": url, "events": ["completed"]}
    r = client.post("/api/webhook/add", json=body, headers=customer_a.headers)
    assert r.status_code == 422 and list(r.json()["errors"]) == ["url"], r.text
    assert count(Webhook) == 0
