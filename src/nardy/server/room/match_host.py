"""The host of a two-seat match (or money session): a :class:`~nardy.core.match.Match`,
its players' names, its fair dice (:mod:`nardy.server.gamedice`) and its ratings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from nardy.core.actions import Action, Player
from nardy.core.events import Event
from nardy.core.fair_dice import FairDice
from nardy.core.match import Match
from nardy.core.settings import Settings
from nardy.server import botplay, gamedice, roomview
from nardy.server.games import GameKind, GameStatus
from nardy.server.http import off_loop
from nardy.server.lobby.matches import seats_view
from nardy.server.room.host import Host, Stored, committed_of, fresh
from nardy.server.room.ratings import MatchRatings
from nardy.server.store import checkpoints
from nardy.server.store.store import GameRow, Store


class MatchHost(Host):
    """A two-player match: seats 0 and 1, a person or the bot in each."""

    kind = GameKind.MATCH

    def __init__(self, store: Store, row: GameRow) -> None:
        super().__init__(store, row)
        self.game: Match | None = None
        self.names: tuple[str | None, str | None] = (None, None)
        self.ratings = MatchRatings(store, row.id)

    @property
    def match(self) -> Match | None:
        return self.game

    @property
    def held(self) -> Match | None:
        return self.game

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    def two_seat(self, seat: Player | None) -> int | None:
        assert seat is None or type(seat) is int, "a match's seats are 0 and 1"
        return seat

    def seat_of(self, row: GameRow, user_id: int) -> Player | None:
        return row.seat_of(user_id)

    def state(self, row: GameRow) -> roomview.RoomState:
        """The players, and once the match exists its board, who may act, the score and the
        public dice."""
        public: dict[str, Any] = {
            "board": None,
            "score": None,
            "length": self.length(row),
            "players": seats_view(row, dict(zip(row.seats, self.names, strict=True))),
            "dice": None,
        }
        actors: roomview.Actors = ()
        match = self.game
        if match is not None:
            public["board"], actors = roomview.board_of(match)
            public["score"] = list(match.score)
            public["dice"] = gamedice.public(match)
        return roomview.RoomState(public, actors)

    def apply(self, action: Action) -> tuple[Event, ...]:
        assert self.game is not None
        events = self.game.apply(action)
        gamedice.prepare_next(self.game, self.game_id)
        return events

    def stored(self) -> Stored:
        match = self.game
        assert match is not None
        result: dict[str, Any] | None = None
        if match.over:
            result = {"winner": match.winner, "score": list(match.score)}
            last = match.games[-1].result if match.games else None
            if last is not None and last.reason is not None:
                result["forfeit"] = last.reason  # why the loser lost, kept for the history
        return match.snapshot(), gamedice.dice_state(match), result

    def take_dice(self, dice: Mapping[str, Any]) -> None:
        assert self.game is not None
        gamedice.take_next(self.game, dice)

    def rebuild(self) -> None:
        """Back to the checkpoint and the actions since, replayed (the time played goes on)."""
        assert self.committed is not None
        old, self.game = self.game, checkpoints.match_of(self.committed)
        checkpoints.keep_time(old, self.game)

    async def load(self, row: GameRow, known: GameRow | None) -> None:
        """The players' names (read again every time: a guest who claims an account keeps
        the seat under a new name) and the match as committed with the last action, or new
        before the first."""
        names = await off_loop(self.store.usernames, [u for u in row.seats if u is not None])
        first, second = (None if u is None else names.get(u) for u in row.seats)
        self.names = (first, second)
        if known is None:
            await self.ratings.load()
        if row.status in (GameStatus.PLAYING, GameStatus.FINISHED):
            committed = await committed_of(self.store, row)
            if committed is not None:  # nothing re-rolled
                self.game, self.committed = checkpoints.match_of(committed), committed
            else:
                self.game = await self._new_match(row)
                self.committed = fresh(self.stored())

    async def _new_match(self, row: GameRow) -> Match:
        """The match before its first action, its players named as the records write them (a
        bot by its level), its first game's dice kept first."""
        settings = Settings.from_dict(dict(row.settings))
        first, second = (
            name or (f"nardy ({row.bot})" if row.bot else f"Player {seat}")
            for seat, name in enumerate(self.names)
        )
        match = Match(settings, players=(first, second))
        dice = row.dice
        if dice is None:
            # The first game's commitment is kept before its first roll can be made; of
            # two processes preparing it at once, both deal from the one kept first.
            match.dice = gamedice.first_dice(row.id)
            dice = await off_loop(self.store.first_dice, row.id, gamedice.dice_state(match))
        match.dice = FairDice.from_state(dice["next"])
        return match

    def bot_players(self, row: GameRow) -> list[Player]:
        if row.bot is None:
            return []
        bots: list[Player] = [s for s, holder in enumerate(row.seats) if holder is None]
        return bots[:1]

    def bot_waits(self, player: Player) -> bool:
        match = self.game
        return match is not None and not match.over and player in match.awaiting().players

    def bot_job(self, row: GameRow, player: Player) -> Callable[[], Action | None]:
        assert self.committed is not None and row.bot is not None
        assert isinstance(player, int)
        return functools.partial(botplay.decide, self.committed, player, row.bot)

    async def settle(self, row: GameRow) -> None:
        if self.game is not None:
            await self.ratings.rate(self.game, row)
