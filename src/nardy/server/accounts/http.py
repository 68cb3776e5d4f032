"""The accounts' HTTP endpoints (docs/protocol.md, "Accounts"): sign-up, sign-in,
sign-out, guests, the signed-in user and their preferences, public profiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nardy.server.accounts.security import SESSION_COOKIE
from nardy.server.accounts.users import SESSION_LIFETIME, AccountError, Preferences, hash_token
from nardy.server.http import HTTPError, handles_errors, json_body, off_loop
from nardy.server.ratings import shown
from nardy.server.site import site_of
from nardy.server.store.store import User

_ACCOUNT_STATUS = {
    "bad-username": 400,
    "bad-password": 400,
    "bad-preferences": 400,
    "username-taken": 409,
    "wrong-credentials": 401,
    "not-a-guest": 409,
}


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
    wait = site.auth_limiter.hit(site.client(request))
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


async def _sign_in_with(
    request: Request, find: Callable[..., User], *args: object, status: int = 200
) -> Response:
    """Sign in the user that ``find(*args)`` names (or creates), off the event loop. The
    browser's session before, if any (a guest who claims, someone signing in as another
    user), ends: the new cookie replaces it."""
    try:
        user = await off_loop(find, *args)
    except AccountError as exc:
        raise _account_error(exc) from None
    token = await off_loop(site_of(request).accounts.open_session, user)
    await _end_session(request)
    return _signed_in(request, user, token, status)


@handles_errors
async def sign_up(request: Request) -> Response:
    """A new account, signed in at once; a signed-in guest claims the account instead and
    keeps their games."""
    await _limit(request)
    site, body = site_of(request), await json_body(request)
    current = await site.user(request)
    name, password = body.get("username"), body.get("password")
    if current is not None and current.is_guest:
        claimed = await _sign_in_with(
            request, site.accounts.claim, current, name, password, status=201
        )
        await site.rooms.renamed(current.id)  # their open games show the new name
        return claimed
    return await _sign_in_with(request, site.accounts.sign_up, name, password, status=201)


@handles_errors
async def sign_in(request: Request) -> Response:
    """Sign in with a username and password."""
    await _limit(request)
    site, body = site_of(request), await json_body(request)
    return await _sign_in_with(
        request, site.accounts.sign_in, body.get("username"), body.get("password")
    )


@handles_errors
async def guest(request: Request) -> Response:
    """Play at once as a guest under a random name."""
    await _limit(request)
    return await _sign_in_with(request, site_of(request).accounts.guest, status=201)


@handles_errors
async def sign_out(request: Request) -> Response:
    """End this browser's session."""
    await _end_session(request)
    response = JSONResponse({"user": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def _end_session(request: Request) -> None:
    """Sign out the request's session, and close its sockets on every server process."""
    site = site_of(request)
    token = site.session_token(request)
    if token:
        await off_loop(site.accounts.close_session, token)
        await site.connections.end_session(hash_token(token))


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
    ratings = await off_loop(site.store.ratings_of, user.id)
    return JSONResponse(
        {
            **user.public(),
            "ratings": {
                pool: {"rating": shown(r.value), "experience": r.experience}
                for pool, r in sorted(ratings.items())
            },
        }
    )


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
