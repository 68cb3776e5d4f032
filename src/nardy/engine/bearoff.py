"""The exact one-sided bear-off database of backgammon, computed by nardy.

Once a side has all its checkers home and nothing can hit or block them any more, how long it
needs to bear them off depends on its own checkers alone: a *one-sided* bear-off. For every
way of holding up to 15 checkers on the six home points (the rest borne off, 54,264
positions with all off) the database holds the probability of bearing off the last checker
with exactly ``k`` rolls, and the mean, when every roll is played to need the fewest rolls
on average (RULES.md 1.3 for the moves: a die bears off from its own point, or from the
highest point when it is larger). Nackgammon and acey-deucey bear off the same way.

It is built by dynamic programming over the positions in order of their pip count: every
legal play moves at least one pip, so the positions a roll leads to are known before the
position itself (Bellman's equation, exactly, in float64). :func:`database` builds the full
database once per process (about 10 s with the compiled move generator); :func:`build` any
smaller one, which equals the full one on its positions (bearing off never adds checkers).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from nardy.core import BACKGAMMON, BAR, CHECKERS
from nardy.core.position import Side
from nardy.engine.errors import EngineError

POINTS = 6
"""The home board: points 1-6."""
MAX_ROLLS = 32
"""Distributions are kept for 0..31 rolls; no position of 15 checkers needs more than 18."""

F64 = npt.NDArray[np.float64]
Home = tuple[int, ...]
"""Checkers on points 1-6."""

ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls with their probabilities."""
NOBODY = bytes([CHECKERS] + [0] * 25)
"""An opponent with everything off: blocks nothing (a side's own race against the dice)."""


def _homes(checkers: int, points: int = POINTS) -> Iterator[tuple[int, ...]]:
    """Every way to put at most ``checkers`` checkers on ``points`` points."""
    if points == 0:
        yield ()
        return
    for n in range(checkers + 1):
        for rest in _homes(checkers - n, points - 1):
            yield (n, *rest)


def _pips(home: Sequence[int]) -> int:
    return sum(p * n for p, n in enumerate(home, start=1))


@dataclass(frozen=True, slots=True)
class BearoffDatabase:
    """One-sided bear-off figures of every home board of up to ``checkers`` checkers.

    ``homes[i]`` is a position (checkers on points 1-6), ``mean[i]`` the expected number of
    rolls to bear it all off, ``distribution[i, k]`` the probability of needing exactly ``k``.
    """

    checkers: int
    homes: tuple[Home, ...]
    mean: F64
    distribution: F64
    rows: dict[Home, int] = field(repr=False, compare=False)
    """The row of each home board."""

    def index(self, side: Side | Sequence[int]) -> int:
        """The row of a side: 26 counts in its own numbering (0 = off, 25 = bar) or the six
        counts of points 1-6. Raises ValueError unless every checker is home or off."""
        counts = list(side)
        if len(counts) == 26:
            if counts[BAR] or any(counts[POINTS + 1 : BAR]):
                raise EngineError("not a bear-off position: a checker is outside the home board")
            if sum(counts) != CHECKERS:
                raise EngineError(f"a side has {CHECKERS} checkers, counting those off")
            counts = counts[1 : POINTS + 1]
        if len(counts) != POINTS or min(counts) < 0:
            raise EngineError("expected 26 counts of a side or 6 counts of points 1-6")
        if sum(counts) > self.checkers:
            raise EngineError(f"{sum(counts)} checkers: this database holds up to {self.checkers}")
        return self.rows[tuple(counts)]

    def mean_rolls(self, side: Side | Sequence[int]) -> float:
        """Expected rolls to bear off every checker of ``side``, playing for the fewest."""
        return float(self.mean[self.index(side)])

    def rolls_distribution(self, side: Side | Sequence[int]) -> F64:
        """``[k]``: the probability that bearing off ``side`` takes exactly ``k`` rolls."""
        row: F64 = self.distribution[self.index(side)].copy()
        return row

    def win_probability(self, mine: Side | Sequence[int], theirs: Side | Sequence[int]) -> float:
        """The chance that the side on roll (``mine``) bears off first in a race where both
        sides only bear off: it wins on its ``k``-th roll if the other side needs ``k`` or
        more, having had ``k - 1``."""
        return first_wins(
            self.distribution[self.index(mine)], self.distribution[self.index(theirs)]
        )


