"""Matches, money sessions and long-nardy series: a run of games under one set of settings
(RULES.md 1.6, 3.1, 3.4).

The score is derived from the games' results, never kept apart from them, so a match
replayed from its games always has the right score.

A match is driven like a game, through :meth:`Match.apply`: the first game starts with the
first action, and each next game starts by itself when one ends (a
:class:`~nardy.core.events.GameStarted` event), until the match is over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nardy.core import actions as act
from nardy.core import events as ev
from nardy.core.awaiting import Awaiting
from nardy.core.dice import Dice, SecretDice
from nardy.core.errors import ErrorCode, InvalidInputError, NardyError, reading
from nardy.core.game import SNAPSHOT_VERSION, Cube, Game, GameError, Phase
from nardy.core.position import Position
from nardy.core.settings import FirstMove, Settings


class Match:
    """A match to ``match-length`` points, or money play / an unlimited series when it is 0.

    Players are 0 and 1. A money session ends when a player leaves (:meth:`leave`) or at the
    limits agreed at creation (``limit-points`` difference, ``limit-minutes`` of play).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        dice: Dice | None = None,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        clock: Callable[[], float] = time.monotonic,
        *,
        start_score: tuple[int, int] = (0, 0),
        crawford_played: bool = False,
    ) -> None:
        self.settings = (settings or Settings()).resolve()
        length = self.settings.match_length
        if min(start_score) < 0 or (length and max(start_score) >= length):
            raise GameError(
                f"a match to {length} cannot start at {start_score[0]}-{start_score[1]}"
            )
        self.start_score = start_score
        """The score before the first game here (RULES.md 4: a match taken up at any score)."""
        self.crawford_played = crawford_played
        """Whether, at a start score with a player one point away, the Crawford game is over."""
        self.dice = dice or SecretDice()
        self.players = players
        self.games: list[Game] = []
        self._clock = clock
        self._started = clock()
        self._left: int | None = None

    @property
    def length(self) -> int:
        """Points to win; 0 for money play or an unlimited series."""
        return self.settings.match_length

    @property
    def game(self) -> Game | None:
        """The game being played, or the last one."""
        return self.games[-1] if self.games else None

    @property
    def score(self) -> tuple[int, int]:
        """Points of each player from the finished games."""
        return self._score(len(self.games))

    def _score(self, games: int) -> tuple[int, int]:
        points = list(self.start_score)
        for game in self.games[:games]:
            if game.result is not None and game.result.winner is not None:
                points[game.result.winner] += game.result.points
        return points[0], points[1]

    def is_crawford(self, index: int | None = None) -> bool:
        """Whether game ``index`` (default: the next one) is the Crawford game: the one game
        after a player first reaches match-length - 1, with no doubling (RULES.md 1.6)."""
        index = len(self.games) if index is None else index
        if not (self.settings.crawford and self.length > 1 and self.settings.cube):
            return False
        away = self.length - 1

        def someone_at(score: tuple[int, int]) -> bool:
            return away in score and max(score) < self.length

        if not someone_at(self._score(index)) or any(
            someone_at(self._score(i)) for i in range(index)
        ):
            return False
        return not (self.crawford_played and someone_at(self.start_score))

    @property
    def over(self) -> bool:
        """Whether the match or session has ended."""
        if self._left is not None:
            return True
        if self.game is not None and not self.game.over:
            return False
        score = self.score
        if self.length:
            return max(score) >= self.length
        limit = self.settings.limit_points
        if limit and abs(score[0] - score[1]) >= limit:
            return True
        minutes = self.settings.limit_minutes
        return bool(minutes) and self._clock() - self._started >= 60 * minutes

    @property
    def winner(self) -> int | None:
        """The winner of a finished match or session (None while going on, or level)."""
        if not self.over:
            return None
        a, b = self.score
        return None if a == b else (0 if a > b else 1)

    def leave(self, player: int) -> None:
        """End a money session (or an unlimited series) because ``player`` leaves."""
        if self.length:
            raise GameError("a match is played to its end; resign the game instead")
        if player not in (0, 1):
            raise GameError(f"players are 0 and 1, not {player!r}")
        self._left = player

    def apply(self, action: act.Action) -> tuple[ev.Event, ...]:
        """Take ``action`` in the game under way (starting the first game if none has
        started) and return the events, with :class:`~nardy.core.events.GameStarted` where
        a game began; when a game ends and the match goes on, the next game starts at once.
        ``Leave`` ends a money session or series; a ``Forfeit`` loses the match (in money
        play the game, and for absence the session too). A refused action changes
        nothing."""
        if isinstance(action, act.Leave):
            player = action.player
            if type(player) is not int:
                raise GameError(
                    f"players are 0 and 1, not {player!r}", code=ErrorCode.INVALID_INPUT
                )
            self.leave(player)
            return (ev.PlayerLeft(player),)
        if self.over:
            raise GameError("the match is over")
        game = self.game
        fresh = game is None or game.over
        events: list[ev.Event] = []
        if game is None or game.over:
            game = self.new_game()
            events.append(self._game_started(game))
        try:
            events += game.apply(action)
        except NardyError:
            if fresh:
                self.games.pop()  # refused: as if nothing had started
            raise
        if isinstance(action, act.Forfeit) and action.reason == "absent" and not self.length:
            # Claimed for absence: the absent player is gone from the session too.
            assert type(action.player) is int
            self._left = action.player
            events.append(ev.PlayerLeft(action.player))
        if game.over and not self.over:
            events.append(self._game_started(self.new_game()))
        return tuple(events)

    def _game_started(self, game: Game) -> ev.GameStarted:
        first = None if game.phase is Phase.OPENING else game.first_player
        return ev.GameStarted(len(self.games), game.score, game.crawford, first)

    def awaiting(self, *, moves: bool = True) -> Awaiting:
        """Who must act now: the game under way's :meth:`Game.awaiting`, or that of the game
        that the first action will start; nobody once the match is over."""
        if self.over:
            return Awaiting("over", ())
        game = self.game
        if game is None or game.over:  # the first action will start the next game
            game = self._game()
        return game.awaiting(moves=moves)

    def snapshot(self) -> dict[str, Any]:
        """The whole match as JSON-serialisable data: settings, players, the start score,
        every game's :meth:`Game.snapshot` (the last one possibly in the middle of a turn),
        whether a player left and the minutes played so far."""
        return {
            "snapshot": SNAPSHOT_VERSION,
            "settings": self.settings.to_dict(),
            "variant": self.settings.variant,
            "players": list(self.players),
            "start-score": list(self.start_score),
            "crawford-played": self.crawford_played,
            "games": [game.snapshot() for game in self.games],
            "left": self._left,
            "elapsed": self._clock() - self._started,
        }

    @classmethod
    def restore(
        cls,
        snapshot: dict[str, Any],
        dice: Dice | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Match:
        """The match a :meth:`snapshot` describes, going on with ``dice``; the clock of a
        session with a time limit goes on from the time already played. Raises
        :class:`InvalidInputError` for data that is not a match snapshot."""
        with reading("a match snapshot"):
            if snapshot.get("snapshot") != SNAPSHOT_VERSION:
                raise InvalidInputError(f"not a match snapshot of version {SNAPSHOT_VERSION}")
            settings = Settings.from_dict(snapshot["settings"], snapshot["variant"])
            a, b = snapshot["players"]
            score = snapshot["start-score"]
            match = cls(
                settings,
                dice,
                (str(a), str(b)),
                clock,
                start_score=(int(score[0]), int(score[1])),
                crawford_played=bool(snapshot["crawford-played"]),
            )
            match.games = [Game.restore(g, match.dice) for g in snapshot["games"]]
            left = snapshot["left"]
            match._left = None if left is None else int(left)
            match._started = clock() - float(snapshot["elapsed"])
        return match

    def new_game(
        self,
        *,
        position: Position | None = None,
        first_player: int | None = None,
        cube: Cube | None = None,
        dice: Dice | None = None,
    ) -> Game:
        """Start the next game: Crawford as the score says, and in a long-nardy series the
        first player by ``first-move-in-series`` (RULES.md 3.1). ``position`` (with the
        ``first_player`` on roll), ``cube`` and ``dice`` start it from a chosen position
        (RULES.md 4)."""
        if self.game is not None and not self.game.over:
            raise GameError("the current game is not over")
        if self.over:
            raise GameError("the match is over")
        game = Game(
            self.settings,
            dice or self.dice,
            crawford=self.is_crawford(),
            score=self.score,
            first_player=self._next_first_player() if first_player is None else first_player,
            position=position,
            cube=cube,
        )
        self.games.append(game)
        return game

    @property
    def upcoming(self) -> Game:
        """The next game as :meth:`new_game` would start it, not started: what a board shows
        before the first action of the match (its start position, nobody on roll yet)."""
        return self._game()

    def _game(self) -> Game:
        """The next game as :meth:`new_game` would start it, not started."""
        return Game(self.settings, self.dice, first_player=self._next_first_player())

    def _next_first_player(self) -> int | None:
        previous = self.game
        if previous is None or "first-move-in-series" not in self.settings.rules.own_settings:
            return None  # an opening roll decides (RULES.md 1.1); a series decides in 3.1
        assert previous.result is not None and previous.first_player is not None
        winner = previous.result.winner
        if self.settings.first_move_in_series == FirstMove.LOSER and winner is not None:
            return 1 - winner
        return 1 - previous.first_player  # alternate (and after a draw)
