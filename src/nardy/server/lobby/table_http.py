"""The lobby's HTTP endpoints for chouette tables and consultation games
(docs/protocol.md, "Chouette tables and consultation games"): create, list and join."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from nardy.server.games import GameKind, GameStatus
from nardy.server.http import handles_errors, json_body, off_loop
from nardy.server.lobby.http import game_view, lobby_error, request_key
from nardy.server.lobby.matches import LobbyError, Repeated
from nardy.server.lobby.tables import TableLobby, free_seats
from nardy.server.site import site_of


@handles_errors
async def create_table(request: Request) -> Response:
    """A new chouette table or consultation game; the creator takes its first seat. The
    same request again with its ``Idempotency-Key`` answers 200 with the table it made."""
    site = site_of(request)
    user = await site.require_user(request)
    body = await json_body(request)
    key = request_key(request)
    try:
        made = await off_loop(TableLobby(site.store).create, user, body, key)
    except LobbyError as exc:
        raise lobby_error(exc) from None
    game = made.game if isinstance(made, Repeated) else made
    if game.status == GameStatus.PLAYING:  # the creator and bots: the room starts now
        await site.rooms.get(game.id)
    status = 200 if isinstance(made, Repeated) else 201
    return JSONResponse(await off_loop(game_view, site.store, game), status)


@handles_errors
async def tables(request: Request) -> Response:
    """Public chouette tables and consultation games, waiting or under way."""
    site = site_of(request)
    found = await off_loop(site.store.tables)
    return JSONResponse([await off_loop(game_view, site.store, g) for g in found])


@handles_errors
async def join_table(request: Request) -> Response:
    """Take a free seat: before the start (a consultation's on the side asked for), or at a
    chouette under way between games (at the end of the team line)."""
    site = site_of(request)
    user = await site.require_user(request)
    body = await json_body(request)
    lobby = TableLobby(site.store)
    try:
        game = await off_loop(lobby.table, request.path_params["game"])
        if game.kind == GameKind.CHOUETTE and game.status == GameStatus.PLAYING:
            members = await off_loop(site.store.members, game.id)
            if any(m.user_id == user.id for m in members):
                raise LobbyError(409, "own-game", "you have (or had) a seat at this table")
            if body:
                raise LobbyError(400, "malformed", "a chouette has no sides")
            if free_seats(game, members) <= 0:
                raise LobbyError(409, "game-full", "the table has no free seat")
            room = await site.rooms.get(game.id)
            assert room is not None
            refused = await room.seat(user)
            if refused is not None:
                raise LobbyError(409, refused.code, refused.message)
        else:
            game = await off_loop(lobby.join, user, game.id, body)
            room = await site.rooms.get(game.id)
            assert room is not None
            await room.refresh()
    except LobbyError as exc:
        raise lobby_error(exc) from None
    found = await off_loop(site.store.game, game.id)
    assert found is not None
    return JSONResponse(await off_loop(game_view, site.store, found))


def routes() -> list[Route]:
    """The tables' part of the HTTP API."""
    return [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", tables, methods=["GET"]),
        Route("/api/tables/{game}/join", join_table, methods=["POST"]),
    ]
