"""Moves and plays, and the standard move notation that names them (NOTATION.md, "Moves").

A :class:`Move` is one checker moved by one die; a :class:`Play` is everything a player does
with one roll. A play is identified by the position it reaches, so two plays that reach the
same position compare equal whatever their moves.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nardy.core.errors import AmbiguousPlayError, IllegalPlayError, NotationError
from nardy.core.position import BAR, OFF

if TYPE_CHECKING:
    from nardy.core.position import Position


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die: from ``start`` to ``end`` in the mover's numbering.

    ``start`` 25 is the bar (in acey-deucey also a checker entering from off the board);
    ``end`` 0 is off. ``hit`` is True when the move sends an opponent's blot to the bar.
    """

    start: int
    end: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_name(self.start)}/{_point_name(self.end)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one roll and the position they reach (still from the mover's side)."""

    moves: tuple[Move, ...] = field(compare=False)
    position: Position

    def __str__(self) -> str:
        return format_moves(self.moves)

    def sort_key(self) -> tuple[tuple[int, int], ...]:
        """Plays sort back checkers first, as GNU Backgammon lists them."""
        return tuple((-m.start, -m.end) for m in sorted(self.moves, key=_move_order))


def _move_order(m: Move) -> tuple[int, int]:
    return (-m.start, -m.end)


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _chains(moves: Sequence[Move]) -> list[tuple[list[int], int]]:
    """The play as GNU Backgammon writes it: each checker's moves joined into one chain
    (keeping an intermediate point only where it hit), identical chains counted, in order
    of the highest starting point."""
    hit_points = {m.end for m in moves if m.hit}
    chains: list[list[int] | None] = [[m.start, m.end] for m in sorted(moves, key=_move_order)]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[-1] == other[0]:
                if chain[-1] in hit_points:
                    chain.append(other[-1])
                else:
                    chain[-1] = other[-1]
                chains[j] = None
    counted: list[tuple[list[int], int]] = []
    for chain in chains:
        if chain is None:
            continue
        for k, (seen, n) in enumerate(counted):
            if seen == chain:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((chain, 1))
    return counted


def format_moves(moves: Sequence[Move]) -> str:
    """Canonical notation, as GNU Backgammon writes it: ``24/18*/13``, ``13/10(2)``, ``6/off``.

    Moves are ordered from the highest starting point; the moves of one checker are joined,
    keeping an intermediate point only where it hit; identical moves are counted as ``(n)``;
    each hit point is starred once.
    """
    if not moves:
        return ""
    hit_points = {m.end for m in moves if m.hit}
    starred: set[int] = set()
    parts = []
    for chain, count in _chains(moves):
        text = _point_name(chain[0])
        for point in chain[1:]:
            text += "/" + _point_name(point)
            if point in hit_points and point not in starred:
                text += "*"
                starred.add(point)
        parts.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(parts)


_POINT_NAMES = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}
_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")


@dataclass(frozen=True, slots=True)
class Segment:
    """One written hop ``start/end`` of parsed notation; ``starred`` if the end bore a ``*``."""

    start: int
    end: int
    starred: bool


def parse_moves(text: str) -> list[Segment]:
    """Parse move notation generously into single hops, in the order written.

    Accepts ``24/18*/13``, ``13/10(2)``, ``bar/22``, ``b/22``, ``25/22``, ``6/off``, ``6/0``,
    any separators of spaces or commas, and ``*`` anywhere after a point or left out.
    """
    segments: list[Segment] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise NotationError(f"cannot read {token!r} as a move")
        points = []
        for name in match["path"].split("/"):
            starred = name.endswith("*")
            name = name.rstrip("*").lower()
            if name in _POINT_NAMES:
                point = _POINT_NAMES[name]
            elif name.isdigit() and 0 <= int(name) <= 25:
                point = int(name)
            else:
                raise NotationError(f"{name!r} in {token!r} is not a point (1-24, bar, off)")
            points.append((point, starred))
        if len(points) < 2:
            raise NotationError(f"{token!r} needs a start and an end, as in 24/18")
        count = int(match["count"] or 1)
        if not 1 <= count <= 4:
            raise NotationError(f"{token!r}: a move repeats 1-4 times")
        hops = [
            Segment(start, end, starred)
            for (start, _), (end, starred) in itertools.pairwise(points)
        ]
        for hop in hops:
            if hop.end >= hop.start:
                raise NotationError(f"{token!r}: checkers move from higher points to lower")
        segments.extend(hops * count)
    return segments


def parse_play(
    position: Position, text: str, d1: int, d2: int, plays: Sequence[Play] | None = None
) -> Play:
    """The legal play of ``d1``-``d2`` that ``text`` describes.

    The written hops need not match the dice one by one (``24/13`` for 6-5 is fine): the play
    is the legal one that moves the same checkers to the same places. Where legal plays differ
    only in what they hit on the way, the stars and the points written decide. ``plays`` are
    the legal plays when the caller has them already.
    """
    if plays is None:
        plays = position.legal_plays(d1, d2)
    if text.strip().lower() in ("", "-", "pass", "(no legal move)"):
        if plays[0].moves:
            raise IllegalPlayError(f"a play of {d1}-{d2} is possible; passing is not allowed")
        return plays[0]
    segments = parse_moves(text)
    target = list(position.mine)
    for seg in segments:
        if seg.start == BAR and target[BAR] == 0 and position.waiting() > 0:
            target[seg.end] += 1  # acey-deucey: a checker entering from off the board
        else:
            target[seg.start] -= 1
            target[seg.end] += 1
    candidates = [p for p in plays if list(p.position.mine) == target]
    if not candidates:
        raise IllegalPlayError(f"{text!r} is not a legal play of {d1}-{d2} in this position")
    if len(candidates) > 1:
        starred = {s.end for s in segments if s.starred}
        written = {s.end for s in segments} | {s.start for s in segments}

        def hits(play: Play) -> set[int]:
            return {m.end for m in play.moves if m.hit}

        exact = [p for p in candidates if hits(p) == starred]
        consistent = [p for p in candidates if hits(p) <= written]
        if starred and len(exact) == 1:
            candidates = exact
        elif consistent:
            most = max(len(hits(p)) for p in consistent)
            candidates = [p for p in consistent if len(hits(p)) == most]
        if len(candidates) > 1:
            options = ", ".join(str(p) for p in candidates)
            raise AmbiguousPlayError(f"{text!r} is ambiguous: write one of {options}")
    chosen = candidates[0]
    # A star marks a hit: one on a point where the play hits nothing is a misreading of the
    # position, not a detail to ignore.
    unhit = sorted({s.end for s in segments if s.starred} - {m.end for m in chosen.moves if m.hit})
    if unhit:
        points = ", ".join(map(str, unhit))
        raise IllegalPlayError(
            f"{text!r} marks a hit (*) on {points}, but {chosen or 'the play'} hits nothing there"
        )
    return chosen
