"""A game from a chosen position (RULES.md 4): the checkers, the player on roll, the dice
on the table, the cube and the score that a game starts from, instead of the variant's
opening.

:class:`Start` says what is chosen; :func:`start_match` sets up a match at the chosen score
and :func:`start_game` starts its next game from the chosen position. With chosen dice the
player on roll has rolled them (the turn passes by itself where they have no legal move);
with a double chosen the player on roll has offered it and the other must answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from nardy.core.actions import Double, Roll
from nardy.core.dice import Dice, FixedDice
from nardy.core.game import Cube, Game, GameError
from nardy.core.match import Match
from nardy.core.position import Position
from nardy.core.settings import Settings


@dataclass(frozen=True, slots=True)
class Start:
    """Where a game from a chosen position starts.

    ``position`` is from the side of ``turn``, the player on roll (None: the variant's
    start); ``dice`` are on the table for them (None: they roll); ``cube`` is (value, owner,
    None = centred); ``doubled`` says that the player on roll has doubled and waits for the
    answer. ``score`` is the match score before this game and ``crawford_played`` that a
    player one point away has had the Crawford game already. ``match_length`` is the length
    the chosen start came with (0: money play, or none said), for a caller whose settings do
    not say one; ``notes`` are what the source of the start said that a game cannot carry
    (a resignation offered in an ID, say), for the caller to pass on.
    """

    position: Position | None = None
    turn: int = 0
    dice: tuple[int, int] | None = None
    cube: tuple[int, int | None] = (1, None)
    doubled: bool = False
    match_length: int = 0
    notes: tuple[str, ...] = ()
    score: tuple[int, int] = (0, 0)
    crawford_played: bool = False


class ChosenDice:
    """The dice chosen for the first roll of a game from a chosen position, then those of
    ``then`` (the match's own dice)."""

    def __init__(self, first: Sequence[int], then: Dice) -> None:
        self._first = FixedDice(first)
        self._then = then

    def die(self) -> int:
        return self._first.die() if self._first.remaining() else self._then.die()


def start_match(
    settings: Settings, dice: Dice, players: tuple[str, str], start: Start | None
) -> Match:
    """A match of ``settings`` rolling ``dice``; with a ``start``, at its score and with its
    first game started from its position (:func:`start_game`). Raises
    :class:`~nardy.core.errors.NardyError` where the game cannot start so."""
    match = Match(
        settings,
        dice,
        players=players,
        start_score=start.score if start else (0, 0),
        crawford_played=start.crawford_played if start else False,
    )
    if start is not None:
        start_game(match, start)
    return match


def start_game(match: Match, start: Start) -> Game:
    """Start the next game of ``match`` from the chosen position, player on roll and cube
    of ``start``; with chosen dice the player on roll has rolled them, with a double chosen
    they have doubled. Raises :class:`~nardy.core.errors.NardyError` (changing nothing)
    where the game cannot start so."""
    if start.cube != (1, None) and not match.settings.cube:
        raise GameError("the cube is off in this game: a cube cannot be chosen")
    game = match.new_game(
        position=start.position,
        first_player=start.turn,
        cube=Cube(*start.cube),
        dice=ChosenDice(start.dice or (), match.dice),
    )
    if start.doubled:
        game.apply(Double(start.turn))
    elif start.dice is not None:
        game.apply(Roll(start.turn))
    return game
