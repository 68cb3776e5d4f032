"""The lobby's HTTP endpoints (docs/protocol.md, "Lobby"): create, list, join and look at
games."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from nardy.core.errors import NardyError
from nardy.core.match import Match
from nardy.core.settings import BOUNDS
from nardy.notation.mat import export_mat
from nardy.notation.record import match_records
from nardy.server.games import TABLE_KINDS, GameKind, GameStatus
from nardy.server.http import HTTPError, handles_errors, json_body, off_loop
from nardy.server.lobby.matches import Lobby, LobbyError, seats_view, visible_to
from nardy.server.lobby.quick import QuickPairing
from nardy.server.lobby.replay import replay_view
from nardy.server.lobby.tables import table_fields
from nardy.server.ratings import shown
from nardy.server.site import Site, site_of
from nardy.server.store.store import GameRow, Store, User, now
from nardy.server.variantfacts import every_variant, facts_of

LIVE_IDLE = datetime.timedelta(minutes=15)
"""How long a game may go without a move and still be listed to watch: longer than a
player thinks, shorter than a game its players left stays unfinished."""


def game_view(store: Store, game: GameRow) -> dict[str, Any]:
    """What anyone allowed to see a game sees of it in the lobby."""
    names: dict[int | None, str | None] = {
        k: v for k, v in store.usernames([u for u in game.seats if u is not None]).items()
    }
    view = {
        "id": game.id,
        "kind": game.kind,
        "settings": dict(game.settings),
        "clock": None if game.clock is None else dict(game.clock),
        "status": game.status if game.unavailable is None else GameStatus.UNAVAILABLE,
        "unavailable": game.unavailable,
        "private": game.private,
        "practice": game.practice,
        "players": seats_view(game, names),
        "actions": game.seq,
        "result": None if game.result is None else dict(game.result),
        "quick": game.quick,
        "created-at": game.created_at.isoformat(),
        "finished-at": None if game.finished_at is None else game.finished_at.isoformat(),
    }
    if game.kind in TABLE_KINDS:  # a chouette table or consultation game: its people
        view.update(table_fields(store, game))
    return view


def lobby_error(exc: LobbyError) -> HTTPError:
    """A lobby's refusal as the HTTP error the client gets."""
    return HTTPError(exc.status, exc.code, str(exc))


async def _started(site: Site, game: GameRow) -> JSONResponse:
    await site.rooms.started(game)
    return JSONResponse(await off_loop(game_view, site.store, game))


IDEMPOTENCY_KEY = "idempotency-key"
"""The header that makes a request to create something safe to repeat: the same key from
the same user finds what the first request made."""


def request_key(request: Request) -> str | None:
    """The request's idempotency key (1-64 printable ASCII characters), if it has one."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    if key is None:
        return None
    if not (0 < len(key) <= 64 and key.isascii() and key.isprintable()):
        raise HTTPError(400, "malformed", "Idempotency-Key is 1-64 printable ASCII characters")
    return key


async def expire_seeks(site: Site) -> None:
    """Withdraw the seeks of creators gone for longer than the seek grace period (their
    rooms hear it): done before seeks are listed, joined or paired."""
    before = now() - datetime.timedelta(seconds=site.config.seek_grace_seconds)
    for game in await off_loop(site.store.expire_seeks, before):
        await site.rooms.cancelled(game)


@handles_errors
async def create_game(request: Request) -> Response:
    """A new seek, invitation or game against the bot; the creator sits in seat 0. The
    same request again with its ``Idempotency-Key`` answers 200 with the game it made."""
    site = site_of(request)
    user = await site.require_user(request)
    body = await json_body(request)
    key = request_key(request)
    try:
        created = await off_loop(Lobby(site.store).create, user, body, key)
    except LobbyError as exc:
        raise lobby_error(exc) from None
    if created.game.status == GameStatus.PLAYING and not created.repeated:
        await site.rooms.started(created.game)
    view = await off_loop(game_view, site.store, created.game)
    if created.invite_token is not None:
        view["invitation"] = created.invite_token
    return JSONResponse(view, 200 if created.repeated else 201)


@handles_errors
async def play_now(request: Request) -> Response:
    """Quick pairing: the game with a near-rated player waiting for the same one, or the
    user's own quick seek, waiting, with its rating range now (asked again to go on)."""
    site = site_of(request)
    user = await site.require_user(request)
    body = await json_body(request)
    key = request_key(request)
    await expire_seeks(site)
    try:
        answer = await off_loop(QuickPairing(site.store).play_now, user, body, key)
    except LobbyError as exc:
        raise lobby_error(exc) from None
    for game in answer.withdrawn:
        await site.rooms.cancelled(game)
    if answer.game.status == GameStatus.PLAYING:
        await site.rooms.started(answer.game)
    view = await off_loop(game_view, site.store, answer.game)
    view["range"] = answer.range
    # asked again often enough to pair soon after the range widens (every 5 s)
    view["ask-again"] = min(2.0, _here_every(site))
    return JSONResponse(view)


