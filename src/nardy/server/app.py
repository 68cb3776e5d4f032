"""The web application: the HTTP API of accounts and the lobby, and the WebSocket of each
game room, behind the CSRF and Origin guard. Handlers decode, call the layer that knows, and
encode; they hold no rules."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute

from nardy.server import dice_http, sockets
from nardy.server.accounts import http as accounts_http
from nardy.server.accounts.security import (
    CSRF_COOKIE,
    CSRF_HEADER,
    UNSAFE_METHODS,
    csrf_ok,
    new_csrf_token,
)
from nardy.server.analysis import http as analysis_http
from nardy.server.collector import Collector
from nardy.server.config import ServerConfig
from nardy.server.http import HTTPError
from nardy.server.lobby import http as lobby_http
from nardy.server.lobby import table_http
from nardy.server.site import Site, site_of
from nardy.server.store.store import Store
from nardy.web import routes as web_routes


class Guard(BaseHTTPMiddleware):
    """Every HTTP request: a CSRF cookie for the browser if it has none; every
    state-changing request must come from this site's origin and repeat the cookie in the
    ``X-CSRF-Token`` header (the double-submit pattern)."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        token = request.cookies.get(CSRF_COOKIE)
        fresh = None
        if not token:
            token = fresh = new_csrf_token()
        request.state.csrf = token
        if request.method in UNSAFE_METHODS:
            if not site_of(request).origin_allowed(request):
                return HTTPError(
                    403, "bad-origin", "this request comes from another site"
                ).response()
            if not csrf_ok(request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)):
                return HTTPError(
                    403, "csrf", "repeat the nardy_csrf cookie in the X-CSRF-Token header"
                ).response()
        response = await call_next(request)
        if fresh is not None:
            response.set_cookie(CSRF_COOKIE, fresh, httponly=False, samesite="strict", path="/")
        return response


API_ERRORS = {404: "not-found", 405: "method-not-allowed"}
"""The codes of what the router refuses before any endpoint runs: an address the API does
not have, and a method its address does not take."""


async def router_error(request: Request, exc: Exception) -> Response:
    """Under ``/api`` the router's refusals are the API's JSON errors, as every other
    (docs/protocol.md, "Conventions"); the pages keep Starlette's plain text."""
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if path != "/api" and not path.startswith("/api/"):
        return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)
    code = API_ERRORS.get(exc.status_code, "bad-request")
    return HTTPError(exc.status_code, code, exc.detail, dict(exc.headers or {})).response()


def create_app(config: ServerConfig, store: Store | None = None) -> Starlette:
    """The site for this configuration; opens (and migrates) the database unless a store is
    given."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        site: Site = app.state.site
        collector = Collector()
        try:
            await site.rooms.restore()
            await site.connections.start()
            collector.start()  # what the process holds from here on stays out of full scans
            yield
        finally:
            await collector.stop()
            await site.connections.stop()
            await site.analysis.close()
            await site.rooms.close()
            site.store.close()

    routes: list[BaseRoute] = [*accounts_http.routes(), *lobby_http.routes(), *sockets.routes()]
    routes += dice_http.routes()  # the public page of the dice dealt
    routes += table_http.routes()
    routes += analysis_http.routes()  # a finished match's analysis
    routes += web_routes()  # the browser client: its page and fingerprinted assets
    app = Starlette(
        routes=routes,
        # A Host the site does not answer to is refused first (400, plain text), before any
        # cookie is read: the defence against DNS rebinding (docs/server.md).
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=config.trusted_hosts),
            Middleware(Guard),
        ],
        exception_handlers={HTTPException: router_error},
        lifespan=lifespan,
    )
    app.state.site = Site(config, store or Store.open(config.resolved_database_url))
    return app


def app_from_env() -> Starlette:
    """The site configured by ``NARDY_*`` environment variables: what each uvicorn worker
    process builds (``nardy serve`` sets them from its options)."""
    return create_app(ServerConfig.from_env())
