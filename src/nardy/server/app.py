"""The web application: Starlette routes for accounts and the lobby, and the WebSocket of
each game room. Handlers decode, call the layer that knows, and encode; they hold no rules."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nardy.server.accounts import SESSION_LIFETIME, AccountError, Accounts, Preferences
from nardy.server.config import ServerConfig
from nardy.server.http import HTTPError, handles_errors, json_body, off_loop
from nardy.server.security import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    UNSAFE_METHODS,
    RateLimiter,
    csrf_ok,
    new_csrf_token,
    origin_ok,
)
from nardy.server.store import Store, User
from nardy.web import routes as web_routes

_ACCOUNT_STATUS = {
    "bad-username": 400,
    "bad-password": 400,
    "bad-preferences": 400,
    "username-taken": 409,
    "wrong-credentials": 401,
    "not-a-guest": 409,
}


class Site:
    """Everything one server process holds: the configuration, the store, accounts, the
    rate limits."""

    def __init__(self, config: ServerConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.accounts = Accounts(store)
        self.auth_limiter = RateLimiter(config.auth_rate)

    async def user(self, connection: HTTPConnection) -> User | None:
        """Who the request's session cookie signs in, if anyone."""
        return await off_loop(self.accounts.session_user, connection.cookies.get(SESSION_COOKIE))

    async def require_user(self, connection: HTTPConnection) -> User:
        """The signed-in user; 401 when nobody is."""
        user = await self.user(connection)
        if user is None:
            raise HTTPError(401, "not-signed-in", "sign in (or play as a guest) first")
        return user

    def origin_allowed(self, connection: HTTPConnection) -> bool:
        """Whether the request comes from this site's pages (or an allowed origin)."""
        return origin_ok(
            connection.headers.get("origin"),
            connection.headers.get("host"),
            self.config.allowed_origins,
        )


def site_of(connection: HTTPConnection) -> Site:
    site: Site = connection.app.state.site
    return site


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


def _account_error(exc: AccountError) -> HTTPError:
    return HTTPError(_ACCOUNT_STATUS.get(exc.code, 400), exc.code, str(exc))


def _me(user: User) -> dict[str, Any]:
    return {**user.public(), "preferences": dict(user.preferences)}


def _signed_in(request: Request, user: User, token: str, status: int = 200) -> Response:
    response = JSONResponse({"user": _me(user), "csrf": request.state.csrf}, status)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


async def _limit(request: Request) -> None:
    site = site_of(request)
    client = request.client.host if request.client else "unknown"
    wait = site.auth_limiter.hit(client)
    if wait is not None:
        raise HTTPError(
            429,
            "rate-limited",
            f"too many attempts; try again in {wait:.0f} s",
            {"Retry-After": str(max(1, round(wait)))},
        )


@handles_errors
async def session(request: Request) -> Response:
    """Who is signed in here (null for nobody) and the CSRF token to send back."""
    user = await site_of(request).user(request)
    return JSONResponse({"user": None if user is None else _me(user), "csrf": request.state.csrf})


@handles_errors
async def sign_up(request: Request) -> Response:
    """A new account, signed in at once; a signed-in guest claims the account instead and
    keeps their games."""
    await _limit(request)
    site, body = site_of(request), await json_body(request)
    current = await site.user(request)
    try:
        if current is not None and current.is_guest:
            user = await off_loop(
                site.accounts.claim, current, body.get("username"), body.get("password")
            )
        else:
            user = await off_loop(site.accounts.sign_up, body.get("username"), body.get("password"))
    except AccountError as exc:
        raise _account_error(exc) from None
    token = await off_loop(site.accounts.open_session, user)
    return _signed_in(request, user, token, 201)


@handles_errors
async def sign_in(request: Request) -> Response:
    """Sign in with a username and password."""
    await _limit(request)
    site, body = site_of(request), await json_body(request)
    try:
        user = await off_loop(site.accounts.sign_in, body.get("username"), body.get("password"))
    except AccountError as exc:
        raise _account_error(exc) from None
    token = await off_loop(site.accounts.open_session, user)
    return _signed_in(request, user, token)


@handles_errors
async def guest(request: Request) -> Response:
    """Play at once as a guest under a random name."""
    await _limit(request)
    site = site_of(request)
    try:
        user = await off_loop(site.accounts.guest)
    except AccountError as exc:
        raise _account_error(exc) from None
    token = await off_loop(site.accounts.open_session, user)
    return _signed_in(request, user, token, 201)


@handles_errors
async def sign_out(request: Request) -> Response:
    """End this browser's session."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        await off_loop(site_of(request).accounts.close_session, token)
    response = JSONResponse({"user": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@handles_errors
async def me(request: Request) -> Response:
    """The signed-in user with their private preferences."""
    return JSONResponse(_me(await site_of(request).require_user(request)))


@handles_errors
async def preferences(request: Request) -> Response:
    """``GET``: the signed-in user's preferences; ``PUT``: change some of them."""
    site = site_of(request)
    user = await site.require_user(request)
    if request.method == "GET":
        return JSONResponse(Preferences.from_dict(dict(user.preferences)).to_dict())
    body = await json_body(request)
    try:
        updated = await off_loop(site.accounts.set_preferences, user, body)
    except AccountError as exc:
        raise _account_error(exc) from None
    return JSONResponse(updated.to_dict())


@handles_errors
async def profile(request: Request) -> Response:
    """What anyone may see of a user: the name and the ratings."""
    site = site_of(request)
    user = await off_loop(site.store.user_by_name, request.path_params["username"])
    if user is None:
        raise HTTPError(404, "no-such-user", "no user has this name")
    return JSONResponse(user.public())


def routes() -> list[Route]:
    """The HTTP API (docs/protocol.md)."""
    return [
        Route("/api/session", session, methods=["GET"]),
        Route("/api/signup", sign_up, methods=["POST"]),
        Route("/api/signin", sign_in, methods=["POST"]),
        Route("/api/signout", sign_out, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/preferences", preferences, methods=["GET", "PUT"]),
        Route("/api/users/{username}", profile, methods=["GET"]),
    ]


def create_app(config: ServerConfig, store: Store | None = None) -> Starlette:
    """The site for this configuration; opens (and migrates) the database unless a store is
    given."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        site: Site = app.state.site
        try:
            yield
        finally:
            site.store.close()

    app = Starlette(
        routes=[*routes(), *web_routes()], middleware=[Middleware(Guard)], lifespan=lifespan
    )
    app.state.site = Site(config, store or Store.open(config.resolved_database_url))
    return app


def app_from_env() -> Starlette:
    """The site configured by ``NARDY_*`` environment variables: what each uvicorn worker
    process builds (``nardy serve`` sets them from its options)."""
    return create_app(ServerConfig.from_env())
