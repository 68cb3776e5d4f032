"""Cube decisions from a position's cubeless probabilities: money play by Janowski's model,
match play by the match equity table (:mod:`nardy.engine.met`) and the same model at the
score.

**The probabilities** (``probs``) are five numbers in the order of the net's outputs
(:mod:`nardy.engine.net`), for the player **on roll, before he rolls** (the moment a cube
decision is made): win (any kind), win a gammon or backgammon, win a backgammon, lose a
gammon or backgammon, lose a backgammon. Any sequence of five floats will do, a numpy array
of shape ``(5,)`` included. Being a net's independent outputs, they may be slightly
inconsistent; they are clipped to [0, 1] and then so that a backgammon is never likelier
than a gammon, nor a gammon than the win (or loss) it is part of.

**The cube** is a :class:`CubeState`: its value and who owns it, seen from the player on
roll. **The game** is money play (:class:`MoneyRules`: Jacoby, beavers) or a match
(:class:`MatchState`: length, scores, whether this is the Crawford game).

**The model** is Janowski's: the cubeful equity is ``x·live + (1 - x)·dead``, where *dead*
is the cubeless equity and *live* the equity of the continuous model, in which winning
chances move smoothly, a player doubles exactly at his opponent's take point and the game
ends at 0 or 1 with the position's average win and loss values ``W`` and ``L``. The cube
efficiency ``x`` is 0.68 in contact and, in a race, ``0.55 + 0.00125·pips`` of the player on
roll kept within [0.6, 0.7] (GNU Backgammon's documented settings, :func:`cube_efficiency`).
In a match the values are match winning chances (the table at the score a game leads to)
and the live model follows the cube level by level until it covers what both players need
(:class:`~nardy.engine.met.LiveCubeModel`).

**The equities**, as GNU Backgammon shows them: for money, in units of the current stake
(the cube normalised to 1), so double/pass is always +1; for a match, match winning chances
(``mwc_*``) and the same normalised to the cube, the "equivalent to money game" (EMG), where
losing a single game at the current cube is -1 and winning one +1.

    >>> d = cube_decision([0.75, 0.0, 0.0, 0.0, 0.0])
    >>> d.text, round(d.take_point, 3)
    ('Double, take', 0.214)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from nardy.core import scoring
from nardy.core.game import MONEY_CUBE_LIMIT, cube_limit
from nardy.core.settings import Settings
from nardy.engine.errors import EngineError
from nardy.engine.met import (
    Curve,
    LiveCubeModel,
    Split,
    clip_curve,
    crossing,
    curve_at,
    line,
    match_equity,
    scale_curve,
    taut_string,
)

Probabilities = Sequence[float] | npt.NDArray[np.floating]
"""Five cubeless probabilities for the player on roll (see the module docstring)."""

CONTACT_EFFICIENCY = 0.68
"""Janowski's cube efficiency ``x`` for positions with contact (GNU Backgammon's value)."""
RACE_EFFICIENCY_RANGE = (0.6, 0.7)
"""The bounds of the race efficiency; a race without a pip count gets the upper one."""


class Owner(StrEnum):
    """Who holds the cube, seen from the player on roll."""

    CENTRED = "centred"
    ME = "me"
    OPPONENT = "opponent"


class Action(StrEnum):
    """The doubler's proper action."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TOO_GOOD = "too good to double"
    """Playing on for a gammon is worth more than the opponent's pass."""
    UNAVAILABLE = "cannot double"
    """The opponent owns the cube, or it is the Crawford game."""


class Response(StrEnum):
    """The doubled player's proper answer."""

    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube: its value and its owner (seen from the player on roll)."""

    value: int = 1
    owner: Owner = Owner.CENTRED

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or self.value < 1:
            raise EngineError(f"a cube value is a whole number from 1, not {self.value!r}")


@dataclass(frozen=True, slots=True)
class MoneyRules:
    """Money play: the Jacoby rule (gammons count single while the cube is centred and no
    one has doubled), beavers, and what a backgammon counts (RULES.md 1.4, 1.5)."""

    jacoby: bool = True
    beaver: bool = False
    backgammon_value: int = 3
    cube: bool = True
    """False where the game is played without the doubling cube (long nardy's default,
    RULES.md 3.4): no one can double, and every result counts its cubeless points."""

    def _at_cube(self, value: int) -> MoneyRules:
        """The rules for a double of the cube at ``value``: without beavers where a beaver
        would take the cube past money play's limit (RULES.md 1.5), as the game refuses it."""
        if self.beaver and cube_limit(2 * value, None) is not None:
            return replace(self, beaver=False)
        return self