def _here_every(site: Site) -> float:
    """How often an open browser says it is here: three times in a seek's grace period."""
    return site.config.seek_grace_seconds / 3


@handles_errors
async def still_here(request: Request) -> Response:
    """The user's browser is still open: their public seeks stay (how many, and when to
    say so again)."""
    site = site_of(request)
    user = await site.require_user(request)
    seeks = await off_loop(site.store.touch_seeks, user.id)
    return JSONResponse({"seeks": seeks, "ask-again": _here_every(site)})


async def _sit(request: Request, sit: Callable[[Lobby, User, str], GameRow], key: str) -> Response:
    site = site_of(request)
    user = await site.require_user(request)
    try:
        game = await off_loop(sit, Lobby(site.store), user, request.path_params[key])
    except LobbyError as exc:
        raise lobby_error(exc) from None
    return await _started(site, game)


@handles_errors
async def join_game(request: Request) -> Response:
    """Take the free seat of an open seek (not one whose creator has gone)."""
    await expire_seeks(site_of(request))
    return await _sit(request, Lobby.join, "game")


@handles_errors
async def accept_invitation(request: Request) -> Response:
    """Take the free seat of an invitation (the token is the secret of its link)."""
    return await _sit(request, Lobby.accept, "token")


def _number(text: str, low: int, high: int) -> int | None:
    """The whole number ``low``-``high`` a query parameter writes in ASCII digits, else None
    (``isdigit`` alone passes "²" and 5000 digits, which ``int`` refuses)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(high))):
        return None
    number = int(text)
    return number if low <= number <= high else None


def _length(text: str | None) -> int | None:
    if text is None:
        return None
    low, high = BOUNDS["match_length"]
    length = _number(text, low, high)
    if length is None:
        raise HTTPError(400, "malformed", f"length is {low}-{high} (0 for money play)")
    return length


@handles_errors
async def seeks(request: Request) -> Response:
    """Open seeks, filtered by ``?variant=`` and ``?length=``."""
    site = site_of(request)
    length = _length(request.query_params.get("length"))
    await expire_seeks(site)
    found = await off_loop(site.store.seeks, request.query_params.get("variant"), length)
    return JSONResponse([await off_loop(game_view, site.store, g) for g in found])


@handles_errors
async def live(request: Request) -> Response:
    """Public games being played, to watch: those someone moved in within
    :data:`LIVE_IDLE`."""
    site = site_of(request)
    found = await off_loop(site.store.live_games, now() - LIVE_IDLE)
    return JSONResponse([await off_loop(game_view, site.store, g) for g in found])


async def variant_rules(request: Request) -> Response:
    """Every variant's rule facts (nardy.server.variantfacts), for a lobby to offer them."""
    return JSONResponse(every_variant())


async def _visible_game(request: Request) -> GameRow:
    """The game of the path, if the requester may see it; else 404 as if it did not exist."""
    site = site_of(request)
    user = await site.user(request)
    found = await off_loop(site.store.game, request.path_params["game"])
    if found is None or not visible_to(found, user):
        raise HTTPError(404, "no-such-game", "no game has this id")
    return found


@handles_errors
async def game(request: Request) -> Response:
    """One game, for whoever may see it (a private unfinished game only to its players)."""
    found = await _visible_game(request)
    return JSONResponse(await off_loop(game_view, site_of(request).store, found))


@handles_errors
async def my_games(request: Request) -> Response:
    """The signed-in user's games, the newest first, with the rating change of each."""
    site = site_of(request)
    user = await site.require_user(request)
    found = await off_loop(site.store.games_of, user.id)
    return JSONResponse([await _with_rating(site, g, user.id) for g in found])


async def _with_rating(site: Site, game: GameRow, user_id: int) -> dict[str, Any]:
    """The game's view with the user's rating change, where the game was rated for them
    (shown as a profile shows a rating)."""
    view = await off_loop(game_view, site.store, game)
    changes = await off_loop(site.store.rating_changes_of, game.id)
    if user_id in changes:
        before, after = changes[user_id]
        view["rating"] = {"before": shown(before), "after": shown(after)}
    return view


