"""The client's routes: the page at every address a person may open or be sent (the lobby,
a game room, an invitation link) and the fingerprinted assets."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from nardy.web.assets import Assets, default_assets

PAGES = (
    "/",
    "/signin",
    "/claim",
    "/lobby",
    "/game/{game}",
    "/invite/{token}",
    "/u/{username}",
    "/replay/{game}",
)
"""Addresses that open the client; the page itself decides what to show at each."""
PUBLIC_PAGES = ("/rules", "/rules/{page}", "/dice")
"""The client's pages anyone may read without signing in: the rules of each variant and the
dice dealt."""
FOREVER = "public, max-age=31536000, immutable"
NEVER = "no-cache"
"""The page is revalidated at every load, so it always names the current assets."""


def routes(assets: Assets | None = None) -> list[Route]:
    """The page at every address of :data:`PAGES` and ``/assets/{digest}/{path}``."""

    def current() -> Assets:
        return assets if assets is not None else default_assets()

    async def page(request: Request) -> Response:
        return HTMLResponse(
            current().page,
            headers={
                "Cache-Control": NEVER,
                "Content-Security-Policy": current().csp,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "same-origin",
            },
        )

    async def asset(request: Request) -> Response:
        found = current().find(request.path_params["digest"], request.path_params["path"])
        if found is None:
            return PlainTextResponse("no such asset", 404, headers={"Cache-Control": NEVER})
        return Response(
            found.body,
            media_type=found.media_type,
            headers={"Cache-Control": FOREVER, "X-Content-Type-Options": "nosniff"},
        )

    return [
        *(Route(path, page, methods=["GET", "HEAD"]) for path in PAGES + PUBLIC_PAGES),
        Route("/assets/{digest}/{path:path}", asset, methods=["GET", "HEAD"]),
    ]
