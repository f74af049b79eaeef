"""Website number swapping through the API (portal_api/routers/dni.py): the customer's script and
origins, a pool's settings, and the public endpoints: numbers only for the customer's origins,
rate limited per address and per key, nothing for bots."""

import gzip
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from core.infra.settings import get_settings
from core.models import Number
from portal_api.services.dni_public import SCRIPT
from testkit.actors import Actor
from testkit.rows import get, save

SHOP = "https://shop.example"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
LANDING = f"{SHOP}/?utm_source=google&utm_campaign=spring&gclid=TEST123"


def _pool(client: TestClient, owner: Actor, numbers: int = 2) -> tuple[str, int, list[str]]:
    """Owner's campaign with a pool of `numbers` numbers, its site SHOP: the script key."""
    campaign = client.post("/api/campaign/add", json={"name": "Website"}, headers=owner.headers).json()[
        "data"
    ]
    dids = [f"+4420718387{n:02d}" for n in range(numbers)]
    ids = [save(Number(number=d, user_id=owner.id, campaign_id=campaign["id"])).id for d in dids]
    body = {"enabled": True, "timeout_minutes": 20, "page_number": "+44 20 7183 8799", "number_ids": ids}
    answer = client.put(f"/api/dni/pool/{campaign['id']}", json=body, headers=owner.headers)
    assert answer.status_code == 200, answer.text
    site = client.put(f"/api/dni/site/{owner.id}", json={"origins": [SHOP]}, headers=owner.headers)
    return site.json()["data"]["script_key"], campaign["id"], dids


def _assign(
    client: TestClient, key: str, pool: int, visitor: str, origin: str = SHOP, agent: str = BROWSER
) -> Any:
    body = json.dumps({"visitor_id": visitor, "pools": [pool], "page": LANDING, "referrer": None})
    headers = {"Origin": origin, "User-Agent": agent, "Content-Type": "text/plain"}
    return client.post(f"/api/dni/{key}/assign", content=body, headers=headers)


def test_a_visitor_from_the_customers_site_gets_a_pool_number_and_keeps_it(
    client: TestClient, customer_a: Actor
) -> None:
    key, pool, dids = _pool(client, customer_a)
    first = _assign(client, key, pool, "visitor-0001")
    assert first.status_code == 200, first.text
    assert first.headers["access-control-allow-origin"] == SHOP
    (swap,) = first.json()["data"]["swaps"]
    assert swap["number"] in dids and swap["pool"] == pool
    again = _assign(client, key, pool, "visitor-0001").json()["data"]["swaps"][0]
    other = _assign(client, key, pool, "visitor-0002").json()["data"]["swaps"][0]
    assert again == swap and other["number"] != swap["number"]
    touched = client.post(
        f"/api/dni/{key}/touch",
        content=json.dumps({"sessions": [swap["session_id"]], "page": f"{SHOP}/contact"}),
        headers={"Origin": SHOP, "User-Agent": BROWSER},
    )
    assert touched.json()["data"]["swaps"] == [swap]
    shown = client.get(f"/api/dni/pool/{pool}", headers=customer_a.headers).json()["data"]
    assert shown["pressure"]["sessions"] == 2 and shown["pressure"]["reused"] == 0


def test_another_origin_gets_no_number_and_no_cors_header(client: TestClient, customer_a: Actor) -> None:
    key, pool, _ = _pool(client, customer_a)
    for origin in ("https://evil.example", "http://shop.example", f"{SHOP}.evil.example"):
        refused = _assign(client, key, pool, "visitor-0001", origin=origin)
        assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers
    body = json.dumps({"visitor_id": "visitor-0001", "pools": [pool], "page": LANDING})
    no_origin = client.post(f"/api/dni/{key}/assign", content=body, headers={"User-Agent": BROWSER})
    assert no_origin.status_code == 403
    assert (
        client.get(f"/api/dni/pool/{pool}", headers=customer_a.headers).json()["data"]["pressure"]["sessions"]
        == 0
    )


@pytest.mark.parametrize(
    "agent",
    ["", "Googlebot/2.1 (+http://www.google.com/bot.html)", "curl/8.5.0", "Mozilla/5.0 HeadlessChrome/131.0"],
)
def test_bots_get_no_number(client: TestClient, customer_a: Actor, agent: str) -> None:
    key, pool, _ = _pool(client, customer_a)
    answer = _assign(client, key, pool, "visitor-0001", agent=agent)
    assert answer.status_code == 200 and answer.json()["data"]["swaps"] == []


