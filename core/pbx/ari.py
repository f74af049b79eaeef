"""Asterisk's REST Interface (ARI) over HTTP: where it is, how requests are spelled, its errors, and
the plain requests any process makes (a whole list, a stored recording's file).

The bridge's gateway (`pbx_bridge.ari`) is built on this: it carries each call's requests over
websockets (cheaper at tens of calls a second) and uses HTTP here for what is rare and bulky; the
API streams recordings with it. One address, one error type, one query spelling for both, and no
service imports another.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import httpx

from core.infra.settings import get_settings
from core.pbx import node_registry

REQUEST_TIMEOUT = 10.0


class AriError(Exception):
    """ARI answered with an error status, or could not be asked (503) or in time (504)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"ARI answered {status}: {text[:200]}")
        self.status = status


def query(params: Mapping[str, object]) -> str:
    """A request's query string as ARI reads it (booleans lower-case, None left out)."""
    clean = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in params.items() if v is not None}
    return f"?{urlencode(clean)}" if clean else ""


@dataclass(frozen=True)
class AriAddress:
    host: str
    port: int
    user: str
    password: str
    # False when this product runs without Asterisk: nothing is asked, every request is a 503.
    enabled: bool = True

    @classmethod
    def from_settings(cls) -> "AriAddress":
        """The product's Asterisk (it runs beside the services), with ARI_USER/ARI_PASSWORD, or
        with a NODE_ID the node's own login (node_registry.ari_login: its Asterisk's provisioning
        writes it; read again at each call, as a reprovisioned node's changes). Off when
        CALLROUTE_ASTERISK=off (the launcher sets it for its children when Asterisk did not start)
        or without ARI credentials, which Asterisk never has: asking would only send empty
        credentials to whatever listens on the port."""
        s = get_settings()
        user, password = s.ari_user, s.ari_password
        if s.node_id:
            login = node_registry.ari_login(s.node_id)
            user, password = (login.user, login.password) if login is not None else ("", "")
        enabled = s.callroute_asterisk == "on" and bool(user and password)
        return cls("127.0.0.1", s.asterisk_http_port, user, password, enabled)

    @property
    def rest_url(self) -> str:
        return f"http://{self.host}:{self.port}/ari"

    @property
    def auth(self) -> httpx.BasicAuth:
        return httpx.BasicAuth(self.user, self.password)

    def events_url(self, app: str) -> str:
        """The websocket of Stasis app `app` (its events, and REST requests over it)."""
        key = f"{quote(self.user, safe='')}:{quote(self.password, safe='')}"
        return f"ws://{self.host}:{self.port}/ari/events?subscribeAll=false&api_key={key}&app={quote(app)}"


class AriHttp:
    """Requests over HTTP, each on a short-lived client: they are rare, so pooling buys nothing."""

    def __init__(self, address: AriAddress, timeout: float = REQUEST_TIMEOUT) -> None:
        self.address = address
        self.timeout = timeout

    def _check_enabled(self, path: str) -> None:
        if not self.address.enabled:
            raise AriError(503, f"GET {path}: Asterisk is off or has no ARI credentials here")

    async def get_json(self, path: str) -> Any:  # the resource's JSON, as its caller reads it
        self._check_enabled(path)
        try:
            async with httpx.AsyncClient(auth=self.address.auth, timeout=self.timeout) as client:
                response = await client.get(f"{self.address.rest_url}{path}")
        except httpx.HTTPError as exc:
            raise AriError(503, f"GET {path} failed: {exc}") from exc
        if response.status_code >= 400:
            raise AriError(response.status_code, response.text)
        return response.json()

    def download(self, path: str) -> Iterator[bytes]:
        """A file's bytes as they come (e.g. `/recordings/stored/{name}/file`). Raises AriError at
        once when ARI can't be reached or refuses, before any byte is given."""
        self._check_enabled(path)
        client = httpx.Client(base_url=self.address.rest_url, auth=self.address.auth, timeout=self.timeout)
        try:
            response = client.send(client.build_request("GET", path), stream=True)
        except httpx.HTTPError as exc:
            client.close()
            raise AriError(503, f"GET {path} failed: {exc}") from exc
        if response.status_code >= 400:
            response.close()
            client.close()
            raise AriError(response.status_code, f"GET {path}")

        def body() -> Iterator[bytes]:
            try:
                yield from response.iter_bytes()
            finally:
                response.close()
                client.close()

        return body()