DEAD_CUBE = "the cube is dead"
"""Why the player on roll may not double in a match where a win at the cube's value already
wins him the match (RULES.md 1.5)."""
CUBE_AT_LIMIT = f"the cube is at {MONEY_CUBE_LIMIT}"
"""Why no one may double in money play once the cube is at its limit (RULES.md 1.5)."""
NO_CUBE = "no cube in this game"
"""Why no one can double where the settings leave the cube out (:attr:`MoneyRules.cube`,
:attr:`MatchState.cube`)."""


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match to ``length`` at ``score_me`` (the player on roll) to ``score_opp``.

    ``crawford`` marks the Crawford game (a player is one point away and no one may double);
    at a score with a player one point away it False means a post-Crawford game. A game at a
    score where both need 2 or more leads, when someone reaches 1 away, to a Crawford game.
    """

    length: int
    score_me: int = 0
    score_opp: int = 0
    crawford: bool = False
    backgammon_value: int = 3
    cube: bool = True
    """False where the match is played without the doubling cube (see
    :attr:`MoneyRules.cube`)."""

    def __post_init__(self) -> None:
        if self.length < 1:
            raise EngineError(f"a match is played to 1 point or more, not {self.length}")
        if not (0 <= self.score_me < self.length and 0 <= self.score_opp < self.length):
            raise EngineError(
                f"a match to {self.length} cannot be at {self.score_me}-{self.score_opp}"
            )
        if self.crawford and 1 not in (self.away_me, self.away_opp):
            raise EngineError("the Crawford game needs a player one point away")

    @property
    def away_me(self) -> int:
        """Points the player on roll still needs."""
        return self.length - self.score_me

    @property
    def away_opp(self) -> int:
        """Points his opponent still needs."""
        return self.length - self.score_opp

    @property
    def pre_crawford(self) -> bool:
        """Both players need 2 points or more."""
        return min(self.away_me, self.away_opp) >= 2

    @property
    def crawford_game(self) -> bool:
        """No doubling in this game (the 1-point match needs none either)."""
        return self.crawford and not self.pre_crawford

    def equity_after(self, away_me: int, away_opp: int) -> float:
        """The player on roll's match winning chance at the start of the next game, once this
        one has left the players ``away_me`` and ``away_opp`` from winning."""
        return match_equity(away_me, away_opp, crawford=self.pre_crawford)


def relative_owner(owner: int | None, player: int) -> Owner:
    """A game's cube owner (player 0 or 1, None while centred) as ``player`` sees it."""
    if owner is None:
        return Owner.CENTRED
    return Owner.ME if owner == player else Owner.OPPONENT


def game_rules(
    settings: Settings, score: tuple[int, int], player: int, crawford: bool
) -> tuple[MoneyRules, MatchState | None]:
    """What a game under ``settings`` is played for, from ``player``'s side: the money rules,
    and in a match not yet won at ``score`` (players 0 and 1) the match state. A backgammon
    counts its setting's value only where the variant has one (long nardy has none)."""
    backgammon_value = scoring.backgammon_value(settings)
    cube = bool(settings.cube)
    money = MoneyRules(bool(settings.jacoby), bool(settings.beaver), backgammon_value, cube)
    length = settings.match_length
    if not length or max(score) >= length:
        return money, None
    match = MatchState(length, score[player], score[1 - player], crawford, backgammon_value, cube)
    return money, match


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """A cube decision for the player on roll.

    ``no_double``, ``double_take``, ``double_pass`` and ``double_beaver`` are his cubeful
    equities normalised to the current cube (money; EMG in a match); ``mwc_*`` are the match
    winning chances in a match (None for money). The double's entries are None where he
    cannot double. ``take_point`` is the doubled player's smallest winning chance (his own)
    at which taking is right, for this position's gammon mix and cube; ``cash_point`` is the
    doubler's winning chance from which the opponent should pass (one minus it).
    """

    no_double: float
    double_take: float | None
    double_pass: float | None
    double_beaver: float | None
    action: Action
    response: Response | None
    redouble: bool
    take_point: float | None
    cash_point: float | None
    efficiency: float
    mwc_no_double: float | None = None
    mwc_double_take: float | None = None
    mwc_double_pass: float | None = None
    reason: str = ""
    """Why the player cannot double (``action`` UNAVAILABLE)."""

    @property
    def double(self) -> bool:
        """Whether the player on roll should double now."""
        return self.action is Action.DOUBLE

    @property
    def double_value(self) -> float | None:
        """The equity of doubling: what the opponent's proper answer leaves him."""
        return {
            Response.TAKE: self.double_take,
            Response.PASS: self.double_pass,
            Response.BEAVER: self.double_beaver,
            None: None,
        }[self.response]

    @property
    def equity(self) -> float:
        """The cubeful equity of the proper action (normalised; EMG in a match)."""
        value = self.double_value
        return value if self.double and value is not None else self.no_double

    @property
    def mwc(self) -> float | None:
        """The match winning chance of the proper action (None for money)."""
        if self.mwc_no_double is None:
            return None
        if self.double:
            return self.mwc_double_pass if self.response is Response.PASS else self.mwc_double_take
        return self.mwc_no_double

    @property
    def text(self) -> str:
        """The decision as GNU Backgammon words it: "Double, take", "No redouble, beaver",
        "Too good to double, pass", "No double: Crawford game"…"""
        if self.action is Action.UNAVAILABLE:
            return f"No double: {self.reason}"
        verb = "redouble" if self.redouble else "double"
        head = {
            Action.DOUBLE: verb.capitalize(),
            Action.NO_DOUBLE: f"No {verb}",
            Action.TOO_GOOD: f"Too good to {verb}",
        }[self.action]
        return f"{head}, {self.response}"


