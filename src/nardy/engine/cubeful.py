"""Cube decisions looked ahead: the cubeful values of doubling and of playing on, averaged
over the rolls to come, each roll's position valued with the cube where it then stands.

:mod:`nardy.engine.cube` turns one set of cubeless chances into a cube decision by
Janowski's model, whose cube efficiency stands for everything the future holds. That is
right on average and wrong where the future is lopsided: at 2-away 3-away a double gives
the trailer a recube that wins him the match whenever the game turns, and the model, on
chances close to GNU Backgammon's, doubled where gnubg's 2-ply says the double costs 0.21
(bench/gnubg_agreement.py, ``zZyYAQxwt8EZAA:cAlgAAAACAAE``).

So, as GNU Backgammon's cubeful n-ply evaluation does, the decision of the player on roll
at ``ply`` is made from the average over his 21 rolls of his best play (the net's 0-ply
choice, as the cubeless lookahead plays): at 1 ply each position reached is valued by the
model for the opponent, now on roll, with the cube as it is after no double and as it is
after a double taken, the opponent's own proper action included (he may double, redouble
or play on); at 2 ply by the same one roll deeper, where the opponent's doubling is weighed
from his own lookahead. The cubeless chances shown stay those of the same lookahead.

Values travel in one currency for every cube state: match winning chance in a match,
points (normalised equity times the cube) for money, always for the player on roll.

Races are left to the model on the root's chances (their chances come from the race's
distributions, :mod:`nardy.engine.race`, and their cube efficiency from the pip count);
so are positions whose cube the player on roll cannot turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from nardy.core import CHECKERS, OFF, Position, Variant
from nardy.engine.cube import CubeDecision, Owner, looked_ahead, mwc_to_emg
from nardy.engine.evaluator import ROLLS, Evaluator, Pair
from nardy.engine.features import F32
from nardy.engine.net import flip
from nardy.engine.rollout import ROLL_WEIGHTS
from nardy.engine.stakes import Stakes

F64 = npt.NDArray[np.float64]


def may_double(stakes: Stakes) -> bool:
    """Whether the player on roll may turn the cube at these stakes."""
    return stakes.cube_in_use and not stakes.cube_dead and stakes.owner is not Owner.OPPONENT


def doubled(stakes: Stakes) -> Stakes:
    """The stakes after the player on roll doubles and his opponent takes."""
    return replace(stakes, cube=2 * stakes.cube, owner=Owner.OPPONENT)


def _currency(stakes: Stakes, emg: float) -> float:
    """A normalised equity (EMG for a match) in the lookahead's currency: points for money,
    the match winning chance in a match (:func:`~nardy.engine.cube.mwc_to_emg` undone)."""
    if stakes.match is None:
        return emg * stakes.cube
    m = stakes.match
    return m.equity_after(m.away_me, m.away_opp - stakes.cube) + (emg + 1.0) * stakes.unit


def _normalised(stakes: Stakes, value: float) -> float:
    """A value in the lookahead's currency as normalised equity again."""
    if stakes.match is None:
        return value / stakes.cube
    return mwc_to_emg(value, stakes.match, stakes.cube)


def _theirs(value: float, stakes: Stakes) -> float:
    """The opponent's value turned into the player's (the game is zero-sum)."""
    return -value if stakes.match is None else 1.0 - value


def _ended(stakes: Stakes, outputs: F32) -> float:
    """A game the player's play has just won, at these stakes."""
    if stakes.match is None and stakes.money.jacoby and stakes.owner is Owner.CENTRED:
        return _currency(stakes, 1.0)  # the Jacoby rule: it counts single
    return _currency(stakes, stakes.equity(outputs))


def _model(stakes: Stakes, outputs: F32, position: Position) -> float:
    """The value of the proper cube action of the player on roll in ``position`` with these
    chances, by the model alone."""
    return _currency(stakes, stakes.decision(outputs, position).equity)


Best = tuple[list[Pair], F32]
"""Each roll's best play at 0-ply and its outputs for the mover
(:meth:`~nardy.engine.evaluator.Evaluator.best_plays` of one position)."""


def _node(
    ev: Evaluator,
    v: Variant,
    pair: Pair,
    states: Sequence[Stakes],
    ply: int,
    best: Best | None = None,
) -> F64:
    """The values for the player on roll in ``pair`` (his side first, before his roll) at
    each of ``states``, looking ``ply`` rolls ahead (1 or more), his own cube action at each
    node below the first included by the caller (:func:`_with_option`); ``best``: his rolls'
    best plays where they are known already."""
    plays, outputs = best or ev.best_plays(v, [pair])
    values = np.zeros(len(states), dtype=np.float64)
    theirs = [s.swap() for s in states]
    deeper: dict[int, Best] = {}
    if ply > 1:  # the opponent's best plays of every roll after each of ours, in one batch
        live = [r for r, (mine, _) in enumerate(plays) if mine[OFF] != CHECKERS]
        after, outs = ev.best_plays(v, [(plays[r][1], plays[r][0]) for r in live])
        n = len(ROLLS)
        for k, r in enumerate(live):
            deeper[r] = (after[k * n : (k + 1) * n], outs[k * n : (k + 1) * n])
    for r, ((mine, other), out) in enumerate(zip(plays, outputs, strict=True)):
        if mine[OFF] == CHECKERS:
            row = [_ended(s, out) for s in states]
        elif ply == 1:
            position = Position(v, other, mine)
            chances = flip(out[None, :])[0]
            pairs = zip(states, theirs, strict=True)
            row = [_theirs(_model(t, chances, position), s) for s, t in pairs]
        else:
            below = _with_option(ev, v, (other, mine), theirs, ply - 1, deeper[r])
            row = [_theirs(b, s) for b, s in zip(below.tolist(), states, strict=True)]
        values += ROLL_WEIGHTS[r] * np.asarray(row)
    return values


def _with_option(
    ev: Evaluator, v: Variant, pair: Pair, states: Sequence[Stakes], ply: int, best: Best
) -> F64:
    """As :func:`_node`, the player on roll choosing at each state between playing on and
    doubling (the opponent then taking or passing, whichever is worse for the doubler)."""
    extra = [doubled(s) for s in states if may_double(s)]
    values = _node(ev, v, pair, [*states, *extra], ply, best)
    k = len(states)
    for i, s in enumerate(states):
        if may_double(s):
            value = min(float(values[k]), _currency(s, 1.0))  # a pass: +1
            values[i] = max(float(values[i]), value)
            k += 1
    return values[: len(states)]


def decision_ahead(
    ev: Evaluator,
    position: Position,
    stakes: Stakes,
    decision: CubeDecision,
    ply: int,
    best: Best | None = None,
) -> CubeDecision:
    """``decision`` (the model's on the root's chances at ``ply``) with its values of
    playing on and of a double taken looked ahead ``ply`` rolls (1 or 2), the actions decided
    again; as it is in a race, or where the player cannot double. ``best``: the position's
    :data:`Best`, where the caller has it."""
    if ply < 1 or decision.double_take is None or not may_double(stakes) or position.is_race():
        return decision
    pair, states = (position.mine, position.theirs), [stakes, doubled(stakes)]
    no_double, take = (float(x) for x in _node(ev, position.variant, pair, states, ply, best))
    mwc = None if stakes.match is None else (no_double, take)
    equities = _normalised(stakes, no_double), _normalised(stakes, take)
    return looked_ahead(decision, *equities, mwc=mwc)
