"""Reading what a person types at the terminal: the short forms of the commands, a play
entered as single moves one die at a time, and the level of a resignation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from nardy.cli.seats import Seat
from nardy.core import actions
from nardy.core.errors import InvalidInputError
from nardy.core.game import Game
from nardy.core.moves import Move, Segment

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

HINT_PLAYS = 3
"""How many plays ``hint`` ranks when it is not told how many (``hint 5``)."""

_POINT = r"(?:bar|off|\d{1,2})"
_DASHED = re.compile(rf"{_POINT}-{_POINT}\*?(?:\(\d\))?!?", re.IGNORECASE)
_BARE = re.compile(rf"{_POINT}\*?!?", re.IGNORECASE)


def move_text(line: str) -> str | None:
    """``line`` in move notation where it reads as moves, else None: ``24/18 13/11`` as it
    is, and the forms GNU Backgammon also takes, ``24-18 13-11`` and ``24 18 13 11`` (a
    start and an end for each move), rewritten with slashes."""
    words = line.split()
    if not words:
        return None
    if "/" in line:
        return line
    if all(_DASHED.fullmatch(word) for word in words):
        return " ".join(word.replace("-", "/") for word in words)
    if len(words) >= 2 and len(words) % 2 == 0 and all(_BARE.fullmatch(w) for w in words):
        pairs = zip(words[::2], words[1::2], strict=True)
        return " ".join(f"{start.rstrip('!')}/{end}" for start, end in pairs)
    return None


def compound_moves(typed: Sequence[Segment], made: Sequence[Move]) -> list[int]:
    """How many of the single moves ``made`` (in the order made) each typed move made: a
    hop over several dice (``13/4``, made as 13/8 8/4) counts its single moves, anything
    else 1 each, so that ``undo`` takes a typed hop back whole."""
    wanted = [(segment.start, segment.end) for segment in typed]
    counts: list[int] = []
    i = 0
    while i < len(made):
        j = i
        while (made[i].start, made[j].end) not in wanted and j + 1 < len(made):
            if made[j + 1].start != made[j].end:
                break
            j += 1
        if (made[i].start, made[j].end) in wanted:
            wanted.remove((made[i].start, made[j].end))
            counts.append(j - i + 1)
            i = j + 1
        else:
            counts.append(1)
            i += 1
    return counts


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
        seat.act(actions.Move, *key)
        if enter_moves(game, seat, moves[:i] + moves[i + 1 :]):
            return True
        seat.act(actions.Undo)
    return False


def walk(game: Game, seat: Seat, start: int, end: int) -> bool:
    """Move a checker from ``start`` to ``end`` by one or more single moves; False (with
    nothing moved) if no sequence of legal single moves gets it there."""
    for move in game.next_moves():
        if move.start != start or move.end < end:
            continue
        seat.act(actions.Move, move.start, move.end)
        if move.end == end or walk(game, seat, move.end, end):
            return True
        seat.act(actions.Undo)
    return False


def resign_level(words: list[str]) -> int:
    """The level of ``resign [1|2|3]``: a single unless a gammon (2) or backgammon (3) is
    named; raises :class:`InvalidInputError` for anything else."""
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1] in ("1", "2", "3"):
        return int(words[1])
    raise InvalidInputError("resign 1 (a single), 2 (a gammon) or 3 (a backgammon)")


def hint_count(words: list[str]) -> int:
    """How many plays ``hint [N]`` asks for: N (1 or more), else :data:`HINT_PLAYS`;
    raises :class:`InvalidInputError` for anything else after ``hint``."""
    if len(words) == 1:
        return HINT_PLAYS
    if len(words) == 2 and words[1].isdigit() and int(words[1]) > 0:
        return int(words[1])
    raise InvalidInputError("hint, or hint N for the N best plays (hint 5)")
