"""Who is asking, as an address: the one answer every limit and log line uses (docs/security.md,
"The client's address").

The connection's peer, unless that peer is one of TRUSTED_PROXIES: then the right-most entry of
X-Forwarded-For that is not a trusted proxy (each proxy appends the peer it saw; entries left of
that one were written by the client and prove nothing). The portal runs under uvicorn with its own
proxy-header handling off (`--no-proxy-headers`), so the peer in the scope is the socket's.
"""

from ipaddress import ip_address

from starlette.datastructures import Headers
from starlette.types import Scope

from core.infra.settings import Network, get_settings

UNKNOWN = "unknown"


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def _peer(scope: Scope) -> str:
    peer = scope.get("client")
    return str(peer[0]) if peer else UNKNOWN


def client_scheme(scope: Scope) -> str:
    """The scheme the client used: the connection's, or from a trusted proxy the last
    X-Forwarded-Proto it wrote (a TLS proxy in front speaks plain HTTP to the portal)."""
    proxies = get_settings().proxy_networks
    if proxies and _trusted(_peer(scope), proxies):
        forwarded = Headers(scope=scope).get("x-forwarded-proto", "").split(",")[-1].strip().lower()
        if forwarded in ("http", "https"):
            return forwarded
    return str(scope.get("scheme", "http"))


def client_address(scope: Scope) -> str:
    """The client's address for this HTTP request or WebSocket."""
    address = _peer(scope)
    proxies = get_settings().proxy_networks
    if not proxies or not _trusted(address, proxies):
        return address
    forwarded = ",".join(Headers(scope=scope).getlist("x-forwarded-for"))
    for entry in reversed([e.strip() for e in forwarded.split(",") if e.strip()]):
        try:
            ip_address(entry)
        except ValueError:
            # Not an address: a proxy of ours would not write that, so it is no client's word.
            return address
        if not _trusted(entry, proxies):
            return entry
        address = entry
    return address
