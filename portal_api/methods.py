"""HEAD and OPTIONS on every path (RFC 9110 §9.3.2, §9.3.7), which FastAPI's routes do not answer.

HEAD is answered as GET without the body (same status and headers, Content-Length included);
OPTIONS is a 204 naming the path's methods in `Allow`. No CORS headers: the portal and its API are
one origin, and no other is configured to call it.
"""

from collections.abc import Sequence

from fastapi.routing import iter_route_contexts
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def allowed_methods(routes: Sequence[BaseRoute], scope: Scope) -> str:
    """Every method the request's path has, HEAD with GET and OPTIONS on any path that exists; ""
    for a path no route has. A path is often several routes (GET /profile and PUT /profile)."""
    methods: set[str] = set()
    for route in iter_route_contexts(routes):
        route_methods = getattr(route, "methods", None)  # routes that take methods have them
        if isinstance(route_methods, set) and route_methods and route.matches(scope)[0] != Match.NONE:
            methods |= set(route_methods)
    if "GET" in methods:
        methods.add("HEAD")
    if methods:
        methods.add("OPTIONS")
    return ", ".join(sorted(methods))


class HeadAndOptions:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope.get("method") if scope["type"] == "http" else None
        if method == "OPTIONS":
            allow = allowed_methods(scope["app"].routes, scope)
            if allow:
                headers = [(b"allow", allow.encode()), (b"content-length", b"0")]
                await send({"type": "http.response.start", "status": 204, "headers": headers})
                await send({"type": "http.response.body", "body": b""})
                return
        if method != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
