"""Where requests to customers' URLs may go (docs/security.md, "Requests to customers' URLs").

A webhook's URL and a bidder's ping and post URLs are typed by customers, and the workers and the
bridge request them from inside the platform's network. Without a guard a customer could make
them reach what only the platform should: the database, Redis, Asterisk's REST interface, the
portal's own ports, a cloud's metadata service (169.254.169.254). So an address that is not a
public one (loopback, private, link-local, multicast, reserved, ...) is refused unless it lies in
OUTBOUND_ALLOW_NETWORKS.

The check is made twice: when a URL is saved (a clear 422 for a customer's mistake) and on every
connection, where it counts. There the name is resolved once, every address it gives is checked,
and the connection goes to a checked address: a name that resolves to a public address when
saved and to an internal one when used (DNS rebinding) is refused then. TLS still verifies the
certificate against the URL's name. Redirects are never followed (httpx's default, kept).
"""

import ipaddress
import socket
import ssl
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpcore
import httpx

from core.infra.settings import Network, get_settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# IPv6 addresses that carry an IPv4 one a gateway would reach: NAT64's well-known prefix.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20)  # httpx's own defaults


class Blocked(httpx.TransportError):
    """A connection refused before it was made: the URL's host is not an address customers' URLs
    may reach. The message says which address and why."""


def allowed_networks() -> tuple[Network, ...]:
    """The internal networks this deployment lets customers' URLs reach (none unless set)."""
    return get_settings().outbound_networks


def _embedded_ipv4(address: Address) -> Address:
    """The IPv4 address an IPv6 one stands for (mapped, 6to4, NAT64), or the address itself: the
    rules apply to where a packet would really go."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address in _NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def refusal(address: Address, allow: Iterable[Network]) -> str | None:
    """What `address` is when it may not be reached ("a loopback address"); None when it may: it
    is public, or in an allowed network."""
    real = _embedded_ipv4(address)
    if any(real in network for network in allow):
        return None
    if real.is_unspecified:
        return "the unspecified address"
    if real.is_loopback:
        return "a loopback address"
    if real.is_link_local:
        return "a link-local address (where cloud metadata services answer)"
    if real.is_multicast:
        return "a multicast address"
    if real.is_private:
        return "a private address"
    if real.is_reserved:
        return "a reserved address"
    if not real.is_global:
        return "not a public address"
    return None


def _addresses(infos: Iterable[tuple[object, object, object, object, tuple[object, ...]]]) -> list[Address]:
    """The distinct addresses of getaddrinfo's answer, in its order (the scope of a link-local
    IPv6 address dropped: the rules do not depend on it)."""
    found = dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos)
    return list(found)


def _names(host: str, address: Address) -> bool:
    """Whether `host` is `address` written as an address (not a name resolving to it)."""
    try:
        return ipaddress.ip_address(host) == address
    except ValueError:
        return False


def _checked(host: str, addresses: list[Address], allow: Iterable[Network]) -> list[Address]:
    """`addresses` when every one may be reached; otherwise Blocked, naming the first refused.
    Every one, not any: a name with one internal address among public ones could be answered
    with that one on the next lookup."""
    allow = tuple(allow)
    for address in addresses:
        if kind := refusal(address, allow):
            real = _embedded_ipv4(address)
            shown = str(address) if real == address else f"{address} ({real})"
            said = f"{shown} is {kind}" if _names(host, address) else f"{host} resolves to {shown}, {kind}"
            raise Blocked(f"{said}: webhooks and bids go to public addresses only")
    if not addresses:
        raise Blocked(f"{host} resolves to no address")
    return addresses


def resolve(host: str, port: int, allow: Iterable[Network]) -> list[Address]:
    """The checked addresses of `host` (a name, or an address in any form the resolver reads:
    `2130706433` and `0177.0.0.1` are 127.0.0.1). Blocked when one may not be reached; the
    resolver's own error (socket.gaierror) when the name does not resolve."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return _checked(host, _addresses(infos), allow)