def first_wins(first: F64, second: F64) -> float:
    """The chance that a side needing ``first`` rolls (a distribution: ``[k]`` the chance of
    exactly ``k``), on roll, gets there before (or on the same turn number as) a side needing
    ``second`` rolls, who rolls after it: it finishes on its ``k``-th roll if the other needs
    ``k`` or more, having had ``k - 1``."""
    at_least = np.cumsum(second[::-1])[::-1]
    return float(np.dot(first, at_least))


def build(checkers: int = CHECKERS) -> BearoffDatabase:
    """The database of every home board of up to ``checkers`` (0-15) checkers."""
    if not 0 <= checkers <= CHECKERS:
        raise EngineError(f"a bear-off database holds 0-{CHECKERS} checkers, not {checkers}")
    homes = sorted(_homes(checkers), key=_pips)
    index = {bytes(home): i for i, home in enumerate(homes)}
    mean = np.zeros(len(homes))
    distribution = np.zeros((len(homes), MAX_ROLLS))
    distribution[0, 0] = 1.0  # everything off: done with no roll
    means = mean.tolist()  # plain floats: the inner loop's lookups
    play_paths = BACKGAMMON.play_paths
    for i in range(1, len(homes)):
        home = homes[i]
        side = bytes([CHECKERS - sum(home), *home, *[0] * (BAR - POINTS)])
        expected = 1.0
        row = distribution[i]
        for d1, d2, weight in ROLLS:
            reached = [index[mine[1 : POINTS + 1]] for mine, _ in play_paths(side, NOBODY, d1, d2)]
            best = min(reached, key=means.__getitem__)
            expected += weight * means[best]
            row[1:] += weight * distribution[best, :-1]
        means[i] = expected
    mean[:] = means
    rows = {home: i for i, home in enumerate(homes)}
    return BearoffDatabase(checkers, tuple(homes), mean, distribution, rows)


@functools.cache
def database() -> BearoffDatabase:
    """The full database (15 checkers), built on first use and kept for the process."""
    return build(CHECKERS)


ENDGAME_CHECKERS = 10
"""The evaluator's exact bear-offs: both sides with at most this many checkers left. Each
side has then borne off at least five, so no gammon is possible and the win chance is the
whole value; the database of up to ten checkers (8,008 home boards) builds in about a second,
which every process that reaches a bear-off pays once (the full one takes ten)."""


@functools.cache
def endgame_database() -> BearoffDatabase:
    """The database the evaluator values bear-offs with (:data:`ENDGAME_CHECKERS`)."""
    return build(ENDGAME_CHECKERS)


def exact_bearoffs(
    mine: npt.NDArray[np.uint8], theirs: npt.NDArray[np.uint8]
) -> npt.NDArray[np.bool_]:
    """Which rows of two ``(N, 26)`` arrays of sides (each in its own numbering) are bear-offs
    the endgame database values exactly: every checker of both sides home or off, at most
    :data:`ENDGAME_CHECKERS` left on each side, none borne off entirely."""
    ok = np.ones(len(mine), dtype=bool)
    for side in (mine, theirs):
        left = side[:, 1 : POINTS + 1].sum(axis=1, dtype=np.int64)
        ok &= ~side[:, POINTS + 1 :].any(axis=1) & (left > 0) & (left <= ENDGAME_CHECKERS)
    return ok


def on_roll_wins(mine: Side, theirs: Side) -> float:
    """The exact chance that the side on roll (``mine``) wins a bear-off that
    :func:`exact_bearoffs` accepts."""
    return endgame_database().win_probability(mine, theirs)