def test_requests_past_the_limit_per_address_are_refused(
    client: TestClient, customer_a: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, pool, _ = _pool(client, customer_a)
    monkeypatch.setenv("DNI_MAX_PER_ADDRESS", "3")
    get_settings.cache_clear()
    try:
        answers = [_assign(client, key, pool, f"visitor-{n:04d}").status_code for n in range(4)]
    finally:
        get_settings.cache_clear()
    assert answers == [200, 200, 200, 429]


def test_requests_past_the_limit_per_key_are_refused_from_any_address(
    client: TestClient, app: Any, customer_a: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, pool, _ = _pool(client, customer_a)
    monkeypatch.setenv("DNI_MAX_PER_KEY", "2")
    get_settings.cache_clear()
    try:
        codes = []
        for n in range(3):  # each from its own address
            with TestClient(app, client=(f"192.0.2.{n + 1}", 50000)) as other:
                codes.append(_assign(other, key, pool, f"visitor-{n:04d}").status_code)
    finally:
        get_settings.cache_clear()
    assert codes == [200, 200, 429]


def test_forwarded_headers_neither_dodge_the_limit_nor_shape_the_script(
    client: TestClient, customer_a: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, pool, _ = _pool(client, customer_a)
    monkeypatch.setenv("DNI_MAX_PER_ADDRESS", "2")
    get_settings.cache_clear()
    try:
        codes = [
            client.post(
                f"/api/dni/{key}/assign",
                content=json.dumps({"visitor_id": "visitor-0001", "pools": [pool], "page": LANDING}),
                headers={"Origin": SHOP, "User-Agent": BROWSER, "X-Forwarded-For": f"198.51.100.{n}"},
            ).status_code
            for n in range(3)
        ]
    finally:
        get_settings.cache_clear()
    assert codes == [200, 200, 429]


def test_the_script_is_the_customers_small_and_names_no_host(client: TestClient, customer_a: Actor) -> None:
    key, pool, _ = _pool(client, customer_a)
    answer = client.get(
        f"/api/dni/{key}/script.js", headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    )
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert f'"{key}"' in answer.text and f'{{"c":{pool},"n":"442071838799"}}' in answer.text
    assert "evil.example" not in answer.text and "__KEY__" not in answer.text
    assert len(gzip.compress(SCRIPT.read_bytes(), 9)) <= 3072
    assert client.get("/api/dni/" + "x" * 32 + "/script.js").status_code == 404


def test_a_new_key_retires_the_old_tag(client: TestClient, customer_a: Actor) -> None:
    key, pool, _ = _pool(client, customer_a)
    fresh = client.post(f"/api/dni/site/{customer_a.id}/key", headers=customer_a.headers).json()["data"]
    assert fresh["script_key"] != key and fresh["script_path"] == f"/api/dni/{fresh['script_key']}/script.js"
    assert _assign(client, key, pool, "visitor-0001").status_code == 404
    assert _assign(client, fresh["script_key"], pool, "visitor-0001").status_code == 200


def test_a_malformed_request_is_refused_and_holds_no_number(client: TestClient, customer_a: Actor) -> None:
    key, pool, _ = _pool(client, customer_a)
    headers = {"Origin": SHOP, "User-Agent": BROWSER}
    for body in ("not json", json.dumps({"visitor_id": "x", "pools": [pool], "page": LANDING})):
        assert client.post(f"/api/dni/{key}/assign", content=body, headers=headers).status_code == 422
    assert (
        client.get(f"/api/dni/pool/{pool}", headers=customer_a.headers).json()["data"]["pressure"]["sessions"]
        == 0
    )


def test_a_pool_takes_only_the_campaigns_own_numbers(
    client: TestClient, customer_a: Actor, customer_b: Actor
) -> None:
    _, pool, _ = _pool(client, customer_a)
    foreign = save(Number(number="+442071839999", user_id=customer_b.id))
    body = {"enabled": True, "timeout_minutes": 20, "number_ids": [foreign.id]}
    answer = client.put(f"/api/dni/pool/{pool}", json=body, headers=customer_a.headers)
    assert answer.status_code == 422 and not get(Number, foreign.id or 0).website_pool
    assert client.get(f"/api/dni/pool/{pool}", headers=customer_b.headers).status_code == 404
    bad_origin = client.put(
        f"/api/dni/site/{customer_a.id}", json={"origins": ["shop.example/path"]}, headers=customer_a.headers
    )
    assert bad_origin.status_code == 422
