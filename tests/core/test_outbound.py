"""Where customers' URLs may go (core.infra.outbound): the address rules, the allow-list setting, URLs
checked as saved (addresses in any form the resolver reads), and connections made only to the
address checked, against a real receiver on loopback."""

import ipaddress
import socket
from typing import Any

import httpx
import pytest

from core.infra import outbound
from core.infra.outbound import Blocked, GuardedAsyncTransport, GuardedTransport, refusal, url_refusal
from core.infra.settings import parse_networks, settings_from
from testkit.webhook_receiver import webhook_receiver

NONE: tuple[()] = ()
LOOPBACK = parse_networks("127.0.0.0/8")


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "a loopback address"),
        ("127.255.0.9", "a loopback address"),
        ("10.0.0.5", "a private address"),
        ("172.16.3.4", "a private address"),
        ("192.168.1.1", "a private address"),
        ("169.254.169.254", "a link-local address (where cloud metadata services answer)"),
        ("100.64.0.1", "not a public address"),  # carrier-grade NAT
        ("0.0.0.0", "the unspecified address"),
        ("224.0.0.1", "a multicast address"),
        ("255.255.255.255", "a private address"),
        ("::1", "a loopback address"),
        ("::", "the unspecified address"),
        ("fe80::1", "a link-local address (where cloud metadata services answer)"),
        ("fd00:ec2::254", "a private address"),  # AWS's IPv6 metadata address
        ("ff02::1", "a multicast address"),
        ("::ffff:127.0.0.1", "a loopback address"),  # IPv4-mapped
        ("::ffff:169.254.169.254", "a link-local address (where cloud metadata services answer)"),
        ("2002:a00:1::", "a private address"),  # 6to4 of 10.0.0.1
        ("64:ff9b::a9fe:a9fe", "a link-local address (where cloud metadata services answer)"),  # NAT64
    ],
)
def test_addresses_that_are_not_public_are_refused(address: str, kind: str) -> None:
    assert refusal(ipaddress.ip_address(address), NONE) == kind


@pytest.mark.parametrize("address", ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_may_be_reached(address: str) -> None:
    assert refusal(ipaddress.ip_address(address), NONE) is None


def test_an_allowed_network_is_reached_in_any_form_and_nothing_beside_it() -> None:
    allow = parse_networks("127.0.0.0/8, 10.20.0.0/16")
    for address in ("127.0.0.1", "::ffff:127.0.0.1", "10.20.3.4"):
        assert refusal(ipaddress.ip_address(address), allow) is None, address
    for address in ("::1", "10.21.0.1", "169.254.169.254"):
        assert refusal(ipaddress.ip_address(address), allow) is not None, address


def test_the_setting_takes_networks_only() -> None:
    assert settings_from({}).outbound_networks == ()
    given = settings_from({"OUTBOUND_ALLOW_NETWORKS": "10.0.0.0/8 ::1/128,192.168.5.7"})
    assert [str(n) for n in given.outbound_networks] == ["10.0.0.0/8", "::1/128", "192.168.5.7/32"]
    for wrong in ("10.0.0.1/8", "internal", "10.0.0.0/33"):
        with pytest.raises(ValueError, match="OUTBOUND_ALLOW_NETWORKS"):
            settings_from({"OUTBOUND_ALLOW_NETWORKS": wrong})


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.5/hook",
        "http://2130706433/hook",  # 127.0.0.1 as one decimal number
        "http://0177.0.0.1/hook",  # octal
        "http://0x7f.1:8088/ari/channels",  # hexadecimal, short form: Asterisk's ARI
        "http://[::ffff:a9fe:a9fe]/latest/meta-data",  # 169.254.169.254, IPv4-mapped
        "https://localhost:5432/",  # a name that resolves to loopback
    ],
)
def test_a_url_naming_an_internal_address_in_any_form_is_refused_when_saved(url: str) -> None:
    why = url_refusal(url, NONE)
    assert why is not None and why.endswith("webhooks and bids go to public addresses only"), why


