"""A position: where every checker stands, seen from the side on roll.

Each side is a tuple of 26 counts in that side's own numbering (RULES.md, preamble):
index 0 is the checkers borne off, 1-24 the points, 25 the bar. Checkers counted nowhere
(fewer than 15 in all) are waiting to enter; only acey-deucey allows that (RULES.md 2).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nardy.core.errors import IllegalPlayError, InvalidInputError, InvalidPositionError

if TYPE_CHECKING:
    from nardy.core.moves import Play
    from nardy.core.variant import Variant

CHECKERS = 15
OFF = 0
BAR = 25

Side = bytes
"""26 counts, indexable like a tuple: 0 = borne off, 1-24 = points, 25 = bar."""


class ResultKind(enum.StrEnum):
    """How a game was won: the seeds' names for the stakes (RULES.md 1.4, 3.4)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    OIN = "oin"
    MARS = "mars"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: who won (seen from the position's side on roll) and the kind of win."""

    winner_is_me: bool
    kind: ResultKind


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable position of one variant, from the side on roll ("me").

    ``mine`` and ``theirs`` are each in their owner's numbering; how my point maps to the
    opponent's belongs to the variant. Construct checked positions with :meth:`from_points`
    or a variant's ``start()``; the plain constructor is the unchecked fast path.
    """

    variant: Variant
    mine: Side
    theirs: Side

    @classmethod
    def from_points(
        cls, variant: Variant, mine: dict[int, int], theirs: dict[int, int]
    ) -> Position:
        """A validated position of ``variant`` from ``{point: checkers}`` maps (0 = off,
        25 = bar). The variant is the object, not its name: a position does not look
        variants up (:func:`nardy.core.variants.variant` does), so that the position module
        imports no variant module.

        >>> from nardy.core.variants import variant
        >>> Position.from_points(variant("long"), {24: 15}, {24: 15}) == variant("long").start()
        True
        """
        if isinstance(variant, str):
            raise InvalidInputError(
                f"from_points takes the variant, not its name {variant!r}: "
                f"nardy.variant({variant!r}) is the variant"
            )
        pos = cls(variant, _side(mine, "mine"), _side(theirs, "theirs"))
        variant.validate(pos)
        return pos

    # -- the view from the other side -------------------------------------------------------

    def swap(self) -> Position:
        """The same position with the other side on roll."""
        return Position(self.variant, self.theirs, self.mine)

    def waiting(self, mine: bool = True) -> int:
        """Checkers not yet entered (acey-deucey only; 0 in every other variant)."""
        return CHECKERS - sum(self.mine if mine else self.theirs)

    # -- rules, delegated to the variant ------------------------------------------------------

    def legal_plays(self, d1: int, d2: int) -> list[Play]:
        """Every legal play of the roll, one per distinct resulting position, sorted."""
        return self.variant.legal_plays(self, d1, d2)

    def parse_play(self, text: str, d1: int, d2: int) -> Play:
        """The legal play that ``text`` (move notation, parsed generously) describes."""
        return self.variant.parse_play(self, text, d1, d2)

    def apply(self, play: Play | str, d1: int, d2: int) -> Position:
        """The position after a legal play, still from the mover's side; raises if illegal."""
        chosen = self.parse_play(play, d1, d2) if isinstance(play, str) else play
        if chosen not in self.legal_plays(d1, d2):
            raise IllegalPlayError(f"{chosen} is not a legal play of {d1}-{d2} here")
        return chosen.position

    def pips(self) -> tuple[int, int]:
        """Pip counts (mine, theirs): the dice each side needs to bear everything off."""
        return self.variant.pips(self.mine), self.variant.pips(self.theirs)

    def is_race(self) -> bool:
        """True when the sides can no longer hit or block each other."""
        return self.variant.is_race(self)

    def outcome(self) -> Outcome | None:
        """The result if a side has borne off all 15, else None."""
        return self.variant.outcome(self)

    def __repr__(self) -> str:
        def pts(side: Side) -> str:
            return " ".join(f"{p}:{n}" for p, n in enumerate(side) if n)

        return f"<Position {self.variant.key} mine=[{pts(self.mine)}] theirs=[{pts(self.theirs)}]>"


def _side(points: dict[int, int], label: str) -> Side:
    counts = [0] * 26
    for point, n in points.items():
        if not (isinstance(point, int) and 0 <= point <= 25):
            raise InvalidPositionError(f"{label}: point {point!r} is not 0-25")
        if not (isinstance(n, int) and 0 <= n <= CHECKERS):
            raise InvalidPositionError(f"{label}: {n!r} checkers on point {point}")
        counts[point] = n
    return bytes(counts)