@dataclass(frozen=True, slots=True)
class ResignationDecision:
    """Whether to accept the opponent's resignation, with the two values compared, both for
    the player offered it: normalised money equity, or match winning chance."""

    accept: bool
    accept_value: float
    play_on_value: float


# -- probabilities ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Outcomes:
    """The six exclusive results' probabilities, from the five cumulative ones."""

    win: float
    win_single: float
    win_gammon: float
    win_backgammon: float
    lose_single: float
    lose_gammon: float
    lose_backgammon: float

    @classmethod
    def of(cls, probs: Probabilities) -> _Outcomes:
        values = [float(v) for v in np.asarray(probs, dtype=np.float64).reshape(-1)]
        if len(values) != 5 or not all(math.isfinite(v) for v in values):
            raise EngineError(f"five finite probabilities are needed, not {probs!r}")
        p, wg, wbg, lg, lbg = (min(max(v, 0.0), 1.0) for v in values)
        wg = min(wg, p)
        wbg = min(wbg, wg)
        lg = min(lg, 1.0 - p)
        lbg = min(lbg, lg)
        return cls(p, p - wg, wg - wbg, wbg, 1.0 - p - lg, lg - lbg, lbg)

    def split(self, win: bool) -> Split:
        """How the wins (or losses) end; a single when there are none."""
        total, parts = (
            (self.win, (self.win_single, self.win_gammon, self.win_backgammon))
            if win
            else (1.0 - self.win, (self.lose_single, self.lose_gammon, self.lose_backgammon))
        )
        if total <= 0.0:
            return (1.0, 0.0, 0.0)
        return (parts[0] / total, parts[1] / total, parts[2] / total)

    def points(self, backgammon_value: int) -> tuple[float, float]:
        """Janowski's ``W`` and ``L``: the average points of a win and of a loss."""
        w = _dot(self.split(True), backgammon_value)
        lose = _dot(self.split(False), backgammon_value)
        return w, lose

    def equity(self, backgammon_value: int) -> float:
        """Cubeless money equity for one point a game."""
        w, lose = self.points(backgammon_value)
        return self.win * w - (1.0 - self.win) * lose


def _dot(split: Split, backgammon_value: int) -> float:
    values = scoring.level_values(backgammon_value=backgammon_value)
    return sum(f * m for f, m in zip(split, values, strict=True))


def cubeless_equity(probs: Probabilities, backgammon_value: int = 3) -> float:
    """Cubeless money equity for one point a game: ``2 p(win) - 1 + p(wg) - p(lg) + (b - 2)·
    (p(wbg) - p(lbg))`` with ``b`` what a backgammon counts."""
    return _Outcomes.of(probs).equity(backgammon_value)


def cube_efficiency(race: bool = False, pips: int | None = None) -> float:
    """Janowski's ``x`` for a position: 0.68 with contact; in a race ``0.55 + 0.00125·pips``
    (the player on roll's pip count) within [0.6, 0.7], the upper bound without ``pips``
    (long races, the most efficient cube). GNU Backgammon's documented settings; the race
    values agree with the take points of races (about 21.5% in long races, more in short
    ones)."""
    if not race:
        return CONTACT_EFFICIENCY
    lo, hi = RACE_EFFICIENCY_RANGE
    if pips is None:
        return hi
    return min(hi, max(lo, 0.55 + 0.00125 * pips))