async def resolve_async(host: str, port: int, allow: Iterable[Network]) -> list[Address]:
    """`resolve` without blocking the event loop."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return _checked(host, _addresses(infos), allow)


def url_refusal(url: str, allow: Iterable[Network] | None = None) -> str | None:
    """Why a URL about to be saved may not be requested (None: it may, as far as can be told now).

    A name that does not resolve now is accepted: it may exist by the first call, and each
    connection is checked anyway."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return None  # the schema's own check says what is wrong with it
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        resolve(host, port, allowed_networks() if allow is None else allow)
    except Blocked as exc:
        return str(exc)
    except (OSError, ValueError, UnicodeError):
        return None
    return None


class _GuardedBackend(httpcore.NetworkBackend):
    """httpcore's sockets, connected only to checked addresses of the URL's host."""

    def __init__(self, allow: tuple[Network, ...]) -> None:
        self._allow = allow
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        try:
            addresses = resolve(host, port, self._allow)
        except (OSError, UnicodeError) as exc:
            raise httpcore.ConnectError(f"{host} does not resolve: {exc}") from exc
        for address in addresses[:-1]:
            try:
                return self._inner.connect_tcp(str(address), port, timeout, local_address, socket_options)
            except httpcore.ConnectError:
                continue
        return self._inner.connect_tcp(str(addresses[-1]), port, timeout, local_address, socket_options)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise Blocked("requests to customers' URLs never use a local socket")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _GuardedAsyncBackend(httpcore.AsyncNetworkBackend):
    """`_GuardedBackend` for async clients (the bridge's auction)."""

    def __init__(self, allow: tuple[Network, ...]) -> None:
        self._allow = allow
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await resolve_async(host, port, self._allow)
        except (OSError, UnicodeError) as exc:
            raise httpcore.ConnectError(f"{host} does not resolve: {exc}") from exc
        for address in addresses[:-1]:
            try:
                return await self._inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError:
                continue
        return await self._inner.connect_tcp(str(addresses[-1]), port, timeout, local_address, socket_options)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise Blocked("requests to customers' URLs never use a local socket")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def _pool(
    tls: ssl.SSLContext, limits: httpx.Limits
) -> dict[str, Any]:  # ** into the pool: its keywords vary in type
    """httpcore's pool options as httpx would set them."""
    return {
        "ssl_context": tls,
        "max_connections": limits.max_connections,
        "max_keepalive_connections": limits.max_keepalive_connections,
        "keepalive_expiry": limits.keepalive_expiry,
    }


class GuardedTransport(httpx.HTTPTransport):
    """An httpx transport that connects only where customers' URLs may go (`allow`: the
    deployment's OUTBOUND_ALLOW_NETWORKS unless given)."""

    def __init__(
        self,
        allow: Iterable[Network] | None = None,
        verify: ssl.SSLContext | bool = True,
        limits: httpx.Limits = _LIMITS,
    ) -> None:
        tls = httpx.create_ssl_context(verify=verify)  # one context, shared with httpx's own pool
        super().__init__(verify=tls, limits=limits)
        backend = _GuardedBackend(tuple(allowed_networks() if allow is None else allow))
        # httpx builds its pool with httpcore's own sockets; this one connects through the guard.
        self._pool = httpcore.ConnectionPool(**_pool(tls, limits), network_backend=backend)


class GuardedAsyncTransport(httpx.AsyncHTTPTransport):
    """`GuardedTransport` for async clients."""

    def __init__(
        self,
        allow: Iterable[Network] | None = None,
        verify: ssl.SSLContext | bool = True,
        limits: httpx.Limits = _LIMITS,
    ) -> None:
        tls = httpx.create_ssl_context(verify=verify)
        super().__init__(verify=tls, limits=limits)
        backend = _GuardedAsyncBackend(tuple(allowed_networks() if allow is None else allow))
        self._pool = httpcore.AsyncConnectionPool(**_pool(tls, limits), network_backend=backend)
