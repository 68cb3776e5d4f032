"""Reading what a person types at the terminal: the short forms of the commands, a play
entered as single moves one die at a time, and the level of a resignation."""

from __future__ import annotations

from nardy.cli.seats import Seat
from nardy.core.game import Game, GameError
from nardy.core.moves import Move

SHORT = {
    "r": "roll",
    "u": "undo",
    "c": "confirm",
    "d": "double",
    "t": "take",
    "p": "pass",
    "b": "beaver",
    "a": "accept",
    "h": "hint",
    "?": "help",
    "q": "quit",
    "exit": "quit",
}
"""The commands a word stands for: a first letter, ``?`` and ``exit``."""


def enter_moves(game: Game, seat: Seat, moves: list[Move]) -> bool:
    """Make ``moves`` (a legal play's) as single moves, in an order the game takes; False
    (with nothing moved) if none does."""
    if not moves:
        return True
    legal = {(m.start, m.end) for m in game.next_moves()}
    tried = set()
    for i, move in enumerate(moves):
        key = (move.start, move.end)
        if key in tried or key not in legal:
            continue
        tried.add(key)
        seat.move(*key)
        if enter_moves(game, seat, moves[:i] + moves[i + 1 :]):
            return True
        seat.undo()
    return False


def walk(game: Game, seat: Seat, start: int, end: int) -> bool:
    """Move a checker from ``start`` to ``end`` by one or more single moves; False (with
    nothing moved) if no sequence of legal single moves gets it there."""
    for move in game.next_moves():
        if move.start != start or move.end < end:
            continue
        seat.move(move.start, move.end)
        if move.end == end or walk(game, seat, move.end, end):
            return True
        seat.undo()
    return False


def resign_level(words: list[str]) -> int:
    """The level of ``resign [1|2|3]``: a single unless a gammon (2) or backgammon (3) is
    named; raises :class:`GameError` for anything else."""
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] in ("1", "2", "3"):
        return int(words[1])
    raise GameError("resign 1 (a single), 2 (a gammon) or 3 (a backgammon)")