# -- money -----------------------------------------------------------------------------------


def janowski_points(
    w: float, lose: float, efficiency: float = CONTACT_EFFICIENCY
) -> tuple[float, float]:
    """Janowski's take point and cash point for money (``x``-interpolated take point
    ``(L - 1/2) / (W + L + x/2)`` of the taker, whose average win is ``W`` and loss ``L``;
    the live cash point ``(L + 1) / (W + L + 1/2)`` of a player with those values)."""
    return (lose - 0.5) / (w + lose + 0.5 * efficiency), (lose + 1.0) / (w + lose + 0.5)


def _hull3(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], upper: bool
) -> Curve:
    """The upper (or lower) envelope of three points with increasing x."""
    (x0, y0), (x1, y1), (x2, y2) = a, b, c
    chord = y0 + (y2 - y0) * (x1 - x0) / (x2 - x0)
    if (y1 > chord) == upper and x0 < x1 < x2:
        return (x0, x1, x2), (y0, y1, y2)
    return (x0, x2), (y0, y2)


def _money_curves(w: float, lose: float) -> tuple[Curve, Curve]:
    """The live-cube money equity (per unit of cube) against ``p`` when I own the cube and
    when the opponent does, Janowski's closed form: when I own it, linear from a loss
    (``-L``) to my cash point (+1), and on to a win (``W``) beyond it, where I am too good
    to cash; when the opponent owns it, linear from his cash point (my live take point, -1)
    to a win. These are the continuous model's fixed point (``tests/test_engine_cube.py``
    checks it with :func:`~nardy.engine.met.taut_string`)."""
    take, cash = janowski_points(w, lose, 1.0)
    own = _hull3((0.0, -lose), (cash, 1.0), (1.0, w), upper=True)
    opp = _hull3((0.0, -lose), (take, -1.0), (1.0, w), upper=False)
    return own, opp


def _money_decision(out: _Outcomes, cube: CubeState, rules: MoneyRules, x: float) -> CubeDecision:
    bv = rules.backgammon_value
    w, lose = out.points(bv)
    p = out.win
    own, opp = _money_curves(w, lose)
    dead = out.equity(bv)  # gammons count once the cube has been turned
    if not rules.cube:  # no cube, no Jacoby rule: every result counts its cubeless points
        return _unavailable(dead, x, False, NO_CUBE)
    if cube.owner is Owner.CENTRED:
        # Under the Jacoby rule a game that ends with the cube still centred counts single,
        # so the ends of the centred curve and its dead part are those of a gammonless game;
        # the doubling regions are not, because a double turns the cube.
        start, end = (-1.0, 1.0) if rules.jacoby else (-lose, w)
        live = taut_string(
            start,
            end,
            clip_curve(scale_curve(opp, 2.0), 1.0, above=False),
            clip_curve(scale_curve(own, 2.0), -1.0, above=True),
        )
        no_double = x * curve_at(live, p) + (1.0 - x) * (2.0 * p - 1.0 if rules.jacoby else dead)
    else:
        no_double = x * curve_at(own if cube.owner is Owner.ME else opp, p) + (1.0 - x) * dead
    redouble = cube.owner is Owner.ME
    if cube.owner is Owner.OPPONENT:
        return _unavailable(no_double, x, redouble, "the opponent owns the cube")
    # A take: the opponent owns the cube at twice the stake (equities per current stake).
    take_curve = scale_curve(_mix(opp, line(-lose, w), x), 2.0)
    double_take = curve_at(take_curve, p)
    double_beaver = _beavered(double_take) if rules.beaver else None
    return _decide(
        no_double, double_take, 1.0, double_beaver, x, redouble, crossing(take_curve, 1.0)
    )


def _beavered(double_take: float) -> float:
    """The doubler's money equity after a beaver: the cube at four times, still the
    taker's; the doubler plays on at twice double/take or passes (-2)."""
    return max(2.0 * double_take, -2.0)


def _mix(live: Curve, dead: Curve, x: float) -> Curve:
    """``x·live + (1 - x)·dead`` as a curve."""
    xs = tuple(sorted(set(live[0]) | set(dead[0])))
    return xs, tuple(x * curve_at(live, v) + (1.0 - x) * curve_at(dead, v) for v in xs)