def test_a_saved_url_says_which_address_and_why() -> None:
    assert url_refusal("http://2130706433/x", NONE) == (
        "2130706433 resolves to 127.0.0.1, a loopback address: webhooks and bids go to public addresses only"
    )
    assert url_refusal("http://10.0.0.5/", NONE) == (
        "10.0.0.5 is a private address: webhooks and bids go to public addresses only"
    )
    assert url_refusal("http://127.0.0.1:9/", LOOPBACK) is None
    assert url_refusal("https://93.184.215.14/hook", NONE) is None


def _resolver(answers: dict[str, list[str]]) -> Any:
    """A resolver answering `answers` (a DNS under an attacker's control), else the real one."""
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        if host not in answers:
            return real(host, port, *args, **kwargs)
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in answers[host]
        ]

    return getaddrinfo


def test_a_name_with_any_internal_address_is_refused_on_connection(monkeypatch) -> None:
    # One public address beside an internal one: the next lookup could pick the internal one.
    monkeypatch.setattr(socket, "getaddrinfo", _resolver({"mixed.test": ["93.184.215.14", "10.0.0.7"]}))
    with httpx.Client(transport=GuardedTransport(NONE)) as client, pytest.raises(Blocked) as refused:
        client.post("http://mixed.test/hook")
    assert str(refused.value).startswith("mixed.test resolves to 10.0.0.7, a private address")


def test_the_connection_goes_to_the_address_checked_not_a_second_lookup(monkeypatch) -> None:
    # "pinned.test" exists only in the guard's lookup: the request reaching the receiver shows the
    # connection went to the address the guard resolved and checked (no second, unchecked lookup).
    monkeypatch.setattr(socket, "getaddrinfo", _resolver({"pinned.test": ["127.0.0.1"]}))
    with webhook_receiver() as rx:
        port = httpx.URL(rx.url).port
        with httpx.Client(transport=GuardedTransport(LOOPBACK)) as client:
            assert client.post(f"http://pinned.test:{port}/hook", content=b"{}").status_code == 200
        with httpx.Client(transport=GuardedTransport(NONE)) as client, pytest.raises(Blocked):
            client.post(f"http://pinned.test:{port}/hook", content=b"{}")
    assert [r.path for r in rx.got] == ["/hook"]


async def test_the_async_transport_refuses_before_connecting() -> None:
    with webhook_receiver() as rx:
        async with httpx.AsyncClient(transport=GuardedAsyncTransport(NONE)) as client:
            with pytest.raises(Blocked, match=r"127\.0\.0\.1 is a loopback address"):
                await client.post(rx.url + "/bid", json={})
        async with httpx.AsyncClient(transport=GuardedAsyncTransport(LOOPBACK)) as client:
            assert (await client.post(rx.url + "/bid", json={})).status_code == 200
    assert [r.path for r in rx.got] == ["/bid"]


def test_the_deployment_setting_is_the_default() -> None:
    # The test processes allow loopback (testkit.processes.RECEIVERS_ENV): the guard reads it.
    assert outbound.allowed_networks() == LOOPBACK
    assert url_refusal("http://127.0.0.1:9/") is None
    assert url_refusal("http://[::1]:9/") is not None


def test_make_run_allows_loopback_in_development_only_when_nothing_is_set() -> None:
    from launcher.run import outbound_default

    assert outbound_default(settings_from({})) == {"OUTBOUND_ALLOW_NETWORKS": "127.0.0.0/8,::1/128"}
    chosen = settings_from({"OUTBOUND_ALLOW_NETWORKS": "10.40.0.0/16"})
    assert outbound_default(chosen) == {}
    production = {
        "ENVIRONMENT": "production",
        "DATABASE_URL": "postgresql://db/x",
        "REDIS_URL": "redis://r",
        "PUBLIC_URL": "https://portal.example.com",
    }
    assert outbound_default(settings_from(production)) == {}
