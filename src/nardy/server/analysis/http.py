"""The analysis endpoints (docs/protocol.md, "Analysis"): ask for a finished match's
analysis, follow it in the queue, read it and download it, for whoever may see the match's
replay."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nardy.notation.record import match_records
from nardy.server.analysis.jobs import AnalysisJobs
from nardy.server.games import GameStatus
from nardy.server.http import HTTPError, handles_errors
from nardy.server.lobby.http import game_and_match
from nardy.server.site import site_of
from nardy.server.store.analyses import AnalysisRow, JobStatus, Outcome


async def _view(jobs: AnalysisJobs, game_id: str) -> dict[str, Any]:
    """Where the game's analysis stands; with it, once done."""
    found = await jobs.job(game_id)
    if found is None:
        return {"status": "none"}
    row, ahead = found
    return _row_view(row, ahead)


def _row_view(row: AnalysisRow, ahead: int) -> dict[str, Any]:
    view: dict[str, Any] = {
        "status": row.status.value,
        "ply": row.ply,
        "ahead": ahead,
        "done": row.done,
        "total": row.total,
        "error": row.error,
    }
    if row.status == JobStatus.DONE and row.result is not None:
        view.update(row.result)
    return view


@handles_errors
async def start(request: Request) -> Response:
    """Queue the analysis of a finished match (202), or say where it stands (200)."""
    site = site_of(request)
    user = await site.require_user(request)
    found, match = await game_and_match(request)
    if found.status != GameStatus.FINISHED:
        raise HTTPError(409, "not-finished", "only a finished match is analysed")
    asked = await site.analysis.request(found.id, user.id, lambda: match_records(match))
    if asked.outcome == Outcome.BUSY:
        raise HTTPError(409, "analysis-busy", "your analysis of another match is under way")
    if asked.outcome == Outcome.FULL:
        raise HTTPError(503, "analysis-full", "the analysis queue is full: try again later")
    status = 202 if asked.outcome == Outcome.QUEUED else 200
    return JSONResponse(await _view(site.analysis, found.id), status)


@handles_errors
async def show(request: Request) -> Response:
    """The match's analysis as it stands (``status`` ``none`` before anyone asked)."""
    found, _ = await game_and_match(request)
    return JSONResponse(await _view(site_of(request).analysis, found.id))


@handles_errors
async def download(request: Request) -> Response:
    """The finished analysis, as ``nardy analyze --format json`` writes it, to keep."""
    found, _ = await game_and_match(request)
    row = await site_of(request).analysis.job(found.id)
    if row is None or row[0].status != JobStatus.DONE or row[0].result is None:
        raise HTTPError(404, "not-analysed", "this match has not been analysed")
    headers = {"Content-Disposition": f'attachment; filename="{found.id}-analysis.json"'}
    return JSONResponse(row[0].result["analysis"], headers=headers)


def routes() -> list[Route]:
    """The analysis part of the HTTP API."""
    return [
        Route("/api/games/{game}/analysis", start, methods=["POST"]),
        Route("/api/games/{game}/analysis", show, methods=["GET"]),
        Route("/api/games/{game}/analysis.json", download, methods=["GET"]),
    ]
