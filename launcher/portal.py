"""How the portal's server is started, by `make run` and by the test kit's portal processes alike
(deploy/callroute.sh writes the same flags for the image)."""

import sys


def portal_argv(host: str, port: int) -> list[str]:
    """Uvicorn serving the portal on host:port. Its own access log is off (it prints query strings;
    portal_api.middleware.AccessLog writes the lines), and so is its X-Forwarded-For handling,
    which believes any loopback peer: the client's address is portal_api.client_address's, from
    TRUSTED_PROXIES. WebSocket messages go uncompressed: permessage-deflate compresses each live
    message once per socket (its state is the socket's own), and was half the portal's CPU with
    200 Live Calls sockets open (docs/performance.md, "Live calls")."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "portal_api.app:app",
        "--host",
        host,
        "--port",
        str(port),
        "--no-access-log",
        "--no-proxy-headers",
        "--ws-per-message-deflate",
        "false",
    ]