def _unavailable(
    no_double: float, x: float, redouble: bool, reason: str, mwc: float | None = None
) -> CubeDecision:
    return CubeDecision(
        no_double,
        None,
        None,
        None,
        Action.UNAVAILABLE,
        None,
        redouble,
        None,
        None,
        x,
        mwc_no_double=mwc,
        reason=reason,
    )


def _decide(
    no_double: float,
    double_take: float,
    double_pass: float,
    double_beaver: float | None,
    x: float,
    redouble: bool,
    cash_point: float | None,
    mwc: tuple[float, float, float] | None = None,
) -> CubeDecision:
    """The doubler's and the taker's proper actions from the three (or four) equities."""
    answers = {Response.TAKE: double_take, Response.PASS: double_pass}
    if double_beaver is not None:
        answers[Response.BEAVER] = double_beaver
    # The taker picks what is worst for the doubler; on a tie he takes (and then beavers
    # only when it gains).
    response = min(answers, key=lambda r: (answers[r], r is not Response.TAKE))
    value = answers[response]
    # On a tie he doubles, as GNU Backgammon does (FindBestCubeDecision): a game he wins
    # whatever happens is "Double, pass", a cash, not "No double".
    if value >= no_double:
        action = Action.DOUBLE
    elif no_double > double_pass:
        action = Action.TOO_GOOD
    else:
        action = Action.NO_DOUBLE
    cash = 1.0 if cash_point is None else cash_point
    m_nd, m_dt, m_dp = mwc if mwc is not None else (None, None, None)
    return CubeDecision(
        no_double,
        double_take,
        double_pass,
        double_beaver,
        action,
        response,
        redouble,
        1.0 - cash,
        cash,
        x,
        m_nd,
        m_dt,
        m_dp,
    )


def looked_ahead(
    d: CubeDecision,
    no_double: float,
    double_take: float,
    mwc: tuple[float, float] | None = None,
) -> CubeDecision:
    """``d`` with the equities of playing on and of a double taken (and, in a match, their
    match winning chances) found by looking ahead (:mod:`nardy.engine.cubeful`), in ``d``'s
    units; the doubler's action and the answer decided again from them. The take and cash
    points stay the model's."""
    if d.double_pass is None:
        raise EngineError("no double to look ahead at: the player cannot double")
    beaver = None if d.double_beaver is None else _beavered(double_take)
    both = None
    if mwc is not None:
        if d.mwc_double_pass is None:
            raise EngineError("match winning chances looked ahead for a money decision")
        both = (mwc[0], mwc[1], d.mwc_double_pass)
    return _decide(
        no_double, double_take, d.double_pass, beaver, d.efficiency, d.redouble, d.cash_point, both
    )


# -- match play ------------------------------------------------------------------------------


def _match_model(out: _Outcomes, match: MatchState) -> LiveCubeModel:
    return LiveCubeModel(
        match.away_me,
        match.away_opp,
        out.split(True),
        out.split(False),
        match.equity_after,
        backgammon_value=match.backgammon_value,
        cube_available=match.cube and not match.crawford_game,
    )


def _cubeless(model: LiveCubeModel, p: float, cube_value: int) -> float:
    return p * model.win_value(cube_value) + (1.0 - p) * model.loss_value(cube_value)


def mwc_cubeless(probs: Probabilities, match: MatchState, cube_value: int = 1) -> float:
    """The player on roll's match winning chance if this game is played to the end at
    ``cube_value`` with no more doubling: each result's probability times the match equity
    at the score it leads to."""
    out = _Outcomes.of(probs)
    return _cubeless(_match_model(out, match), out.win, cube_value)


def mwc_to_emg(mwc: float, match: MatchState, cube_value: int = 1) -> float:
    """A match winning chance as normalised money-equivalent equity (EMG): -1 is losing a
    single game at ``cube_value``, +1 winning one."""
    win = match.equity_after(match.away_me - cube_value, match.away_opp)
    lose = match.equity_after(match.away_me, match.away_opp - cube_value)
    return 2.0 * (mwc - lose) / (win - lose) - 1.0


