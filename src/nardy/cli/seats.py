"""The hands of whoever decides at the terminal: a :class:`Seat` makes every action a person
can type on behalf of the one who speaks, and the game (or the chouette around it) refuses,
with a :class:`~nardy.core.errors.NardyError` and changing nothing, an action that one may not
take now. :class:`PlayerSeat` is player 0 or 1 of a two-player game; the chouette's seat is
:class:`nardy.cli.chouette_cli.ChouetteSeat`."""

from __future__ import annotations

from typing import Protocol

from nardy.core.game import Game
from nardy.core.moves import Move, Play


class Seat(Protocol):
    """The hands of the one who decides now: every action a person can type, made on their
    behalf. The game (or the chouette around it) refuses, with a :class:`NardyError` and
    changing nothing, an action this one may not take now."""

    def roll(self) -> tuple[int, int]: ...
    def move(self, start: int, end: int) -> Move: ...
    def undo(self) -> None: ...
    def confirm(self) -> None: ...
    def play(self, play: Play | str) -> Play: ...
    def choose_double(self, die: int) -> None: ...
    def double(self) -> None: ...
    def take(self) -> None: ...
    def pass_double(self) -> None: ...
    def beaver(self) -> None: ...
    def resign(self, level: int) -> None: ...
    def accept_resignation(self) -> None: ...
    def decline_resignation(self) -> None: ...
    def surrender(self) -> None: ...


class PlayerSeat:
    """Player 0 or 1 of a two-player game: each action goes straight to the game."""

    def __init__(self, game: Game, player: int) -> None:
        self.game = game
        self.player = player

    def roll(self) -> tuple[int, int]:
        return self.game.roll(self.player)

    def move(self, start: int, end: int) -> Move:
        return self.game.move(self.player, start, end)

    def undo(self) -> None:
        self.game.undo(self.player)

    def confirm(self) -> None:
        self.game.confirm(self.player)

    def play(self, play: Play | str) -> Play:
        return self.game.play(self.player, play)

    def choose_double(self, die: int) -> None:
        self.game.choose_double(self.player, die)

    def double(self) -> None:
        self.game.double(self.player)

    def take(self) -> None:
        self.game.take(self.player)

    def pass_double(self) -> None:
        self.game.pass_double(self.player)

    def beaver(self) -> None:
        self.game.beaver(self.player)

    def resign(self, level: int) -> None:
        self.game.resign(self.player, level)

    def accept_resignation(self) -> None:
        self.game.accept_resignation(self.player)

    def decline_resignation(self) -> None:
        self.game.decline_resignation(self.player)

    def surrender(self) -> None:
        self.game.surrender(self.player)
