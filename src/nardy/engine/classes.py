"""Position classes: which kind of game a position is, as separate nets and benchmarks see it.

GNU Backgammon found that one net does not fit every kind of position: a race is a counting
game, a crashed board a game of timing and a contact position one of blocking and hitting,
and each is learnt better by a net of its own. The classes here:

* ``race`` — the sides can no longer hit or block each other (``Position.is_race``);
* ``crashed`` (where blots are hit: not long nardy) — still contact, but a side has 6 or
  fewer checkers left in play: on the board, counting at most one checker on each of its 1-
  and 2-points (checkers stacked deep there are out of play). In the spirit of gnubg's
  crashed class;
* ``contact`` — everything else.

Long nardy has ``contact`` and ``race`` only (no checker is ever hit, so no board crashes).
"""

from __future__ import annotations

from nardy.core import OFF, Position, Variant
from nardy.core.position import Side

RACE, CRASHED, CONTACT = "race", "crashed", "contact"
CLASSES = (CONTACT, CRASHED, RACE)
"""Every class, in the order benchmarks report them."""
IN_PLAY_CRASHED = 6
"""A side with this many checkers in play or fewer has crashed."""


def in_play(side: Side) -> int:
    """Checkers of ``side`` still in play: on the board or the bar, with at most one each on
    its 1- and 2-points."""
    on_board = sum(side[OFF + 1 :])  # points 1-24 and the bar
    return on_board - max(side[1] - 1, 0) - max(side[2] - 1, 0)


def classes(v: Variant) -> tuple[str, ...]:
    """The classes positions of ``v`` fall into: a board crashes only where blots are hit
    (long nardy has no crashed class)."""
    return CLASSES if v.hits else (CONTACT, RACE)


def position_class(position: Position) -> str:
    """The class of ``position`` (either side on roll: the class is the same for both)."""
    if position.is_race():
        return RACE
    if (
        position.variant.hits
        and min(in_play(position.mine), in_play(position.theirs)) <= IN_PLAY_CRASHED
    ):
        return CRASHED
    return CONTACT
