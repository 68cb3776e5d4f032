"""The lobby's chouette tables and consultation games (RULES.md 1.7, 1.8): created with
their seats and bots, filled by people taking the free seats, started when full.

A **chouette table** has 3-8 seats, some of them the creator's bots (one level for all); the
creator takes the first seat and the others are free. It starts when every seat is taken;
afterwards, as RULES.md 1.7 has it, people join (at the end of the team line, while there is
room for eight) and leave only between games, which the room decides
(:mod:`nardy.server.room.table_host`).

A **consultation game** is two sides of two or more people each (the creator is side 0's
captain; each side's first member is its captain), or side 1 is the bot alone. It starts
when both sides are full.

Each person's name in the core's :class:`~nardy.core.chouette.Chouette` or
:class:`~nardy.core.team.Consultation` is ``u`` and their user id
(:func:`~nardy.server.store.member_name`); each bot's is ``bot`` and its number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nardy.core.chouette import Chouette
from nardy.core.dice import SeededDice
from nardy.core.settings import Settings
from nardy.core.team import Consultation
from nardy.server.games import TABLE_KINDS, GameKind, GameStatus
from nardy.server.lobby.matches import (
    DEFAULT_BOT_DELAY_MS,
    LobbyError,
    Repeated,
    bot_choice,
    core_accepts,
    new_game_id,
    once,
    refuse_unavailable,
    settings_from,
)
from nardy.server.store.store import ConflictError, GameRow, Store, TableMember, User

CHOUETTE_SEATS = (3, 8)
"""The fewest and most players at a chouette table."""
MIN_SIDE = 2
"""The fewest people on a side of a consultation game (unless the side is the bot)."""
MAX_SIDE = 4
"""The most people on a side of a consultation game."""


def bot_names(count: int) -> list[str]:
    """The names of a table's bots in the core's chouette or consultation."""
    return [f"bot{n}" for n in range(1, count + 1)]


@dataclass(frozen=True, slots=True)
class Seating:
    """A table's seats as the lobby keeps them (``games.seating``): a chouette's number of
    seats and of bots, or a consultation's people per side (0 for the bot's side)."""

    kind: GameKind
    seats: int = 0
    bots: int = 0
    sides: tuple[int, int] = (0, 0)

    @classmethod
    def of(cls, game: GameRow) -> Seating:
        data = game.seating or {}
        if game.kind == GameKind.CHOUETTE:
            return cls(GameKind.CHOUETTE, seats=int(data["seats"]), bots=int(data["bots"]))
        a, b = data["sides"]
        return cls(GameKind.CONSULTATION, sides=(int(a), int(b)), bots=0 if b else 1)

    def to_json(self) -> dict[str, Any]:
        if self.kind == GameKind.CHOUETTE:
            return {"seats": self.seats, "bots": self.bots}
        return {"sides": list(self.sides)}

    @property
    def people(self) -> int:
        """How many people sit at the table when it is full."""
        return self.seats - self.bots if self.kind == GameKind.CHOUETTE else sum(self.sides)

    def room_on(self, side: int | None) -> int:
        """How many people sit on ``side`` of a consultation (None: the chouette) when full."""
        return self.people if side is None else self.sides[side]


def _count(value: object, name: str, low: int, high: int) -> int:
    """A number of seats, bots or people, checked."""
    if type(value) is not int or not low <= value <= high:
        raise LobbyError(400, "malformed", f"{name} is a whole number {low}-{high}")
    return value


def _check_core(kind: GameKind, settings: Settings, seating: Seating) -> None:
    """The core's own checks of a table's settings (a chouette is money play, no beavers),
    made once on stand-in names so that a table the core would refuse is never created."""
    if kind == GameKind.CHOUETTE:
        core_accepts(
            lambda: Chouette([f"p{i}" for i in range(seating.seats)], settings, SeededDice(0))
        )
    else:
        core_accepts(lambda: Consultation((["a", "b"], ["c"]), settings))


class TableLobby:
    """Creating chouette tables and consultation games and taking their seats."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(
        self, user: User, body: Mapping[str, Any], request_key: str | None = None
    ) -> GameRow | Repeated:
        """A table from ``{"kind": "chouette", "settings", "seats": 3-8, "bots": N, "bot":
        LEVEL, "bot-delay-ms"}`` or ``{"kind": "consultation", "settings", "sides": [A, B],
        "bot", "bot-delay-ms"}`` (B = 0: side 1 is the bot); the creator takes the first
        seat, and a table with no other free seat starts at once. Repeated with the same
        idempotency key ``request_key``, the table the first request made."""
        return once(self.store, user, request_key, lambda key: self._create(user, body, key))

    def _create(self, user: User, body: Mapping[str, Any], request_key: str | None) -> GameRow:
        allowed = {"kind", "settings", "seats", "bots", "sides", "bot", "bot-delay-ms"}
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise LobbyError(400, "malformed", f"unknown field(s): {', '.join(unknown)}")
        asked = body.get("kind")
        if asked not in TABLE_KINDS:
            raise LobbyError(400, "malformed", f"kind is one of {', '.join(TABLE_KINDS)}")
        kind = GameKind(asked)
        settings = settings_from(body.get("settings", {}))
        if kind == GameKind.CHOUETTE:
            if "sides" in body:
                raise LobbyError(400, "malformed", "a chouette has seats, not sides")
            seats = _count(body.get("seats"), "seats", *CHOUETTE_SEATS)
            bots = _count(body.get("bots", 0), "bots", 0, seats - 1)
            seating = Seating(kind, seats=seats, bots=bots)
        else:
            if "seats" in body or "bots" in body:
                raise LobbyError(400, "malformed", "a consultation game has sides, not seats")
            sides = body.get("sides")
            if not (isinstance(sides, list) and len(sides) == 2):
                raise LobbyError(400, "malformed", "sides is [people on side 0, on side 1]")
            first = _count(sides[0], "side 0", MIN_SIDE, MAX_SIDE)
            second = _count(sides[1], "side 1", 0, MAX_SIDE)
            if second == 1 or (second == 0) != ("bot" in body):
                raise LobbyError(
                    400, "malformed", f"side 1 is {MIN_SIDE}-{MAX_SIDE} people, or 0 and a bot"
                )
            seating = Seating(kind, sides=(first, second), bots=0 if second else 1)
        _check_core(kind, settings, seating)
        bot: str | None = None
        delay = DEFAULT_BOT_DELAY_MS
        if seating.bots:
            bot, delay = bot_choice(body)
        elif "bot" in body or "bot-delay-ms" in body:
            raise LobbyError(400, "malformed", "bot settings are for a table with bots")
        full = seating.people == 1  # a chouette of the creator and bots
        return self.store.create_game(
            new_game_id(),
            settings.to_dict(),
            user.id,
            (user.id, None),
            status=GameStatus.PLAYING if full else GameStatus.OPEN,
            private=False,
            bot=bot,
            bot_delay_ms=delay,
            kind=kind,
            seating=seating.to_json(),
            request_key=request_key,
        )

    def table(self, game_id: str) -> GameRow:
        """The public chouette table or consultation game with this id."""
        game = self.store.game(game_id)
        if game is None or game.kind not in TABLE_KINDS or game.private:
            raise LobbyError(404, "no-such-game", "no table has this id")
        refuse_unavailable(game)
        return game

    def join(self, user: User, game_id: str, body: Mapping[str, Any]) -> GameRow:
        """Take a free seat of a table that has not started (``{"side": 0 | 1}`` in a
        consultation); the table starts when it is full. Joining a chouette under way is the
        room's (:meth:`nardy.server.room.actor.Room.seat`)."""
        game = self.table(game_id)
        unknown = sorted(set(body) - {"side"})
        if unknown:
            raise LobbyError(400, "malformed", f"unknown field(s): {', '.join(unknown)}")
        members = self.store.members(game.id)
        if any(m.user_id == user.id for m in members):
            raise LobbyError(409, "own-game", "you have (or had) a seat at this table")
        if game.status == GameStatus.CANCELLED:
            raise LobbyError(409, "cancelled", "its creator has withdrawn this table")
        if game.status != GameStatus.OPEN:
            raise LobbyError(409, "game-full", "the table has started")
        seating = Seating.of(game)
        side: int | None = None
        if game.kind == GameKind.CONSULTATION:
            side = body.get("side")
            if side not in (0, 1):
                raise LobbyError(400, "malformed", "side is 0 or 1")
        elif "side" in body:
            raise LobbyError(400, "malformed", "a chouette has no sides")
        if len([m for m in members if m.side == side]) >= seating.room_on(side):
            raise LobbyError(409, "game-full", "this side has no free seat")
        full = len(members) + 1 == seating.people
        try:
            return self.store.add_member(game.id, user.id, side, start=full)
        except ConflictError:
            raise LobbyError(409, "game-full", "the table has no free seat") from None


def free_seats(game: GameRow, members: list[TableMember]) -> int:
    """The seats a person may still take: before the start, the seats not yet taken; in a
    chouette under way, the room left up to eight players; none in a consultation game
    under way or a finished table."""
    seating = Seating.of(game)
    seated = [m for m in members if m.seated]
    if game.status == GameStatus.OPEN:
        return seating.people - len(seated)
    if game.status == GameStatus.PLAYING and game.kind == GameKind.CHOUETTE:
        return CHOUETTE_SEATS[1] - len(seated) - seating.bots
    return 0


def table_fields(store: Store, game: GameRow) -> dict[str, Any]:
    """What the lobby shows of a table besides what every game shows: its seats and bots,
    each person at it with their side, whether still seated, and their own result, and the
    seats still free."""
    members = store.members(game.id)
    names = store.usernames([m.user_id for m in members])
    return {
        "players": [],  # a table's people are its members, not two seats
        "seating": Seating.of(game).to_json(),
        "bot": game.bot,
        "members": [
            {
                "id": m.user_id,
                "username": names.get(m.user_id),
                "name": m.name,
                "side": m.side,
                "seated": m.seated,
                "score": m.score,
            }
            for m in members
        ],
        "free": free_seats(game, members),
    }
