"""The public dice page's endpoint (docs/protocol.md, "Dice dealt"): anyone may ask, signed
in or not."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nardy.server.http import off_loop
from nardy.server.site import site_of


async def dice_stats(request: Request) -> Response:
    """Counts per face and per roll of every roll dealt, the doubles, the χ² tests."""
    stats = site_of(request).dice_stats
    return JSONResponse(
        await off_loop(stats.current),
        headers={"Cache-Control": f"public, max-age={int(stats.fresh_for)}"},
    )


def routes() -> list[Route]:
    return [Route("/api/dice/stats", dice_stats, methods=["GET"])]