def _match_decision(out: _Outcomes, cube: CubeState, match: MatchState, x: float) -> CubeDecision:
    model = _match_model(out, match)
    c, p = cube.value, out.win
    nd = x * curve_at(model.curve(c, cube.owner.value), p) + (1.0 - x) * _cubeless(model, p, c)
    redouble = cube.owner is Owner.ME

    def emg(m: float) -> float:
        return mwc_to_emg(m, match, c)

    if not match.cube:
        return _unavailable(emg(nd), x, False, NO_CUBE, nd)
    if match.crawford_game:
        return _unavailable(
            emg(nd), x, redouble, "Crawford game" if match.length > 1 else DEAD_CUBE, nd
        )
    if cube.owner is Owner.OPPONENT:
        return _unavailable(emg(nd), x, redouble, "the opponent owns the cube", nd)
    after_take = model.curve(2 * c, "opponent")
    dt = x * curve_at(after_take, p) + (1.0 - x) * _cubeless(model, p, 2 * c)
    dp = model.cash(c)
    take_curve = _mix(after_take, model.dead(2 * c), x)
    cash_point = crossing(take_curve, dp)
    return _decide(emg(nd), emg(dt), emg(dp), None, x, redouble, cash_point, (nd, dt, dp))


# -- the public entry points -------------------------------------------------------------------


def _rules(money: MoneyRules | None, match: MatchState | None) -> MoneyRules | MatchState:
    if money is not None and match is not None:
        raise EngineError("a game is money play or a match, not both")
    return match if match is not None else (money or MoneyRules())


def cube_decision(
    probs: Probabilities,
    cube: CubeState | None = None,
    *,
    money: MoneyRules | None = None,
    match: MatchState | None = None,
    race: bool = False,
    pips: int | None = None,
    efficiency: float | None = None,
) -> CubeDecision:
    """The cube decision of the player on roll, before he rolls.

    ``probs`` are his cubeless probabilities (module docstring); ``cube`` the cube (centred
    at 1 by default); ``money`` or ``match`` the game (money play with the default rules if
    neither); ``race``/``pips`` choose the cube efficiency (:func:`cube_efficiency`) unless
    ``efficiency`` gives it.
    """
    out = _Outcomes.of(probs)
    cube = cube or CubeState()
    x = cube_efficiency(race, pips) if efficiency is None else efficiency
    if not 0.0 <= x <= 1.0:
        raise EngineError(f"a cube efficiency is between 0 and 1, not {x}")
    rules = _rules(money, match)
    if isinstance(rules, MatchState):
        return _match_decision(out, cube, rules, x)
    return _money_decision(out, cube, rules._at_cube(cube.value), x)


def resignation_decision(
    probs: Probabilities,
    level: int,
    cube: CubeState | None = None,
    *,
    money: MoneyRules | None = None,
    match: MatchState | None = None,
    race: bool = False,
    pips: int | None = None,
    efficiency: float | None = None,
) -> ResignationDecision:
    """Whether to accept the opponent's offer to resign a single (1), gammon (2) or
    backgammon (3) (RULES.md 1.4).

    The resigner offers on his own turn, so ``probs``, ``cube`` and ``match`` are **his**, as
    the player on roll. Accepting gains the offered points (a gammon or backgammon counts
    single under the Jacoby rule while the cube is centred); playing on is worth what his
    proper cube action leaves his opponent. Accept when that is no more. A tie accepts.
    """
    cube = cube or CubeState()
    rules = _rules(money, match)
    offered = resignation_points(level, rules, cube.owner)
    decision = cube_decision(
        probs, cube, money=money, match=match, race=race, pips=pips, efficiency=efficiency
    )
    if isinstance(rules, MatchState):
        points = offered * cube.value
        accept = 1.0 - rules.equity_after(rules.away_me, rules.away_opp - points)
        assert decision.mwc is not None
        play_on = 1.0 - decision.mwc
    else:
        accept = float(offered)
        play_on = -decision.equity
    return ResignationDecision(accept >= play_on - 1e-12, accept, play_on)


def resignation_points(level: int, rules: MoneyRules | MatchState, owner: Owner) -> int:
    """What resigning a single (1), gammon (2) or backgammon (3) gives the opponent per
    unit of cube (RULES.md 1.4), by the core's scoring rule
    (:func:`nardy.core.scoring.level_multiplier`): in money play under the Jacoby rule a
    gammon or backgammon counts single while the cube is centred; a backgammon counts its
    setting's value."""
    if level not in (1, 2, 3):
        raise EngineError(
            f"a resignation is of a single (1), gammon (2) or backgammon (3), not {level}"
        )
    jacoby = isinstance(rules, MoneyRules) and rules.jacoby and rules.cube
    return scoring.level_multiplier(
        int(level),
        backgammon_value=rules.backgammon_value,
        jacoby=jacoby,
        cube_turned=owner is not Owner.CENTRED,
    )
