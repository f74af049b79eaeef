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

from core.settings import Network, get_settings

UNKNOWN = "unknown"


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def client_address(scope: Scope) -> str:
    """The client's address for this HTTP request or WebSocket."""
    peer = scope.get("client")
    address = str(peer[0]) if peer else UNKNOWN
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
