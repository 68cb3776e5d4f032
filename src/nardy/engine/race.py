"""Near-exact values of backgammon races: one-sided distributions of the rolls each side needs.

Once the sides can no longer hit or block each other (a *race*, :meth:`Position.is_race`),
each side's future depends on its own checkers and dice alone. Three questions decide the
game, each answered by the distribution of the number of rolls a side needs:

* ``"off"`` — to bear off every checker: who wins;
* ``"first"`` — to bear off its first checker: whether the loser saves the gammon;
* ``"clear"`` — to bring every checker out of the opponent's home board (its points
  19-24): whether the loser saves the backgammon.

GNU Backgammon answers them the same way, from its one-sided bear-off database: the winner's
distribution of rolls to bear off against the loser's rolls to save the gammon. Here the
distributions come from Bellman's equation over the side's own positions, as
:mod:`nardy.engine.bearoff` builds its database: in the home board every play is considered
(exact, the one-sided database's own figures), and while checkers are still outside the
zone that matters only the plays bringing most of them into it, and of those the nearest
(the plays a racer makes: a roll that brings a checker in is not spent inside the board),
so that a side's positions stay few. Two sides' distributions are
combined as independent: the one-sided approximation, near-exact (each side plays for the
fewest rolls, not for the race's result).

A side is valued only where its positions are few (:data:`MAX_STATES` at most per
question); otherwise :func:`outputs` says None and the net values the race.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from operator import mul

import numpy as np
import numpy.typing as npt

from nardy.core import BACKGAMMON, BAR, CHECKERS, OFF
from nardy.core.position import Side
from nardy.engine import bearoff
from nardy.engine.bearoff import MAX_ROLLS, NOBODY, POINTS, ROLLS, first_wins

F64 = npt.NDArray[np.float64]
Goal = str
"""``"off"``, ``"first"`` or ``"clear"`` (see the module's docstring)."""

MAX_STATES = 2000
"""The most positions of one side one question may value (a few tenths of a second at
most); beyond it the side is left to the net."""
MAX_OUTSIDE = 20
"""Questions are asked only of sides with at most this many pips to go to the zone that
matters (their home board; for the backgammon, below the opponent's home board), and for
bearing off everything with at most :data:`~nardy.engine.bearoff.ENDGAME_CHECKERS` checkers
left: beyond that a side's positions are too many (the check costs nothing, the attempt a
fraction of a second). 20 pips: the loser of a race two or three rolls from home is valued
by its distributions, not the net (whose gammons there were 15 points off); 30 found no
more in the benchmark of bench/gnubg_agreement.py and cost a fifth more time."""
MAX_CACHED = 100_000
"""The positions (and answers) kept per process, all questions together (then the caches
start over)."""

SETTLED = 0.0002
"""A chance known to lie within this of 0 or 1 (where one side's distribution is out of
reach, from the other's and the fewest rolls the first needs) is taken as settled, at the
middle of what it may be: a race all but over is valued as over (its error under the
hints' printed precision), not left to the net."""

OPPONENT_HOME = 18
"""Points above this are the opponent's home board (a backgammon while a checker stays)."""


_STEPS = range(1, BAR + 1)
"""A checker's pips to go to an edge, by its distance beyond it (1, 2, ...)."""
_OUTSIDE_WEIGHTS = np.arange(1001, 1001 + BAR, dtype=np.int64)


def _beyond(side: Side, edge: int) -> int:
    """Pips the checkers of ``side`` still have to travel to reach point ``edge`` or below."""
    # map(mul) over the bytes: the hot spot of a question (three times a generator's speed)
    return sum(map(mul, side[edge + 1 : BAR + 1], _STEPS))


def _done(goal: Goal, side: Side) -> bool:
    if goal == "off":
        return side[OFF] == CHECKERS
    if goal == "first":
        return side[OFF] > 0
    return _beyond(side, OPPONENT_HOME) == 0


def _edge(goal: Goal) -> int:
    """The zone a side must reach before the goal's last step: its home board, or (to save
    the backgammon) anything below the opponent's home board."""
    return OPPONENT_HOME if goal == "clear" else POINTS


def _nearest(each_roll: list[list[Side]], edge: int) -> list[list[Side]]:
    """Of each roll's plays, those leaving the fewest checkers above point ``edge``, and of
    those the fewest pips to go to it."""
    # Every roll's plays in one array: a checker above the edge counts 1,000 and each of its
    # pips to go 1 (a side has under 400 pips), so the least sum is the racer's play. One
    # pass of numpy where the plays of a position's 21 rolls number hundreds.
    sides = np.frombuffer(b"".join(b"".join(r) for r in each_roll), dtype=np.uint8)
    above = sides.reshape(-1, BAR + 1)[:, edge + 1 :].astype(np.int64)
    far = above @ _OUTSIDE_WEIGHTS[: BAR - edge]
    counts = [len(r) for r in each_roll]
    starts = np.cumsum([0, *counts[:-1]])
    least = np.repeat(np.minimum.reduceat(far, starts), counts)
    keep = (far == least).tolist()
    nearest: list[list[Side]] = []
    for reached, start in zip(each_roll, starts.tolist(), strict=True):
        kept = keep[start : start + len(reached)]
        nearest.append([r for r, k in zip(reached, kept, strict=True) if k])
    return nearest


Choices = tuple[tuple[Side, ...], ...]
"""For each roll of :data:`~nardy.engine.bearoff.ROLLS` in turn, the positions a racer may
choose between (see :func:`_choices`)."""

_choices_known: dict[tuple[Goal, Side], Choices] = {}
_values: dict[tuple[Goal, Side], tuple[float, F64]] = {}
_answers: dict[tuple[Goal, Side], F64 | None] = {}
"""What this process has worked out: each position's choices and values (shared by every
question, being the position's own), and the questions answered (None: refused)."""


def _in_database(goal: Goal, side: Side) -> bool:
    """Whether the endgame database knows the rolls: everything to bear off from the home
    board, with few enough checkers left."""
    return (
        goal == "off"
        and _beyond(side, POINTS) == 0
        and CHECKERS - side[OFF] <= bearoff.ENDGAME_CHECKERS
    )


def _settled(goal: Goal, side: Side) -> tuple[float, F64] | None:
    """The mean and distribution of a position whose rolls need no search: the goal reached,
    or the endgame database's."""
    if _done(goal, side):
        distribution = np.zeros(MAX_ROLLS)
        distribution[0] = 1.0
        return 0.0, distribution
    if _in_database(goal, side):
        db = bearoff.endgame_database()
        return db.mean_rolls(side), db.rolls_distribution(side)
    return None


def _choices(goal: Goal, side: Side) -> Choices:
    """For each roll, the plays a racer weighs: every play where all the checkers are in the
    zone that matters; while some are outside, those bringing most of them in, then the
    nearest; a play that reaches the goal alone where there is one."""
    key = (goal, side)
    known = _choices_known.get(key)
    if known is not None:
        return known
    edge = _edge(goal)
    each_roll = [
        [mine for mine, _ in BACKGAMMON.play_paths(side, NOBODY, d1, d2)] or [side]
        for d1, d2, _ in ROLLS
    ]
    if _beyond(side, edge) > 0:  # a racer's play: as many checkers in, then as near
        each_roll = _nearest(each_roll, edge)
    per_roll = []
    for reached in each_roll:
        finished = next((r for r in reached if _done(goal, r)), None)
        per_roll.append((finished,) if finished is not None else tuple(reached))
    _choices_known[key] = choices = tuple(per_roll)
    return choices


def _within(goal: Goal, side: Side, most: int) -> bool:
    """Whether the positions the question of ``side`` leads to (those a search visits, the
    settled ones aside) are at most ``most``: a property of the side alone, whatever this
    process has worked out before."""
    seen: set[Side] = set()
    stack = [side]
    while stack:
        here = stack.pop()
        if here in seen or _done(goal, here) or _in_database(goal, here):
            continue  # settled without a search
        seen.add(here)
        if len(seen) > most:
            return False
        for options in _choices(goal, here):
            stack.extend(options)
    return True


def _solve(goal: Goal, side: Side) -> tuple[float, F64]:
    """The mean and distribution of rolls ``side`` needs to reach ``goal``, a racer choosing
    the play of each roll that needs the fewest on average."""
    key = (goal, side)
    known = _values.get(key) or _settled(goal, side)
    if known is not None:
        return known
    mean = 1.0
    distribution = np.zeros(MAX_ROLLS)
    for (_, _, weight), options in zip(ROLLS, _choices(goal, side), strict=True):
        best = min((_solve(goal, r) for r in options), key=lambda s: s[0])
        mean += weight * best[0]
        distribution[1:] += weight * best[1][:-1]
    _values[key] = (mean, distribution)
    return mean, distribution


def rolls(goal: Goal, side: Side) -> F64 | None:
    """``[k]``: the chance that ``side`` (its own numbering, nothing of the opponent in its
    way) needs exactly ``k`` rolls to reach ``goal``; None where that takes too many of its
    positions to work out (:data:`MAX_STATES`).

    Whether a question is answered depends on the side alone (the positions it leads to are
    counted, whatever the process knows of them already), and so does the answer: an
    analysis in one process or several gives the same figures. What one question works out
    serves the next (the plays of a roll lead to many of the same positions)."""
    if _beyond(side, _edge(goal)) > MAX_OUTSIDE:
        return None
    if goal == "off" and CHECKERS - side[OFF] > bearoff.ENDGAME_CHECKERS:
        return None
    key = (goal, side)
    if key not in _answers:
        if max(len(_answers), len(_values), len(_choices_known)) >= MAX_CACHED:
            for cache in (_answers, _values, _choices_known):
                cache.clear()
        _answers[key] = _solve(goal, side)[1] if _within(goal, side, MAX_STATES) else None
    return _answers[key]


_MOST_DICE = CHECKERS * -(-BAR // 6)
"""The most dice a side can need: every checker on the bar, five dice from the end each."""
_MOST_PIPS = CHECKERS * BAR + 1
"""The most pips a side can need (the first checker off: one pip more than getting home)."""


def _needs(goal: Goal, side: Side) -> tuple[int, int]:
    """The fewest dice and pips ``side`` must play to reach ``goal``: a die moves one checker
    six pips at the most, so a checker ``p`` pips from where it must get to needs
    ``ceil(p / 6)`` dice of its own; the first checker off needs one die and one pip more
    than bringing every checker home."""
    edge = 0 if goal == "off" else _edge(goal)
    dice = sum(n * -(-(p - edge) // 6) for p, n in enumerate(side[edge + 1 : BAR + 1], edge + 1))
    pips = _beyond(side, edge)
    if goal == "first":
        dice, pips = dice + 1, pips + 1
    return dice, pips


@functools.cache
def _enough_by() -> F64:
    """``[k, d, s]``: the chance that ``k`` rolls give at least ``d`` dice and ``s`` pips in
    all (a double: four dice of its number)."""
    # The joint distribution of dice and pips after k rolls, what reaches the largest need
    # kept at it; the chance of "at least" is its sum over the larger needs.
    state = np.zeros((_MOST_DICE + 1, _MOST_PIPS + 1))
    state[0, 0] = 1.0
    enough = np.empty((MAX_ROLLS, *state.shape))
    for k in range(MAX_ROLLS):
        enough[k] = state[::-1, ::-1].cumsum(axis=0).cumsum(axis=1)[::-1, ::-1]
        # a roll that is no double plays two dice, a double four: the pips first, then the
        # dice of each kind at once
        singles, doubles = np.zeros_like(state), np.zeros_like(state)
        for d1, d2, weight in ROLLS:
            if d1 == d2:
                doubles += weight * _add(state, 4 * d1, 1)
            else:
                singles += weight * _add(state, d1 + d2, 1)
        state = _add(singles, 2, 0) + _add(doubles, 4, 0)
    return enough


def _add(counts: F64, amount: int, axis: int) -> F64:
    """``counts`` with ``amount`` added to what its index along ``axis`` counts, the last
    index keeping everything that reaches it."""
    moved = np.zeros_like(counts)
    last = counts.shape[axis] - 1
    ahead = [slice(None)] * 2
    behind = [slice(None)] * 2
    ahead[axis], behind[axis] = slice(amount, last), slice(0, last - amount)
    moved[tuple(ahead)] = counts[tuple(behind)]
    ahead[axis], behind[axis] = slice(last, last + 1), slice(last - amount, None)
    moved[tuple(ahead)] = counts[tuple(behind)].sum(axis=axis, keepdims=True)
    return moved


def done_within(goal: Goal, side: Side) -> F64:
    """``[k]``: a bound from above of the chance that ``side`` reaches ``goal`` within ``k``
    rolls, whatever it plays: the chance that ``k`` rolls give it the dice and pips it needs
    (:func:`_needs`). A bound for a side whose distribution is out of reach, which settles
    many a race that is over, or all but (:data:`SETTLED`)."""
    if _done(goal, side):
        return np.ones(MAX_ROLLS)
    dice, pips = _needs(goal, side)
    return _enough_by()[:, dice, pips]


def _before(goal_a: Goal, a: Side, goal_b: Goal, b: Side, solve: Solver) -> float | None:
    """The chance that ``a``, on roll, reaches ``goal_a`` on its ``k``-th roll no later than
    ``b``, rolling second, reaches ``goal_b`` on its ``k``-th (first: the turn is ``a``'s);
    None where it cannot be told. A side whose distribution is out of reach still has a
    bound (:func:`done_within`), which settles many a race that is over, or all but (within
    :data:`SETTLED`)."""
    first, second = solve(goal_a, a), solve(goal_b, b)
    if first is not None and second is not None:
        return first_wins(first, second)
    if first is not None:  # a is there first at least where b is not done by a's roll
        not_yet = 1.0 - np.concatenate(([0.0], done_within(goal_b, b)[:-1]))
        lowest = float(np.dot(first, not_yet))
        if 1.0 - lowest <= SETTLED:
            return 1.0 if lowest >= 1.0 else (1.0 + lowest) / 2
    if second is not None:  # and at most where a is done by the roll on which b is
        highest = float(np.dot(second, done_within(goal_a, a)))
        if highest <= SETTLED:
            return highest / 2
    return None


def _last(distribution: F64) -> int:
    return int(np.flatnonzero(distribution)[-1])


Solver = Callable[[Goal, Side], F64 | None]


def outputs(mine: Side, theirs: Side, solve: Solver = rolls) -> npt.NDArray[np.float32] | None:
    """The five cubeless probabilities (:mod:`nardy.engine.net`) of a backgammon race just
    played by ``mine``, ``theirs`` to roll, both in their own numbering and neither borne
    off entirely: NaN for each that cannot be told (the net's to give), None where not even
    the win can (the race is the net's altogether)."""
    # Theirs, on roll, wins by bearing off on its k-th roll where mine would on its k-th or
    # later; it saves the gammon (backgammon) by a checker off (out of mine's home board)
    # by the turn on which mine finishes. Mine saves them only before theirs finishes.
    wins = _before("off", theirs, "off", mine, solve)
    if wins is None:
        return None  # and so the gammons, whose distributions would cost most, are not asked
    saves = [
        None if theirs[OFF] else _before("first", theirs, "off", mine, solve),
        None if theirs[OFF] else _before("clear", theirs, "off", mine, solve),
    ]
    losses = [
        None if mine[OFF] else _before("off", theirs, "first", mine, solve),
        None if mine[OFF] else _before("off", theirs, "clear", mine, solve),
    ]
    out = np.zeros(5, dtype=np.float32)  # a gammon of a side that has borne off: none
    out[0] = 1.0 - wins
    for k, chance in enumerate(saves, start=1):
        if not theirs[OFF]:
            out[k] = np.nan if chance is None else 1.0 - chance
    for k, chance in enumerate(losses, start=3):
        if not mine[OFF]:
            out[k] = np.nan if chance is None else chance
    return out
