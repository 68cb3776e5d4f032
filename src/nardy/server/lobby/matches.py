"""The lobby: games created with every setting of RULES.md, open seeks that others join,
private invitations by an unguessable link, games against the bot, the live games to watch.

The settings are the core's :class:`~nardy.core.settings.Settings`: the lobby only checks
who may sit where.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from nardy.core.errors import NardyError
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.engine.bots import BOTS
from nardy.server.clocks import ClockError, clock_from
from nardy.server.games import TABLE_KINDS, WAITING, GameKind, GameStatus
from nardy.server.store.store import ConflictError, GameRow, Store, User

OPPONENTS = ("open", "invite", "bot")
BODY_FIELDS = frozenset({"settings", "opponent", "bot", "bot-delay-ms", "practice", "clock"})
"""The fields of a request for a new match (:meth:`Lobby.create`)."""
BOT_DELAY_MS = (0, 10_000)
DEFAULT_BOT_DELAY_MS = 1_000
DEFAULT_BOT = "advanced"


class LobbyError(ValueError):
    """A lobby request that cannot be granted; ``code`` names why (``invalid-settings`` is
    the core's code for settings the rules refuse) and ``status`` the HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass(frozen=True, slots=True)
class Created:
    """A new game, and for an invitation the secret link's token (shown once, to its
    creator; the database keeps only its hash); ``repeated`` when the request was made
    before (its idempotency key found the game it made, whose token is not shown again)."""

    game: GameRow
    invite_token: str | None = None
    repeated: bool = False


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Repeated:
    """A request made before, with the same idempotency key: the game it made then."""

    game: GameRow


def once(
    store: Store, user: User, request_key: str | None, make: Callable[[str | None], T]
) -> T | Repeated:
    """What ``make`` makes, given the request's idempotency key to store with the game; or,
    where this user's request with the same key came before (a double click, a retry), the
    game that one made: the same request twice, even at once, makes one game."""
    if request_key is None:
        return make(None)
    first = store.game_by_request(user.id, request_key)
    if first is not None:
        return Repeated(first)
    try:
        return make(request_key)
    except ConflictError:  # the same request, twice at once: the first one's game
        first = store.game_by_request(user.id, request_key)
        if first is None:
            raise
        return Repeated(first)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_game_id() -> str:
    """A random public id for a game."""
    return secrets.token_urlsafe(9)


def core_accepts(build: Callable[[], object]) -> None:
    """Build the core's game object once before a game is stored (a match, a chouette...),
    so that nothing the core refuses is stored as a game no room can be built for."""
    try:
        build()
    except NardyError as exc:
        raise LobbyError(400, "invalid-settings", str(exc)) from None


def settings_from(data: object) -> Settings:
    """The core's settings from their RULES.md names, resolved and checked."""
    if not isinstance(data, dict):
        raise LobbyError(400, "invalid-settings", "settings are a JSON object of RULES.md names")
    try:
        return Settings.from_dict(data).resolve()
    except (NardyError, TypeError) as exc:
        raise LobbyError(400, "invalid-settings", str(exc)) from None


def match_wanted(body: Mapping[str, Any]) -> tuple[Settings, dict[str, Any] | None]:
    """The settings and the clock (its stored form; None: none) of the two-player game a
    request asks for, checked: the core builds the match once, so nothing it refuses is
    stored."""
    settings = settings_from(body.get("settings", {}))
    try:
        clock = clock_from(body.get("clock"))
    except ClockError as exc:
        raise LobbyError(400, "invalid-clock", str(exc)) from None
    core_accepts(lambda: Match(settings))  # the clock's values are bounded already
    return settings, None if clock is None else dict(clock.to_json())


def bot_choice(body: Mapping[str, Any]) -> tuple[str, int]:
    """The bot's level and its delay before each action (ms) that a request asks for,
    checked; the defaults where it names none."""
    bot = body.get("bot", DEFAULT_BOT)
    if bot not in BOTS:
        raise LobbyError(400, "malformed", f"bot is one of {', '.join(BOTS)}")
    delay = body.get("bot-delay-ms", DEFAULT_BOT_DELAY_MS)
    low, high = BOT_DELAY_MS
    if type(delay) is not int or not low <= delay <= high:
        raise LobbyError(400, "malformed", f"bot-delay-ms is {low}-{high}")
    return bot, delay


class Lobby:
    """Creating and joining games over the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(
        self, user: User, body: Mapping[str, Any], request_key: str | None = None
    ) -> Created:
        """A game from a request ``{"settings": {...}, "opponent": "open" | "invite" |
        "bot", "bot": LEVEL, "bot-delay-ms": N, "practice": BOOL, "clock": CLOCK}``; the
        creator takes seat 0. The clock (:func:`nardy.server.clocks.clock_from`) is none
        unless asked for; a game against the bot is a practice game (hints, unrated) only
        when asked for. A request repeated with the same idempotency key ``request_key`` (a
        double click) makes no second game: it finds the first."""
        made = once(self.store, user, request_key, lambda key: self._create(user, body, key))
        return Created(made.game, repeated=True) if isinstance(made, Repeated) else made

    def _create(self, user: User, body: Mapping[str, Any], request_key: str | None) -> Created:
        unknown = sorted(set(body) - BODY_FIELDS)
        if unknown:
            raise LobbyError(400, "malformed", f"unknown field(s): {', '.join(unknown)}")
        settings, timed = match_wanted(body)
        opponent = body.get("opponent", "open")
        if opponent not in OPPONENTS:
            raise LobbyError(400, "malformed", f"opponent is one of {', '.join(OPPONENTS)}")
        stored = settings.to_dict()
        practice = body.get("practice", False)
        if type(practice) is not bool:
            raise LobbyError(400, "malformed", "practice is true or false")
        if opponent == "bot":
            bot, delay = bot_choice(body)
            game = self.store.create_game(
                new_game_id(),
                stored,
                user.id,
                (user.id, None),
                status=GameStatus.PLAYING,
                private=False,
                bot=bot,
                bot_delay_ms=delay,
                clock=timed,
                practice=practice,
                request_key=request_key,
            )
            return Created(game)
        if "bot" in body or "bot-delay-ms" in body or practice:
            raise LobbyError(
                400, "malformed", "bot settings and practice are for games against the bot"
            )
        if opponent == "invite":
            token = secrets.token_urlsafe(24)
            game = self.store.create_game(
                new_game_id(),
                stored,
                user.id,
                (user.id, None),
                status=GameStatus.INVITED,
                private=True,
                invite_hash=_hash(token),
                clock=timed,
                request_key=request_key,
            )
            return Created(game, token)
        game = self.store.create_game(
            new_game_id(),
            stored,
            user.id,
            (user.id, None),
            status=GameStatus.OPEN,
            private=False,
            clock=timed,
            request_key=request_key,
        )
        return Created(game)

    def join(self, user: User, game_id: str) -> GameRow:
        """Take the free seat of an open seek; the game starts."""
        game = self.store.game(game_id)
        if game is None or game.private or game.kind != GameKind.MATCH:
            raise LobbyError(404, "no-such-game", "no open game has this id")
        return self._sit(user, game)

    def accept(self, user: User, token: str) -> GameRow:
        """Take the free seat of the invitation whose link this is."""
        game = self.store.game_by_invite(_hash(token)) if len(token) < 100 else None
        if game is None:
            raise LobbyError(404, "no-such-game", "this invitation does not exist")
        return self._sit(user, game)

    def cancel(self, user: User, game_id: str) -> GameRow:
        """Withdraw the user's own seek, invitation, chouette table or consultation game
        while nobody has joined it."""
        game = self.store.game(game_id)
        if game is None or not visible_to(game, user):
            raise LobbyError(404, "no-such-game", "no game has this id")
        if game.creator_id != user.id:
            raise LobbyError(403, "not-creator", "only the player who created a game withdraws it")
        if game.status not in WAITING:
            raise LobbyError(409, "not-waiting", "the game is no longer waiting for an opponent")
        others = game.kind in TABLE_KINDS and any(
            m.user_id != user.id for m in self.store.members(game.id)
        )
        if others:  # the others who sat down have a seat there: the table is theirs too now
            raise LobbyError(409, "others-seated", "others have sat down at this table")
        try:
            return self.store.cancel_game(game.id, user.id)
        except ConflictError:  # an opponent sat down in the meantime
            raise LobbyError(
                409, "not-waiting", "the game is no longer waiting for an opponent"
            ) from None

    def _sit(self, user: User, game: GameRow) -> GameRow:
        refuse_unavailable(game)
        if game.status == GameStatus.CANCELLED:
            raise LobbyError(409, "cancelled", "its creator has withdrawn this game")
        if user.id in game.seats:
            raise LobbyError(409, "own-game", "you are already seated in this game")
        if game.status not in WAITING:
            raise LobbyError(409, "game-full", "the game has found its players")
        try:
            return self.store.take_seat(game.id, 1, user.id)
        except ConflictError:
            raise LobbyError(409, "game-full", "the game has found its players") from None


def unavailable_message(game: GameRow) -> str:
    """What a player hears of a game set aside: why, and that nothing else is affected."""
    return (
        f"this game is unavailable: the server cannot restore it ({game.unavailable});"
        " every other game goes on"
    )


def refuse_unavailable(game: GameRow) -> None:
    """No seat is taken at a game set aside (its data cannot be restored): 503, as the room
    and the replay answer."""
    if game.unavailable is not None:
        raise LobbyError(503, "game-unavailable", unavailable_message(game))


def seats_view(
    game: GameRow, names: Mapping[int | None, str | None]
) -> list[dict[str, Any] | None]:
    """Who sits where, as the lobby and the rooms show it: a user by id and name, the bot by
    its level, or None for a free seat."""
    players: list[dict[str, Any] | None] = []
    for seat, holder in enumerate(game.seats):
        if holder is not None:
            players.append({"seat": seat, "id": holder, "username": names.get(holder)})
        elif game.bot is not None:
            players.append({"seat": seat, "bot": game.bot})
        else:
            players.append(None)
    return players


def visible_to(game: GameRow, user: User | None) -> bool:
    """Whether this user may see the game: a public one anybody, a private one (an
    invitation) only its players while it is unfinished."""
    if not game.private or game.status == GameStatus.FINISHED:
        return True
    return user is not None and user.id in game.seats