async def game_and_match(request: Request) -> tuple[GameRow, Match]:
    """The game of the path, if the requester may see it, and its match once started (the
    replay's endpoints and the analysis's share it)."""
    found = await _visible_game(request)
    if found.kind != GameKind.MATCH:  # a table's game object is a chouette or a consultation
        raise HTTPError(404, "not-a-match", "a table has no two-player match to show")
    room = await site_of(request).rooms.get(found.id)
    if room is None or room.match is None:
        raise HTTPError(404, "not-started", "the game has not started")
    return found, room.match


async def _match_of(request: Request) -> Match:
    return (await game_and_match(request))[1]


@handles_errors
async def record_json(request: Request) -> Response:
    """The game's records (docs/records.md), one per game of the match, as a JSON list."""
    match = await _match_of(request)
    headers = {"Content-Disposition": f'attachment; filename="{request.path_params["game"]}.json"'}
    return JSONResponse(match_records(match), headers=headers)


@handles_errors
async def record_mat(request: Request) -> Response:
    """The match as a GNU Backgammon / Jellyfish ``.mat`` file."""
    match = await _match_of(request)
    try:
        text = export_mat(match)
    except NardyError as exc:  # a variant or a game the format cannot hold
        raise HTTPError(409, "not-exportable", str(exc)) from None
    headers = {"Content-Disposition": f'attachment; filename="{request.path_params["game"]}.mat"'}
    return PlainTextResponse(text, headers=headers)


@handles_errors
async def cancel_game(request: Request) -> Response:
    """The creator withdraws a seek or invitation that nobody has joined."""
    site = site_of(request)
    user = await site.require_user(request)
    try:
        game = await off_loop(Lobby(site.store).cancel, user, request.path_params["game"])
    except LobbyError as exc:
        raise lobby_error(exc) from None
    await site.rooms.cancelled(game)
    return JSONResponse(await off_loop(game_view, site.store, game))


HISTORY_PAGE = 20
"""Games per page of a match history, unless the request asks for another number."""
HISTORY_PAGE_MAX = 100


def _whole(request: Request, name: str, default: int, highest: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    number = _number(text, 1, highest)
    if number is None:
        raise HTTPError(400, "malformed", f"{name} is a whole number from 1 to {highest}")
    return number


@handles_errors
async def user_games(request: Request) -> Response:
    """A user's match history, public to anyone: their finished games, the last finished
    first, ``?page=`` by ``?per-page=`` (default ``HISTORY_PAGE``), each with the user's
    rating change."""
    site = site_of(request)
    page = _whole(request, "page", 1, 1_000_000)
    size = _whole(request, "per-page", HISTORY_PAGE, HISTORY_PAGE_MAX)
    user = await off_loop(site.store.user_by_name, request.path_params["username"])
    if user is None:
        raise HTTPError(404, "no-such-user", "no user has this name")
    found = await off_loop(site.store.finished_games_of, user.id, size + 1, (page - 1) * size)
    views = [await _with_rating(site, g, user.id) for g in found[:size]]
    return JSONResponse({"games": views, "page": page, "more": len(found) > size})


@handles_errors
async def replay(request: Request) -> Response:
    """What the replay viewer steps through: the game, its variant's rule facts (what the
    board is drawn with) and each game of its match, turn by turn (docs/protocol.md,
    "Replay")."""
    found, match = await game_and_match(request)
    site = site_of(request)
    return JSONResponse(
        {
            "game": await off_loop(game_view, site.store, found),
            "rules": facts_of(match.settings.variant),
            "games": replay_view(match),
        }
    )


def routes() -> list[Route]:
    """The lobby's part of the HTTP API."""
    return [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/live", live, methods=["GET"]),
        Route("/api/quick", play_now, methods=["POST"]),
        Route("/api/me/here", still_here, methods=["POST"]),
        Route("/api/seeks", seeks, methods=["GET"]),
        Route("/api/variants", variant_rules, methods=["GET"]),
        Route("/api/games/{game}", game, methods=["GET"]),
        Route("/api/games/{game}/join", join_game, methods=["POST"]),
        Route("/api/games/{game}/cancel", cancel_game, methods=["POST"]),
        Route("/api/games/{game}/replay", replay, methods=["GET"]),
        Route("/api/games/{game}/record.json", record_json, methods=["GET"]),
        Route("/api/games/{game}/record.mat", record_mat, methods=["GET"]),
        Route("/api/invitations/{token}", accept_invitation, methods=["POST"]),
        Route("/api/me/games", my_games, methods=["GET"]),
        Route("/api/users/{username}/games", user_games, methods=["GET"]),
    ]
