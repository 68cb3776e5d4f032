"""Analysis: hints for a position, and every decision of a played game or match judged.

**Hints.** :func:`rank_plays` lists the plays of a roll best first with their probabilities
and equity at a chosen ply; :func:`evaluate` gives the probabilities of the side on roll before
its roll, and :func:`cube_analysis` its cube decision (:mod:`nardy.engine.cube`).

**Games.** :func:`analyze` replays game records (``nardy.notation.record``) and judges each
turn the way GNU Backgammon's analysis does:

* **checker play** — the play made against the best play of the roll, both valued at the
  analysis ply (every play of the roll is, :func:`rank_plays`); the difference
  is the *equity loss*. At 1-ply (the default) the best few plays of the roll and the play
  made are valued again at :data:`DEEPER_PLY`, and judged by those values, all at that one
  depth (:func:`deepened`, GNU Backgammon's move filter in spirit). A play that this marks
  bad or very bad is rolled out against the best play, and judged by the rollout
  (:func:`confirmed`): a net's error in its lookahead is not a player's. Forced plays (one
  legal result) are not judged;
* **cube** — before each roll where the player could double, his proper cube action from the
  probabilities at the analysis ply (at least 1: a position before its roll has no 0-ply
  value), against what he did: a missed or wrong double, and the opponent's wrong take or
  pass. Where he could not double there is no decision: the cube his opponent's, the
  Crawford game, or a *dead* cube (:attr:`Stakes.cube_dead`) — unless he doubled all the
  same;
* **luck** — the equity of the roll thrown minus the average over the 36 rolls, each valued
  by the best play the 0-ply net finds, for the roller (gnubg's ``LuckNormal`` with its
  0-ply ``ecLuck``). The opening roll of a game that plays it is judged among the 30 opening
  rolls of either player (gnubg's ``LuckFirst``): who gets it is luck too.

**Equities** are normalised to the cube, as gnubg's "EMG": in money play the cubeless money
equity per unit of cube (a backgammon worth the ``backgammon-value`` setting); in a match the
cubeless match winning chance at the score (:func:`nardy.engine.cube.mwc_cubeless`) expressed
as money-equivalent equity, -1 for losing a single game at the cube and +1 for winning one
(:func:`~nardy.engine.cube.mwc_to_emg`), so that gammons count what they count at the score.
Cube decisions are cubeful (Janowski's model, :mod:`nardy.engine.cube`). Besides the
normalised figures each error and each roll's luck is kept *unnormalised*: in points (times
the cube) for money, in match winning chances for a match.

The per-player totals follow gnubg's statistics (``analysis.c``, ``formatgs.c``): the error
rate is the total normalised error over the unforced moves and the close or actual cube
decisions, shown in millipoints (mEMG) per decision and rated by :func:`rating`; the luck rate
is the luck per move, rated by :func:`luck_rating`; the luck-adjusted result is the result
minus one's own luck plus the opponent's, in points (money) or match winning chances.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nardy.core import NardyError, Play, Position, Variant, variant
from nardy.core.game import RESIGN_LEVELS, Game
from nardy.core.settings import Settings
from nardy.engine.cube import (
    Action,
    CubeDecision,
    MatchState,
    Response,
)
from nardy.engine.cubeful import decision_ahead
from nardy.engine.evaluator import MAX_PLY, ROLLS, Evaluator, Pair, evaluator
from nardy.engine.features import F32
from nardy.engine.met import match_equity
from nardy.engine.net import flip
from nardy.engine.rollout import (
    ROLL_WEIGHTS,
    STRATUM,
    Z95,
    KeptPlays,
    RolloutResult,
    best_plays,
    probabilities,
    processes,
    roll_index,
    rollouts,
    worker_pool,
)
from nardy.engine.stakes import Stakes
from nardy.notation.position_id import position_id
from nardy.notation.record import check_record, replay

F64 = npt.NDArray[np.float64]

# -- gnubg's thresholds -------------------------------------------------------------------------

SKILLS = (("very bad", 0.16), ("bad", 0.08), ("doubtful", 0.04))
"""The marks of an error by its equity loss (normalised), worst first: GNU Backgammon's
defaults ``arSkillLevel`` in ``gnubg.c`` — very bad 0.16, bad 0.08, doubtful 0.04. A loss
strictly above a threshold earns the mark (gnubg's ``Skill``: ``r < -arSkillLevel[…]``)."""

RATINGS = (
    ("Supernatural", 0.002),
    ("World class", 0.005),
    ("Expert", 0.008),
    ("Advanced", 0.012),
    ("Intermediate", 0.018),
    ("Casual player", 0.026),
    ("Beginner", 0.035),
)
"""A player's rating by the error rate (normalised equity per decision), best first: GNU
Backgammon's ``arThrsRating`` and ``aszRating`` in ``analysis.c`` (gnubg 1.x: 0.002, 0.005,
0.008, 0.012, 0.018, 0.026, 0.035, and above that "Awful!"). gnubg rates the combined error
(``aaaar[COMBINED][PERMOVE][…][NORMALISED]`` in ``formatgs.c``): checker and cube errors over
the unforced moves and the close or actual cube decisions. A rate strictly below a threshold
earns the rating."""
AWFUL = "Awful!"

LUCK_MARKS = (("very lucky", 0.6), ("very unlucky", -0.6), ("lucky", 0.3), ("unlucky", -0.3))
"""The marks of a roll by its luck, the extremes first: GNU Backgammon's ``arLuckLevel`` in
``gnubg.c`` (0.6 and 0.3 either way); strictly beyond a threshold earns the mark (gnubg's
``Luck``)."""

LUCK_RATINGS = (
    ("Go to Las Vegas", 0.06),
    ("Go to bed", -0.06),
    ("Good dice, man!", 0.03),
    ("Bad dice, man!", -0.03),
)
"""A player's luck rating by the luck per move, the extremes first: gnubg's
``getLuckRating``, which applies ``Luck`` to ten times the luck rate (so 0.06 and 0.03 per
move); in between, "None"."""


def _beyond(value: float, marks: Sequence[tuple[str, float]]) -> str | None:
    """The first mark whose threshold ``value`` lies strictly beyond, away from zero."""
    for name, threshold in marks:
        if value > threshold > 0 or value < threshold < 0:
            return name
    return None


def skill(loss: float) -> str | None:
    """The mark of an equity loss: "very bad", "bad", "doubtful" or None."""
    return next((name for name, threshold in SKILLS if loss > threshold), None)


def rating(error_rate: float) -> str:
    """gnubg's rating of an error rate (normalised equity lost per decision)."""
    return next((name for name, threshold in RATINGS if error_rate < threshold), AWFUL)


def luck_mark(luck: float) -> str | None:
    """The mark of one roll's luck: "very lucky", "lucky", "unlucky", "very unlucky" or None."""
    return _beyond(luck, LUCK_MARKS)


def luck_rating(luck_per_move: float) -> str:
    """gnubg's luck rating of a player's luck per move."""
    return _beyond(luck_per_move, LUCK_RATINGS) or "None"


# -- hints ----------------------------------------------------------------------------------------


def load_evaluator(v: Variant | str) -> Evaluator:
    """The shipped evaluator of a variant, or a :class:`NardyError` saying why there is none
    (long nardy before its net is trained)."""
    try:
        return evaluator(v)
    except (ImportError, OSError):
        name = v if isinstance(v, str) else v.name
        raise NardyError(f"there is no trained net for {name} yet") from None
    except ValueError as exc:
        raise NardyError(str(exc)) from None


DEFAULT_PLY = 1
"""The lookahead of ``nardy hint``, ``eval`` and ``analyze`` when none is asked: one and the
same, so that a hint and the analysis of the same play agree. Every play of a roll is valued
at it, and the best few again at :data:`DEEPER_PLY` (:func:`deepened`): about a tenth of a
second a hint, a quarter of a second a turn of analysis; every play at 2-ply costs about
two seconds a roll."""


DEEPER_PLY = 2
"""The ply at which a ranking made one ply shallower (1-ply) values its best plays again
(:func:`deepened`), in the hints and the analysis: an odd ply sees the position after the
opponent's reply only, and it exaggerates, and on matches GNU Backgammon played 2-ply picks
gnubg's best play more often than 1-ply does (docs/benchmarks.md, "The best few at
2-ply"). A 0-ply ranking, asked for its speed, is not deepened."""
DEEPER_AMONG = 4
"""How many of the best plays of the 1-ply ranking are valued again at
:data:`DEEPER_PLY`, at most (gnubg's analysis, too, takes a few of its 0-ply best to 2-ply)."""
DEEPER_MARGIN = 0.08
"""Only plays within this much equity (normalised, EMG) of the 1-ply ranking's best are
valued again: a play that far behind is not the best at the deeper ply either, as good as
never (docs/benchmarks.md), and each one valued again costs about a 1-ply ranking."""


CLOSE_CUBE = 0.16
"""A cube decision is *close* when the proper action's equity is less than this above the
double's (a take, or the pass capped at +1): gnubg's ``isCloseCubedecision`` (``eval.c``,
``rThr``). Close decisions, and every actual double, take and pass, count as decisions in
the error rate; the others only add their error, if any."""


def _check_ply(ply: int) -> None:
    if not 0 <= ply <= MAX_PLY:
        raise NardyError(f"the ply is 0-{MAX_PLY}, not {ply}")


# -- hints ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One play of a roll as the analysis sees it: the play, the five cubeless probabilities
    of the position it reaches for the mover (win, win gammon, win backgammon, lose gammon,
    lose backgammon), the lookahead they come from, and their normalised equity (with the
    match winning chance in a match)."""

    play: Play
    outputs: F32
    ply: int
    equity: float
    mwc: float | None = None
    rollout: int = 0
    """The games of the rollout the values come from (:func:`confirmed`); 0 where they are
    the lookahead's at ``ply``."""


def rank_plays(
    position: Position,
    d1: int,
    d2: int,
    ply: int = 1,
    ev: Evaluator | None = None,
    stakes: Stakes | None = None,
    chosen: bool = False,
) -> list[RankedPlay]:
    """Every legal play of ``d1``-``d2`` in ``position``, best first, valued for ``stakes``
    (money by default) and by what follows each play (``chosen``: the dice are acey-deucey's
    double named after a 1-2; :meth:`Evaluator.played`).

    Every play is valued at ``ply`` (:meth:`Evaluator.rank`), so that plays are compared at
    one depth, by the same measure (:meth:`Stakes.equities`, match winning chances in a
    match). The bot ranks the same way
    (:meth:`nardy.engine.neural.NeuralBot.choose` with the game's stakes)."""
    _check_ply(ply)
    ev = ev or load_evaluator(position.variant)
    stakes = stakes or Stakes()
    plays = _plays_by_result(position, d1, d2)
    candidates = ev.rank(position, d1, d2, ply, stakes.equities, chosen)
    if len(candidates) == 1 and candidates[0].ply < ply:
        # A forced play, or no legal move at all: nothing to choose, but valued at the ply
        # asked, like the plays of any other roll.
        return _valued(position, d1, d2, [plays[candidates[0].after]], ply, ev, stakes, chosen)
    return [
        RankedPlay(plays[c.after], c.outputs, c.ply, c.value, stakes.mwc(c.outputs))
        for c in candidates
    ]


def rank_of(ranked: Sequence[RankedPlay], reached: Pair) -> int:
    """Where the play that ``reached`` a position (the mover's and the opponent's sides, as
    :attr:`~nardy.core.game.TurnRecord.after` holds them) stands among the plays
    :func:`rank_plays` ranked: 0 for the best."""
    return next(
        i for i, r in enumerate(ranked) if (r.play.position.mine, r.play.position.theirs) == reached
    )


def deepened(
    position: Position,
    d1: int,
    d2: int,
    ranked: Sequence[RankedPlay],
    made: Pair | None = None,
    ev: Evaluator | None = None,
    stakes: Stakes | None = None,
    chosen: bool = False,
) -> list[RankedPlay]:
    """The ranking a hint shows and the analysis judges by, from the plays of a roll as
    :func:`rank_plays` ranked them (``ranked``): where they are valued one ply under
    :data:`DEEPER_PLY`, the best :data:`DEEPER_AMONG` of them within :data:`DEEPER_MARGIN`
    of the best, and the play that reached ``made`` (the play to judge), valued again at
    that ply and ranked among themselves, first; the rest after them as they were. So the
    best play and the play judged are always valued at one depth. Where one play is far
    ahead of every other and it is the one to judge (or none is), the ranking stands."""
    if ranked[0].ply != DEEPER_PLY - 1 or len(ranked) < 2:
        return list(ranked)
    best = ranked[0].equity
    again = [i for i, r in enumerate(ranked[:DEEPER_AMONG]) if best - r.equity <= DEEPER_MARGIN]
    if made is not None and (mine := rank_of(ranked, made)) not in again:
        again.append(mine)
    if len(again) < 2:
        return list(ranked)
    valued = _valued(
        position,
        d1,
        d2,
        [ranked[i].play for i in again],
        DEEPER_PLY,
        ev or load_evaluator(position.variant),
        stakes or Stakes(),
        chosen,
    )
    return _first(ranked, again, valued)


def ranking(
    position: Position,
    d1: int,
    d2: int,
    ply: int = DEFAULT_PLY,
    ev: Evaluator | None = None,
    stakes: Stakes | None = None,
    chosen: bool = False,
    made: Pair | None = None,
) -> list[RankedPlay]:
    """The plays of a roll as a hint shows them and the analysis judges them (``made``: the
    play to judge): every play at ``ply`` (:func:`rank_plays`), the best few again deeper
    (:func:`deepened`)."""
    ev = ev or load_evaluator(position.variant)
    ranked = rank_plays(position, d1, d2, ply, ev, stakes, chosen)
    return deepened(position, d1, d2, ranked, made, ev, stakes, chosen)


def judgement(
    position: Position,
    d1: int,
    d2: int,
    made: Pair,
    ply: int = DEFAULT_PLY,
    ev: Evaluator | None = None,
    stakes: Stakes | None = None,
    chosen: bool = False,
) -> list[RankedPlay]:
    """The plays of a roll as the analysis judges the play that reached ``made``: the
    ranking (:func:`ranking`), and that play rolled out against the best where the ranking
    marks it bad or very bad (:func:`confirmed`)."""
    ev = ev or load_evaluator(position.variant)
    ranked = ranking(position, d1, d2, ply, ev, stakes, chosen, made)
    return confirmed(position, d1, d2, ranked, made, ev, stakes, chosen)


CONFIRM_TRUNCATE = 10
"""Plays a game of a mark's rollout (:func:`confirmed`) runs for; then the net's value of
the position reached stands in for the rest. On issue 20's marks the rollouts truncated so
came out as whole games did, at a third of their cost (docs/benchmarks.md, "Marks rolled
out")."""
CONFIRM_LONGER = 20
"""Plays a game of the second rollout of a play the first still marks: where the net
misjudges the positions ten plays on, twice as far leaves more of its error behind. On
issue 20's matches it halved the false marks (12 to 6) and kept the true one, where whole
games cleared that too (docs/benchmarks.md, "A mark rolled out twice")."""
CONFIRM_GAMES = 4 * STRATUM
"""The most games of a mark's rollout: it stops sooner, after a block of 36 games (each
first roll once), where its verdict is clear (:func:`confirmed`)."""
MARKED = frozenset({"bad", "very bad"})
"""The marks a rollout confirms or clears."""
BAD = dict(SKILLS)["bad"]
"""The loss from which a play is marked bad (or worse): what a mark's rollout decides."""


def confirmed(
    position: Position,
    d1: int,
    d2: int,
    ranked: Sequence[RankedPlay],
    made: Pair,
    ev: Evaluator | None = None,
    stakes: Stakes | None = None,
    chosen: bool = False,
) -> list[RankedPlay]:
    """The ranking the analysis judges the play that reached ``made`` by: ``ranked``
    (:func:`ranking`'s, with that play), or, where it marks the play bad or very bad
    (:data:`MARKED`), that play and the best rolled out against each other and ranked by
    the rollout, first; the rest after them as they were.

    The rollout plays both from the position reached, with the same dice, at 0-ply and with
    the luck correction (:func:`nardy.engine.rollout.rollouts`), each game
    :data:`CONFIRM_TRUNCATE` plays long, in blocks of 36 games until the mark is clear
    (the loss's 95% interval above :data:`BAD` or below it) or stands (the interval holds
    the lookahead's loss), at most :data:`CONFIRM_GAMES`. Where that rollout still marks
    the play, both are rolled out again the same way with games :data:`CONFIRM_LONGER`
    plays long (the interval holding the first rollout's loss is a mark that stands), and
    judged by that.
    A lookahead sees two rolls ahead through the net's eyes, and where the net misjudges a
    kind of position (a holding game, a prime against an anchor) every ply of it does; a
    rollout plays the game on and leaves most of that error behind (on issue 20's matches
    it clears most of the plays 2-ply marks where GNU Backgammon finds no error,
    docs/benchmarks.md). Only backgammon's geometry (:attr:`Evaluator.bearoff`: backgammon,
    nackgammon, acey-deucey) is rolled out, where gnubg measured what the rollouts do; long
    nardy has no such oracle, its games are longer (so ten plays see less of one), and its
    casual matches have four times the marks (docs/analysis.md). Not rolled out either:
    plays whose positions are valued without the net (:meth:`Evaluator.exact`: a race its
    distributions of rolls settle, which they value better than a net's games; a race
    whose gammons are left to the net is rolled out); a play after which the mover goes
    on (acey-deucey's 1-2, whose double a rollout does not name); and a ranking at 0-ply,
    asked for its speed. However far behind the lookahead puts a play, it is rolled out:
    on GNU Backgammon's matches rollouts took 0.29-0.35 off losses of 0.45-0.49, and a play
    that far behind in earnest is clear after one block."""
    mine = rank_of(ranked, made)
    best = ranked[0]
    marked = best.equity - ranked[mine].equity  # the lookahead's loss
    if best.ply == 0 or mine == 0 or skill(marked) not in MARKED:
        return list(ranked)
    v = position.variant
    if v.after_play(d1, d2, len(best.play.moves), chosen) is not None:
        return list(ranked)
    ev = ev or load_evaluator(v)
    starts = [
        Position(v, r.play.position.mine, r.play.position.theirs) for r in (best, ranked[mine])
    ]
    if not ev.bearoff or all(ev.exact(v, [(p.mine, p.theirs) for p in starts])):
        return list(ranked)
    stakes = stakes or Stakes()
    base, weights = _linear(stakes)

    # The second rollout's games start as the first's did (the same positions and dice):
    # the plays of those kept, only the rest of each game is played.
    kept = KeptPlays(CONFIRM_TRUNCATE)
    results, means = _rolled_loss(starts, CONFIRM_TRUNCATE, marked, ev, weights, kept)
    loss = float((means[0] - means[1]) @ weights)
    if loss > BAD:  # still marked: rolled out again, twice as far, before it is called bad
        results, means = _rolled_loss(starts, CONFIRM_LONGER, loss, ev, weights, kept)
    rolled = [
        RankedPlay(
            r.play, o.outputs, r.ply, base + float(m @ weights), stakes.mwc(o.outputs), o.games
        )
        for r, o, m in zip((best, ranked[mine]), results, means, strict=True)
    ]
    return _first(ranked, [0, mine], rolled)


def _rolled_loss(
    starts: Sequence[Position],
    truncate: int,
    marked: float,
    ev: Evaluator,
    weights: npt.NDArray[np.float64],
    kept: KeptPlays,
) -> tuple[list[RolloutResult], list[npt.NDArray[np.float64]]]:
    """The best play's position and the play made's (``starts``) rolled out against each
    other for :func:`confirmed`, games ``truncate`` plays long: the rollouts, and each
    one's mean outputs (before the results' clipping, so that the loss is the games'
    mean)."""
    means: list[npt.NDArray[np.float64]] = []  # each play's, over the games so far

    def clear(games: list[npt.NDArray[np.float64]]) -> bool:
        """Whether the loss's 95% interval lies above :data:`BAD` or below it, or holds
        ``marked`` (the rollout finds no fault with the mark: more games would only narrow
        it). Asked after every block, the last included."""
        means[:] = [g.mean(axis=0) for g in games]
        loss = (games[0] - games[1]) @ weights  # game by game
        half = Z95 * float(loss.std(ddof=1)) / math.sqrt(len(loss))
        mean = float(loss.mean())
        return abs(mean - BAD) > half or abs(mean - marked) <= half

    results = rollouts(
        starts,
        games=CONFIRM_GAMES,
        truncate=truncate,
        after_play=True,
        jobs=1,
        ev=ev,
        enough=clear,
        kept=kept,
    )
    return results, means


def _first(
    ranked: Sequence[RankedPlay], again: Sequence[int], valued: Sequence[RankedPlay]
) -> list[RankedPlay]:
    """``ranked`` with its plays at ``again`` valued anew (``valued``, in that order): those
    first, best first, the rest after them as they were."""
    rest = [r for i, r in enumerate(ranked) if i not in again]
    return sorted(valued, key=lambda r: -r.equity) + rest


def _linear(stakes: Stakes) -> tuple[float, npt.NDArray[np.float64]]:
    """``stakes``' equity of five probabilities as a linear function of them, its constant
    and its weights. It is one, each result's probability times what the result is worth,
    wherever the probabilities are consistent; but a rollout's games corrected for luck may
    lie outside [0, 1], where :meth:`Stakes.equities` would clip them: the games' mean
    equity and its error are the weights applied to each game."""
    base = np.array([0.5, 0.2, 0.05, 0.2, 0.05], dtype=np.float32)  # consistent, inside
    step = 0.01
    rows = np.repeat(base[None, :], 6, axis=0)
    rows[1:] += step * np.eye(5, dtype=np.float32)
    values = stakes.equities(rows)
    weights = (values[1:] - values[0]) / step
    return float(values[0] - base.astype(np.float64) @ weights), weights


def _valued(
    position: Position,
    d1: int,
    d2: int,
    plays: Sequence[Play],
    ply: int,
    ev: Evaluator,
    stakes: Stakes,
    chosen: bool,
) -> list[RankedPlay]:
    """Some plays of one roll (each as many single moves as the others), each valued at
    ``ply`` by what follows it, in their order."""
    then = position.variant.after_play(d1, d2, len(plays[0].moves), chosen)
    pairs = [(p.position.mine, p.position.theirs) for p in plays]
    outputs = ev.played(position.variant, pairs, ply, then, stakes.equities)
    return [
        RankedPlay(p, o, ply, stakes.equity(o), stakes.mwc(o))
        for p, o in zip(plays, outputs, strict=True)
    ]


def _plays_by_result(position: Position, d1: int, d2: int) -> dict[Pair, Play]:
    """The legal plays of a roll by the position each reaches, as the evaluator keys them."""
    return {(p.position.mine, p.position.theirs): p for p in position.legal_plays(d1, d2)}


def evaluate(position: Position, ply: int = 1, ev: Evaluator | None = None) -> F32:
    """The five cubeless probabilities of the side on roll in ``position``, before its roll.

    At 0-ply this is the net's own view of the position, as the opponent's just-played
    position seen from the other side; at ``n`` ply the average over the 21 rolls of the best
    play at ``n - 1`` ply. A finished game is valued exactly."""
    _check_ply(ply)
    ev = ev or load_evaluator(position.variant)
    if position.outcome() is not None:
        return ev.on_roll(position)  # exact
    their_view = ev.after(position.variant, [(position.theirs, position.mine)], ply)
    outputs: F32 = flip(their_view)[0]
    return outputs


def cube_ply(ply: int) -> int:
    """The lookahead of a cube decision asked for at ``ply``: at least one roll, as the
    engine's ``cube`` and the bots look (a position before its roll has no 0-ply value of its
    own, only the opponent's view of it)."""
    return max(ply, 1)


def cube_analysis(
    position: Position,
    stakes: Stakes,
    ply: int = 1,
    ev: Evaluator | None = None,
    *,
    doubled: bool = False,
) -> tuple[F32, CubeDecision]:
    """The side on roll's probabilities at :func:`cube_ply` of ``ply`` and its cube decision
    at ``stakes``; with ``doubled``, he has doubled and the decision to read is his
    opponent's answer (:meth:`Stakes.decision`)."""
    ev = ev or load_evaluator(position.variant)
    outputs = evaluate(position, cube_ply(ply), ev)
    decision = stakes.decision(outputs, position, doubled=doubled)
    return outputs, decision_ahead(ev, position, stakes, decision, cube_ply(ply))


CUBE_CLOSE = 0.1
"""A cube decision is rolled out (:func:`cube_confirmed`) where the lookahead values the
double, against its proper answer, within this of playing on, or above it."""
CUBE_TRUNCATE = 10
"""Plays a game of a cube decision's rollout runs for, then the net's value of the position
reached stands in for the rest. On issue 20's matches the rollouts truncated so judged the
cube as well as games of 20 plays or whole games did, for half and a third of their cost
(docs/benchmarks.md, "Cube decisions rolled out")."""
CUBE_GAMES = 4 * STRATUM
"""The most games of a cube decision's rollout: it stops sooner, after a block of 36 games,
where the decision is clear (:func:`cube_confirmed`)."""


def cube_judgement(
    position: Position,
    stakes: Stakes,
    ply: int = 1,
    ev: Evaluator | None = None,
    *,
    doubled: bool = False,
) -> tuple[CubeDecision, int]:
    """The cube decision the analysis judges a player's by (with ``doubled``, his
    opponent's answer): :func:`cube_analysis`'s, or where that is close, the rollout's
    (:func:`cube_confirmed`); and the games of that rollout (0: none)."""
    ev = ev or load_evaluator(position.variant)
    decision = cube_analysis(position, stakes, ply, ev, doubled=doubled)[1]
    return cube_confirmed(position, stakes, decision, ply, ev, doubled=doubled)


def cube_confirmed(
    position: Position,
    stakes: Stakes,
    decision: CubeDecision,
    ply: int,
    ev: Evaluator | None = None,
    *,
    doubled: bool = False,
) -> tuple[CubeDecision, int]:
    """The cube decision the analysis judges by, with the games of its rollout (0: none):
    ``decision`` (the lookahead's at ``ply``), or where the double is within
    :data:`CUBE_CLOSE` of playing on or above it, the cube model's on the position's chances
    rolled out (games :data:`CUBE_TRUNCATE` plays long, at 0-ply, with the luck correction;
    with ``doubled``, the decision of the answer).

    The lookahead sees the position through the net's eyes, and a net that misjudges a kind
    of position (a backgame, a deep holding game, which its own self-play seldom reaches)
    misjudges its cube at every ply: on GNU Backgammon's matches nardy doubled too early
    where gnubg's chances were lower. A rollout plays the game on and leaves most of that
    error behind; its chances, through the model at the root as gnubg's 0-ply does it, agreed
    with gnubg 2-ply's proper action more often, and cost less by gnubg's equities, than the
    lookahead (docs/benchmarks.md, "Cube decisions rolled out"). The games go in blocks of 36
    until the action is the same for chances 95% stronger or weaker (each probability its
    standard error times 1.96 up or down, the doubler's better or worse), at most
    :data:`CUBE_GAMES`. As :func:`confirmed`: backgammon's geometry only, not races (their
    distributions of rolls value them), and not at 0-ply."""
    if decision.double_take is None or decision.double_pass is None or ply < 1:
        return decision, 0
    if min(decision.double_take, decision.double_pass) - decision.no_double <= -CUBE_CLOSE:
        return decision, 0
    ev = ev or load_evaluator(position.variant)
    if not ev.bearoff or position.is_race():
        return decision, 0
    better = np.array([1.0, 1.0, 1.0, -1.0, -1.0])  # the doubler's chances up

    def decided(outputs: F64) -> CubeDecision:
        return stakes.decision(probabilities(outputs), position, doubled=doubled)

    def action(outputs: F64) -> tuple[Action, Response | None]:
        d = decided(outputs)
        return d.action, d.response

    def clear(games: list[F64]) -> bool:
        """Whether the action stands for chances 95% stronger or weaker."""
        (played,) = games
        mean = played.mean(axis=0)
        shift = Z95 * played.std(axis=0, ddof=1) / math.sqrt(len(played)) * better
        return action(mean) == action(mean + shift) == action(mean - shift)

    (result,) = rollouts(
        [position], games=CUBE_GAMES, truncate=CUBE_TRUNCATE, jobs=1, ev=ev, enough=clear
    )
    return decided(result.outputs.astype(np.float64)), result.games


def cube_action_key(d: CubeDecision) -> str:
    """The doubler's proper action as a stable key, in the words of ``nardy engine``'s
    ``cube`` answer: ``no-double``, ``double-take``, ``double-pass``, ``double-beaver``,
    ``too-good`` (to double: he plays on for the gammon, the opponent would pass) or
    ``cannot-double`` (the cube his opponent's, the Crawford game, or dead)."""
    if d.action is Action.UNAVAILABLE:
        return "cannot-double"
    if d.action is Action.TOO_GOOD:
        return "too-good"
    if d.action is Action.NO_DOUBLE:
        return "no-double"
    return f"double-{d.response}"


# -- games ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckerPlay:
    """One turn's checker play, judged. ``turn`` counts the game's turns from 1; equities
    are normalised (EMG) for the mover; ``unit`` prices one unit of them (the cube in points
    for money, match winning chance in a match)."""

    turn: int
    player: int
    dice: tuple[int, int]
    position: str
    """The Position ID before the play, from the mover's side."""
    played: str
    best: str
    played_equity: float
    best_equity: float
    ply: int
    choices: int
    """Distinct legal plays of the roll: 1 is a forced play (or no move at all)."""
    unit: float
    rollout: int = 0
    """The games of the rollout that judged the play (:func:`confirmed`: a play marked bad
    or very bad at ``ply``), its equities the rollout's; 0 where none did."""

    @property
    def loss(self) -> float:
        """The equity given away by the play (0 for the best)."""
        return max(0.0, self.best_equity - self.played_equity)

    @property
    def forced(self) -> bool:
        return self.choices <= 1

    @property
    def skill(self) -> str | None:
        """ "doubtful", "bad", "very bad" or None."""
        return None if self.forced else skill(self.loss)


@dataclass(frozen=True, slots=True)
class CubeAction:
    """One cube decision judged: the doubler's (double or not) or the doubled player's (take,
    pass or beaver), against ``decision``, the doubler's cube decision at the analysis ply.
    Its equities are the doubler's, normalised to the cube before the double (EMG, with match
    winning chances in a match); ``loss`` is what the action gave away, for the player who
    took it, and ``unit`` prices it (see :class:`CheckerPlay`)."""

    turn: int
    player: int
    role: str
    """"double" (the player on roll's decision) or "take" (his opponent's answer)."""
    action: str
    """What was done: "no double", "double", "take", "pass" or "beaver"."""
    proper: str
    """The right action, as gnubg words it ("Double, take", "No double, take", "pass"…)."""
    decision: CubeDecision
    loss: float
    close: bool
    """Counted as a decision in the error rate: a close decision or an actual double,
    take, pass or beaver."""
    unit: float
    rollout: int = 0
    """The games of the rollout whose chances gave ``decision`` (:func:`cube_confirmed`: a
    close decision at the analysis ply); 0 where none did."""

    @property
    def proper_key(self) -> str:
        """The right action as a stable key: :func:`cube_action_key` for the doubler, "take",
        "pass" or "beaver" for the answer."""
        return cube_action_key(self.decision) if self.role == "double" else self.proper

    @property
    def skill(self) -> str | None:
        return skill(self.loss)


RESIGN_WORDS = {level: kind.value for level, kind in RESIGN_LEVELS.items()}
"""A resignation's level as a word."""


@dataclass(frozen=True, slots=True)
class ResignationAction:
    """One resignation judged, as GNU Backgammon judges them: the resigner's offer
    (``role`` "offer") or his opponent's answer ("answer"), against the equity of playing on.

    ``offered`` is what accepting gives the opponent and ``play_on`` what playing on is
    worth to him (his cubeful equity at the analysis ply, normalised to the cube: EMG), both
    for the opponent. Offering more than playing on would cost is the resigner's error (an
    offer is judged whether or not it was accepted); accepting less than playing on, or
    declining more, the opponent's. ``loss`` is the error, for the player who made it;
    ``unit`` prices it (see :class:`CheckerPlay`)."""

    turn: int
    player: int
    role: str
    level: int
    after_roll: bool
    action: str
    """What was done: "resign a single" (gammon, backgammon), "accept" or "decline"."""
    proper: str
    """The right action: "resign" or "play on" for the offer, "accept" or "decline"."""
    offered: float
    play_on: float
    loss: float
    unit: float

    @property
    def skill(self) -> str | None:
        return skill(self.loss)


@dataclass(frozen=True, slots=True)
class Roll:
    """The luck of one roll for its roller: the equity of the roll thrown minus the average
    roll's, normalised; ``unit`` prices it (see :class:`CheckerPlay`)."""

    turn: int
    player: int
    dice: tuple[int, int]
    luck: float
    unit: float

    @property
    def mark(self) -> str | None:
        return luck_mark(self.luck)


@dataclass
class PlayerStats:
    """One player's totals over a game or a match, as gnubg's statistics count them. Errors
    and luck are kept normalised (EMG) and priced (``*_value``: points for money, match
    winning chance in a match)."""

    moves: int = 0
    """Turns with a roll and a play (forced ones included)."""
    unforced: int = 0
    marked: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in SKILLS})
    checker_error: float = 0.0
    checker_value: float = 0.0
    cube_decisions: int = 0
    """Close or actual cube decisions."""
    cube_marked: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in SKILLS})
    cube_error: float = 0.0
    cube_value: float = 0.0
    resignations: int = 0
    """Resignations offered or answered (each a decision in the error rate)."""
    resign_marked: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in SKILLS})
    resign_error: float = 0.0
    resign_value: float = 0.0
    rolls: int = 0
    luck: float = 0.0
    luck_value: float = 0.0
    lucky: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in LUCK_MARKS})
    result: float = 0.0
    """Points won (positive) or lost; in a match, match winning chance gained or lost."""

    def add(self, other: PlayerStats) -> None:
        """Count ``other``'s totals in too (a game's into a match's)."""
        for name in (
            "moves",
            "unforced",
            "checker_error",
            "checker_value",
            "cube_decisions",
            "cube_error",
            "cube_value",
            "resignations",
            "resign_error",
            "resign_value",
            "rolls",
            "luck",
            "luck_value",
            "result",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for counts, more in (
            (self.marked, other.marked),
            (self.cube_marked, other.cube_marked),
            (self.resign_marked, other.resign_marked),
            (self.lucky, other.lucky),
        ):
            for key, n in more.items():
                counts[key] += n

    def count_play(self, play: CheckerPlay) -> None:
        """Count one of the player's checker plays in."""
        self.moves += 1
        if not play.forced:
            self.unforced += 1
            self.checker_error += play.loss
            self.checker_value += play.loss * play.unit
            if play.skill is not None:
                self.marked[play.skill] += 1

    def count_cube(self, c: CubeAction) -> None:
        """Count one of the player's cube decisions in."""
        self.cube_error += c.loss
        self.cube_value += c.loss * c.unit
        self.cube_decisions += c.close
        if c.skill is not None:
            self.cube_marked[c.skill] += 1

    def count_roll(self, roll: Roll) -> None:
        """Count the luck of one of the player's rolls in."""
        self.rolls += 1
        self.luck += roll.luck
        self.luck_value += roll.luck * roll.unit
        if roll.mark is not None:
            self.lucky[roll.mark] += 1

    def count_resignation(self, r: ResignationAction) -> None:
        """Count one resignation the player offered or answered in."""
        self.resignations += 1
        self.resign_error += r.loss
        self.resign_value += r.loss * r.unit
        if r.skill is not None:
            self.resign_marked[r.skill] += 1

    @property
    def decisions(self) -> int:
        """What the error rate is per: unforced moves, close or actual cube decisions and
        resignations offered or answered."""
        return self.unforced + self.cube_decisions + self.resignations

    @property
    def error(self) -> float:
        """The total normalised error: checker play, cube and resignations."""
        return self.checker_error + self.cube_error + self.resign_error

    @property
    def error_rate(self) -> float | None:
        """Normalised error per decision (None without a decision)."""
        return self.error / self.decisions if self.decisions else None

    @property
    def checker_rate(self) -> float | None:
        """Normalised checker-play error per unforced move."""
        return self.checker_error / self.unforced if self.unforced else None

    @property
    def cube_rate(self) -> float | None:
        """Normalised cube error per close or actual cube decision."""
        return self.cube_error / self.cube_decisions if self.cube_decisions else None

    @property
    def rating(self) -> str | None:
        """gnubg's overall rating of the error rate."""
        rate = self.error_rate
        return None if rate is None else rating(rate)

    @property
    def luck_rate(self) -> float | None:
        """Luck per move (normalised)."""
        return self.luck / self.moves if self.moves else None

    @property
    def luck_rating(self) -> str | None:
        rate = self.luck_rate
        return None if rate is None else luck_rating(rate)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """One game judged: its number and the score before it, every checker play, cube decision
    and roll, who won what, and each player's totals."""

    number: int
    score: tuple[int, int]
    plays: tuple[CheckerPlay, ...]
    cubes: tuple[CubeAction, ...]
    rolls: tuple[Roll, ...]
    winner: int | None
    points: int
    kind: str | None
    cube: int
    stats: tuple[PlayerStats, PlayerStats]
    resignations: tuple[ResignationAction, ...] = ()


@dataclass(frozen=True, slots=True)
class Analysis:
    """Games of one match or session judged, with each player's totals over all of them."""

    players: tuple[str, str]
    variant: str
    match_length: int
    ply: int
    games: tuple[GameAnalysis, ...]
    stats: tuple[PlayerStats, PlayerStats]
    seconds: float
    settings: Settings
    """The settings the games were played under: without the cube (long nardy's default)
    there is no cube decision to judge or show."""

    @property
    def luck_adjusted(self) -> tuple[float, float]:
        """Each player's result minus his own luck plus the opponent's (gnubg's "luck
        adjusted result"), in points (money) or match winning chance (a match)."""
        a, b = self.stats
        swing = a.luck_value - b.luck_value
        return a.result - swing, b.result + swing


def analyze(
    records: Iterable[dict[str, Any]],
    *,
    ply: int = 1,
    ev: Evaluator | None = None,
    jobs: int | None = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Judge the games of one match or session, given as game records in order (one per
    game, as ``nardy.notation.record`` writes them).

    ``ply`` is the lookahead of the checker play and cube analysis; ``jobs`` processes share
    the turns (None: every core; a pool starts only for :data:`TURNS_PER_PROCESS` turns or
    more each, as starting one costs about a second); ``progress`` is called with the turns
    judged so far and their total."""
    _check_ply(ply)
    began = time.perf_counter()
    records = list(records)
    if not records:
        raise NardyError("no games to analyse")
    games: list[Game] = []
    scores: list[tuple[int, int]] = []
    for i, record in enumerate(records):
        try:
            games.append(replay(check_record(record, match=False)))
            scores.append(_score(record))
        except NardyError as exc:
            raise NardyError(f"game {record.get('game', i + 1)}: {exc}") from None
    ev = ev or load_evaluator(games[0].variant)
    for game in games:
        ev.check(game.variant)
    tasks = [
        task
        for i, (game, score) in enumerate(zip(games, scores, strict=True))
        for task in _turn_tasks(game, i, score)
    ]
    judged = _evaluate_all(ev, tasks, ply, jobs, progress)
    analyses = []
    totals = (PlayerStats(), PlayerStats())
    for i, (game, record) in enumerate(zip(games, records, strict=True)):
        analysis = _assemble(
            game,
            [(t, judged[k]) for k, t in enumerate(tasks) if t.game == i],
            number=int(record.get("game", i + 1)),
            score=scores[i],
        )
        analyses.append(analysis)
        for total, stats in zip(totals, analysis.stats, strict=True):
            total.add(stats)
    first = records[0]
    players = first.get("players", ("Player 0", "Player 1"))
    return Analysis(
        (str(players[0]), str(players[1])),
        games[0].variant.key,
        games[0].settings.match_length,
        ply,
        tuple(analyses),
        totals,
        time.perf_counter() - began,
        games[0].settings,
    )


TURNS_PER_PROCESS = 40
"""The fewest turns per worker process worth starting a pool for."""


def _score(record: dict[str, Any]) -> tuple[int, int]:
    """The score before the game: ``[player 0, player 1]``, 0-0 when the record has none."""
    score = record.get("score", (0, 0))
    if not (
        isinstance(score, list | tuple)
        and len(score) == 2
        and all(isinstance(x, int) and x >= 0 for x in score)
    ):
        raise NardyError(f"the score is two points 0 or more, not {score!r}")
    return int(score[0]), int(score[1])


def analyze_game(
    game: Game,
    *,
    ply: int = 1,
    ev: Evaluator | None = None,
    number: int = 1,
    score: tuple[int, int] = (0, 0),
) -> GameAnalysis:
    """Judge every turn of a played (or replayed) game, game ``number`` of its match played
    from ``score``, in this process."""
    _check_ply(ply)
    ev = ev or load_evaluator(game.variant)
    ev.check(game.variant)
    tasks = _turn_tasks(game, 0, score)
    judged = _evaluate_all(ev, tasks, ply, 1, None)
    return _assemble(game, list(zip(tasks, judged, strict=True)), number=number, score=score)


# -- the work of one turn -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _TurnTask:
    """What there is to judge in one turn, picklable for the worker processes."""

    game: int
    turn: int
    player: int
    variant: str
    before: Pair
    after: Pair | None
    """The position the play reached; None when no play was made."""
    dice: tuple[int, int] | None
    play: str
    luck: str
    """"roll", "opening" (the opening roll, which either player could have got) or "" (no
    roll, or a named double: chosen, not rolled)."""
    stakes: Stakes
    """At the roll, from the mover's side."""
    cube_before: Stakes | None
    """Before the roll, from the mover's side, where he could double; None elsewhere."""
    cube_actions: tuple[str, ...]
    resignations: tuple[tuple[int, bool, bool], ...] = ()
    """The resignations offered in the turn: (level, accepted, after the roll)."""
    chosen: bool = False
    """The dice are acey-deucey's double named after a 1-2."""

    @property
    def doubled(self) -> bool:
        """The mover doubled before his roll."""
        return bool(self.cube_actions) and self.cube_actions[0] == "double"


_Judged = tuple[
    float | None, CheckerPlay | None, tuple[CubeAction, ...], tuple[ResignationAction, ...]
]


def _turn_tasks(game: Game, index: int, score: tuple[int, int]) -> list[_TurnTask]:
    """The turns of a game that have a roll or a cube decision, with the stakes of each."""
    settings = game.settings

    def stakes(player: int, cube: int, owner: int | None) -> Stakes:
        return Stakes.at(settings, score, player, game.crawford, cube, owner)

    cube, owner = game.start_cube[0] << game.cube.automatic, game.start_cube[1]
    opening = bool(game.opening_rolls) and settings.plays_opening_roll
    tasks = []
    for i, turn in enumerate(game.records):
        before_roll = stakes(turn.player, cube, owner)
        doubled = bool(turn.cube) and turn.cube[0] == "double"
        may_double = (
            before_roll.cube_in_use
            and owner in (None, turn.player)
            and (doubled or not before_roll.cube_dead)  # dead: no decision, unless he doubled
            and not (opening and i == 0)  # the opening roll came before any cube decision
            and not turn.chosen  # acey-deucey's named double goes on from the 1-2
            and (turn.dice is not None or bool(turn.cube))  # not a resignation instead
            and turn.before.outcome() is None  # long nardy's last roll
        )
        # A taken double doubles the cube, a beaver doubles it again and the doubler's take
        # of the beaver once more; the roll that follows is played for the new stake.
        for action in turn.cube:
            if action in ("take", "beaver"):
                cube *= 2
                if action == "beaver" or "beaver" not in turn.cube:
                    owner = 1 - turn.player  # the doubler's take of a beaver leaves it there
        # A surrender (level 0, long nardy) has no equity to weigh: only resignations are.
        resignations = tuple(r for r in turn.resignations if r[0] in RESIGN_WORDS)
        if turn.dice is None and not may_double and not resignations:
            continue
        rolled = turn.dice is not None and not turn.chosen
        tasks.append(
            _TurnTask(
                index,
                i + 1,
                turn.player,
                game.variant.key,
                (turn.before.mine, turn.before.theirs),
                None if turn.play is None else (turn.after.mine, turn.after.theirs),
                turn.dice,
                "" if turn.play is None else str(turn.play),
                "" if not rolled else "opening" if opening and i == 0 else "roll",
                stakes(turn.player, cube, owner),
                before_roll if may_double else None,
                turn.cube,
                resignations,
                turn.chosen,
            )
        )
    return tasks


def _evaluate_all(
    ev: Evaluator,
    tasks: list[_TurnTask],
    ply: int,
    jobs: int | None,
    progress: Callable[[int, int], None] | None,
) -> list[_Judged]:
    """Each task judged, in order."""
    jobs = processes(jobs, len(tasks) // TURNS_PER_PROCESS)
    results: list[_Judged] = []
    if jobs <= 1:
        for task in tasks:
            results.append(_evaluate(ev, task, ply))
            if progress is not None:
                progress(len(results), len(tasks))
        return results
    with worker_pool(jobs, _start_worker, (ev, ply)) as pool:
        for result in pool.imap(_work, tasks, chunksize=4):
            results.append(result)
            if progress is not None:
                progress(len(results), len(tasks))
    return results


_worker: tuple[Evaluator, int] | None = None


def _start_worker(ev: Evaluator, ply: int) -> None:
    global _worker
    _worker = (ev, ply)


def _work(task: _TurnTask) -> _Judged:
    assert _worker is not None, "the pool's initializer sets the worker up"
    return _evaluate(_worker[0], task, _worker[1])


def _evaluate(ev: Evaluator, task: _TurnTask, ply: int) -> _Judged:
    """A turn's luck (None without a roll), its play judged (None without a play) and its
    cube decisions judged."""
    before = Position(variant(task.variant), *task.before)
    # The 0-ply best play of every roll gives the luck, and its average the 1-ply value of
    # the position before the roll, which the cube decision needs at 0 and 1 ply.
    one_ply_cube = task.cube_before is not None and cube_ply(ply) == 1
    best = best_plays(ev, before) if task.luck == "roll" or one_ply_cube else None
    table = None if best is None else best[1]
    luck = None
    if task.luck == "opening":
        luck = _opening_luck(ev, before, task)
    elif task.luck and table is not None:
        values = task.stakes.equities(table)
        luck = float(values[roll_index(*(task.dice or (1, 1)))] - ROLL_WEIGHTS @ values)
    cubes: tuple[CubeAction, ...] = ()
    if task.cube_before is not None:
        if table is not None and one_ply_cube:
            outputs: F32 = (ROLL_WEIGHTS @ table).astype(np.float32)
        else:
            outputs = evaluate(before, cube_ply(ply), ev)
        decision = task.cube_before.decision(outputs, before, doubled=task.doubled)
        decision = decision_ahead(ev, before, task.cube_before, decision, cube_ply(ply), best)
        decision, games = cube_confirmed(
            before, task.cube_before, decision, ply, ev, doubled=task.doubled
        )
        cubes = _judge_cube(task, decision, games)
    resigned = _judge_resignations(ev, before, task, ply)
    if task.after is None or task.dice is None:
        return luck, None, cubes, resigned
    return luck, _judge(ev, before, task, ply), cubes, resigned


def _judge_resignations(
    ev: Evaluator, before: Position, task: _TurnTask, ply: int
) -> tuple[ResignationAction, ...]:
    """The turn's resignations, offer and answer, against the equity of playing on: before
    the roll the resigner's cubeful equity on roll (he could still double), after it the
    opponent's on roll after the resigner's best play of the dice — both at the analysis
    ply, for the opponent (gnubg's resignation analysis)."""
    judged: list[ResignationAction] = []
    stakes, opponent = task.stakes, 1 - task.player
    for level, accepted, after_roll in task.resignations:
        if after_roll and task.dice is not None:
            best = ranking(before, *task.dice, ply, ev, stakes, task.chosen)[0]
            theirs: F32 = flip(best.outputs[None, :])[0]
            reached = best.play.position.swap()
            play_on = stakes.swap().decision(theirs, reached).equity
        else:
            outputs = evaluate(before, cube_ply(ply), ev)
            play_on = -stakes.decision(outputs, before).equity
        offered = -stakes.result_equity(-stakes.resignation_points(level))
        right = offered <= play_on + 1e-9  # a resignation giving away no more than playing on
        judged.append(
            ResignationAction(
                task.turn,
                task.player,
                "offer",
                level,
                after_roll,
                f"resign a {RESIGN_WORDS[level]}",
                "resign" if right else "play on",
                offered,
                play_on,
                max(0.0, offered - play_on),
                stakes.unit,
            )
        )
        judged.append(
            ResignationAction(
                task.turn,
                opponent,
                "answer",
                level,
                after_roll,
                "accept" if accepted else "decline",
                "accept" if offered >= play_on else "decline",
                offered,
                play_on,
                max(0.0, (play_on - offered) if accepted else (offered - play_on)),
                stakes.unit,
            )
        )
    return tuple(judged)


def _judge(ev: Evaluator, before: Position, task: _TurnTask, ply: int) -> CheckerPlay:
    """The play made against the best play of the roll, both valued at ``ply`` (every play
    of a roll is, :func:`rank_plays`), or where that is 1-ply at :data:`DEEPER_PLY`, among
    the best few (:func:`deepened`); a play that marks bad or very bad, by a rollout against
    the best (:func:`confirmed`). A play as good as the best is the best."""
    assert task.dice is not None and task.after is not None
    ranked = judgement(before, *task.dice, task.after, ply, ev, task.stakes, task.chosen)
    choices = len(ranked)  # every play of the roll is kept, revalued or not
    best, mine = ranked[0], ranked[rank_of(ranked, task.after)]
    best_play = task.play if mine.equity >= best.equity else str(best.play)
    return CheckerPlay(
        task.turn,
        task.player,
        task.dice,
        position_id(before),
        task.play,
        best_play,
        mine.equity,
        best.equity,
        best.ply,
        choices,
        task.stakes.unit,
        best.rollout,
    )


def _judge_cube(task: _TurnTask, d: CubeDecision, games: int) -> tuple[CubeAction, ...]:
    """The doubler's decision and, after a double, the answer, against ``d`` (the chances
    of a rollout of ``games``, where not 0)."""
    stakes = task.cube_before
    assert stakes is not None
    if d.double_take is None or d.double_pass is None:
        return ()  # the cube is not available after all (the opponent's, or dead)
    best = d.equity
    doubled = task.doubled
    value = d.double_value if doubled else d.no_double
    assert value is not None
    # gnubg's isCloseCubedecision: the proper action against the double, the pass capped
    # at +1.
    close = best - min(d.double_take, d.double_pass, 1.0) < CLOSE_CUBE
    judged = [
        CubeAction(
            task.turn,
            task.player,
            "double",
            "double" if doubled else "no double",
            d.text,
            d,
            max(0.0, best - value),
            close or doubled,
            stakes.unit,
            games,
        )
    ]
    if doubled and len(task.cube_actions) > 1:
        judged.append(
            answer_action(task.turn, 1 - task.player, task.cube_actions[1], d, stakes.unit, games)
        )
    return tuple(judged)


def answer_action(
    turn: int, player: int, answer: str, d: CubeDecision, unit: float, rollout: int = 0
) -> CubeAction:
    """``player``'s answer (take, pass or beaver) to the double of turn ``turn``, judged
    against the doubler's cube decision ``d`` (from a rollout of ``rollout`` games, where
    not 0): the right answer leaves the doubler least."""
    assert d.double_take is not None and d.double_pass is not None
    answers = {Response.TAKE.value: d.double_take, Response.PASS.value: d.double_pass}
    if d.double_beaver is not None:
        answers[Response.BEAVER.value] = d.double_beaver
    right = min(answers, key=lambda a: (answers[a], a != Response.TAKE.value))
    loss = max(0.0, answers.get(answer, answers[right]) - answers[right])
    return CubeAction(turn, player, "take", answer, right, d, loss, True, unit, rollout)


_OPENING = [i for i, (a, b, _) in enumerate(ROLLS) if a != b]


def _opening_luck(ev: Evaluator, before: Position, task: _TurnTask) -> float:
    """The luck of the opening roll for the player who got it: its equity minus the average of
    the 30 opening rolls, half of them thrown for the opponent (gnubg's ``LuckFirst``)."""
    assert task.dice is not None
    mine = task.stakes.equities(best_plays(ev, before)[1])
    theirs = task.stakes.swap().equities(best_plays(ev, before.swap())[1])
    mean = (mine[_OPENING].sum() - theirs[_OPENING].sum()) / (2 * len(_OPENING))
    return float(mine[roll_index(*task.dice)] - mean)


def _assemble(
    game: Game,
    judged: Sequence[tuple[_TurnTask, _Judged]],
    *,
    number: int,
    score: tuple[int, int],
) -> GameAnalysis:
    """A game's analysis from its judged turns: the plays, cube actions, rolls and totals."""
    stats = (PlayerStats(), PlayerStats())
    plays: list[CheckerPlay] = []
    cubes: list[CubeAction] = []
    rolls: list[Roll] = []
    resignations: list[ResignationAction] = []
    for task, (luck, play, cube_actions, resigned) in judged:
        for r in resigned:
            resignations.append(r)
            stats[r.player].count_resignation(r)
        for c in cube_actions:
            cubes.append(c)
            stats[c.player].count_cube(c)
        if luck is not None and task.dice is not None:
            roll = Roll(task.turn, task.player, task.dice, luck, task.stakes.unit)
            rolls.append(roll)
            stats[task.player].count_roll(roll)
        if play is not None:
            plays.append(play)
            stats[task.player].count_play(play)
    result = game.result
    if result is not None and result.winner is not None:
        gain = _result_value(game, score, result.winner, result.points)
        stats[result.winner].result += gain
        stats[1 - result.winner].result -= gain
    return GameAnalysis(
        number,
        score,
        tuple(plays),
        tuple(cubes),
        tuple(rolls),
        None if result is None else result.winner,
        0 if result is None else result.points,
        None if result is None else result.kind,
        game.cube.value,
        stats,
        tuple(resignations),
    )


def _result_value(game: Game, score: tuple[int, int], winner: int, points: int) -> float:
    """What the winner gained: the points for money, the match winning chance in a match
    (gnubg's ``arActualResult``)."""
    length = game.settings.match_length
    if not length or max(score) >= length:
        return float(points)
    match = MatchState(length, score[winner], score[1 - winner], game.crawford)
    # At the start of this game a player one away plays the Crawford game or a later one;
    # after it, equity_after knows which comes next.
    before = match_equity(match.away_me, match.away_opp, crawford=game.crawford)
    return match.equity_after(match.away_me - points, match.away_opp) - before
