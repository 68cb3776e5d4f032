"""The match equity table: the chance of winning a match from any score, and the live-cube
model of match play it is computed with.

``match_equity(away_me, away_opp, crawford)`` is the probability that the player who needs
``away_me`` more points wins a match against one who needs ``away_opp`` (RULES.md 1.6), at
the start of a game, both sides playing well. 0 away is a match won (1.0, or 0.0 for the
opponent). When a player is 1 away, ``crawford`` says which game comes next: True (the
default, and how match equity tables are printed) is the Crawford game, with no cube;
False is a post-Crawford game, where the trailer doubles at once.

The table is nardy's own, computed by a documented procedure (:func:`compute_met`, the
parameters in :class:`MetParameters`, docs/engine.md "Cube and match equity"); its
numbers are embedded below because the computation takes about half a second, and
``tests/test_met.py`` recomputes them. They agree with the published Kazaross-XG2 table
(Neil Kazaross, 2011, as shipped in GNU Backgammon's ``met/Kazaross-XG2.xml``) within 0.5
percentage points at every score up to 25-away (0.28 root mean square; post-Crawford within
0.26).

The procedure, in short:

* **Post-Crawford** (trailer ``n`` away, leader 1 away): the trailer doubles at his first
  turn, so every game is played for 2 points. The leader sees the position before he
  answers: he takes, or makes the "free drop" to ``n - 1`` away, whichever is better for him
  there. The trailer's winning chance at that moment is spread around 1/2 (normal, standard
  deviation ``free_drop_spread``), so ``T(n) = E[min(p·V(n), T(n - 1))]`` with ``V(n)`` the
  trailer's equity after winning a single, gammon or backgammon at 2 points (his gammon and
  backgammon rates ``crawford_gammon_rate``, ``crawford_backgammon_rate``; the leader's
  gammons do not matter), ``T(1) = 1/2``.
* **Crawford game**: no cube; the leader wins half the games (and the match), the trailer
  the other half as single, gammon or backgammon at those same rates, into post-Crawford.
* **Pre-Crawford** (both 2 or more away): the value at ``p = 1/2`` of the match version of
  Janowski's model, ``x·live + (1 - x)·dead``, where *dead* is the cubeless match winning
  chance and *live* the continuous live-cube value (:class:`LiveCubeModel`), with the
  same gammon rate for both sides (``gammon_rate``, ``backgammon_rate``) and a cube
  efficiency ``x`` (``cube_efficiency``). The scores a game leads to are looked up in the
  table being built, so it is filled in order of the total number of points still needed.

The same :class:`LiveCubeModel`, with a position's own gammon chances, gives the cube
decisions of :mod:`nardy.engine.cube`.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from nardy.core.scoring import level_values
from nardy.engine.errors import EngineError

Curve = tuple[tuple[float, ...], tuple[float, ...]]
"""A piecewise-linear function on [0, 1]: its breakpoints (increasing, from 0 to 1) and
values there. Here: my match winning chance (or money equity) against my game winning
chance."""

Owner = Literal["me", "opponent", "centred"]
"""Who holds the cube, seen from the player whose chances a curve gives."""

MET_SIZE = 25
"""The embedded table covers every score up to this many points away on each side."""

_EPS = 1e-12


# -- piecewise-linear curves ---------------------------------------------------------------


def curve_at(curve: Curve, p: float) -> float:
    """The value of ``curve`` at ``p`` (clamped to [0, 1])."""
    xs, ys = curve
    if p <= xs[0]:
        return ys[0]
    if p >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, p)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 if x1 == x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)


def line(start: float, end: float) -> Curve:
    """The straight line from ``(0, start)`` to ``(1, end)``: a dead cube."""
    return (0.0, 1.0), (start, end)


def clip_curve(curve: Curve, level: float, *, above: bool) -> Curve:
    """``min(curve, level)`` (``above=False``: nothing above ``level``) or ``max(curve,
    level)`` (``above=True``), with a breakpoint where the curve crosses the level."""
    xs, ys = curve
    sign = 1.0 if above else -1.0
    nx: list[float] = []
    ny: list[float] = []
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if i:
            d0, d1 = ys[i - 1] - level, y - level
            if d0 * d1 < 0:
                t = d0 / (d0 - d1)
                nx.append(xs[i - 1] + t * (x - xs[i - 1]))
                ny.append(level)
        nx.append(x)
        ny.append(max(y, level) if sign > 0 else min(y, level))
    return tuple(nx), tuple(ny)


def scale_curve(curve: Curve, factor: float, offset: float = 0.0) -> Curve:
    """``factor · curve + offset``."""
    xs, ys = curve
    return xs, tuple(factor * y + offset for y in ys)


def taut_string(start: float, end: float, lower: Curve | None, upper: Curve | None) -> Curve:
    """The shortest path from ``(0, start)`` to ``(1, end)`` that stays above ``lower`` and
    below ``upper`` inside (0, 1) (None: no bound on that side).

    This is the value of the doubling game in the continuous model, where a player's
    winning chance moves like a Brownian motion until it reaches 0 or 1: between the two
    players' doubling regions the value is linear (a martingale), where the player whose
    chances these are would double it rests on ``lower`` (his payoff for doubling, and the
    curve is concave there: he could wait), where the opponent would it rests on ``upper``.
    With one bound it is the concave (or convex) envelope: a single player's optimal
    stopping. The path's corners are breakpoints of the bounds; it is found by a shortest
    path over them, each straight segment checked against both bounds at their breakpoints.
    """
    points = [(0.0, start), (1.0, end)]
    check_x: set[float] = set()
    for bound in (lower, upper):
        if bound is not None:
            for x, y in zip(*bound, strict=True):
                if 0.0 < x < 1.0:
                    points.append((x, y))
                    check_x.add(x)
    xs_check = sorted(check_x)
    lo = [curve_at(lower, x) if lower else -math.inf for x in xs_check]
    up = [curve_at(upper, x) if upper else math.inf for x in xs_check]
    lo = [min(a, b) for a, b in zip(lo, up, strict=True)]  # bounds that cross: upper wins
    # A corner on a bound that the other bound cuts off is moved onto the allowed band.
    points = sorted(
        (x, y if not 0.0 < x < 1.0 else _clamp_to_band(x, y, lower, upper)) for x, y in points
    )
    n = len(points)
    dist = [math.inf] * n
    prev = [-1] * n
    dist[0] = 0.0
    for j in range(1, n):
        xj, yj = points[j]
        for i in range(j):
            xi, yi = points[i]
            if dist[i] == math.inf or xj <= xi:
                continue
            slope = (yj - yi) / (xj - xi)
            k = bisect.bisect_right(xs_check, xi)
            ok = True
            while k < len(xs_check) and xs_check[k] < xj:
                y = yi + slope * (xs_check[k] - xi)
                tol = _EPS * (1.0 + abs(y))
                if y < lo[k] - tol or y > up[k] + tol:
                    ok = False
                    break
                k += 1
            if ok:
                d = dist[i] + math.hypot(xj - xi, yj - yi)
                if d < dist[j]:
                    dist[j], prev[j] = d, i
    if dist[-1] == math.inf:  # bounds with no room between them: cannot happen in the model
        return line(start, end)
    path = [n - 1]
    while path[-1] > 0:
        path.append(prev[path[-1]])
    path.reverse()
    return tuple(points[i][0] for i in path), tuple(points[i][1] for i in path)


def _clamp_to_band(x: float, y: float, lower: Curve | None, upper: Curve | None) -> float:
    if upper is not None:
        y = min(y, curve_at(upper, x))
    if lower is not None:
        y = max(y, min(curve_at(lower, x), curve_at(upper, x) if upper else math.inf))
    return y


def crossing(curve: Curve, level: float) -> float | None:
    """The smallest ``p`` where a non-decreasing ``curve`` reaches ``level`` (None if it
    never does)."""
    xs, ys = curve
    if ys[0] >= level:
        return xs[0]
    for i in range(1, len(xs)):
        if ys[i] >= level:
            y0, y1 = ys[i - 1], ys[i]
            return xs[i - 1] + (xs[i] - xs[i - 1]) * (level - y0) / (y1 - y0)
    return None


# -- the live-cube model of one game in a match ----------------------------------------------


Split = tuple[float, float, float]
"""How the games one side wins end: (single, gammon, backgammon) fractions, summing to 1."""


class LiveCubeModel:
    """My match winning chance during one game at a given score, as a function of my game
    winning chance ``p``, for every cube level and owner, in the continuous model of the
    cube (Keeler and Spencer; Janowski's live cube; Zadeh's match take points).

    The game ends at ``p = 0`` or ``p = 1``; when it does, the wins and losses are singles,
    gammons and backgammons in the fixed proportions ``win_split`` and ``loss_split``, worth
    ``after(away_me - points, away_opp)`` or ``after(away_me, away_opp - points)`` (the match
    equity at the next game's score). A player with access to the cube doubles exactly where
    the opponent is indifferent between taking and passing (the opponent's take point), or
    plays on where that is better for him ("too good"); the taker owns the cube at twice the
    value. A cube is dead for a player when it already covers the points he needs
    (``cube >= away``): he never turns it. ``cube_available=False`` (the Crawford game, or the
    cube switched off) leaves every level dead.
    """

    def __init__(
        self,
        away_me: int,
        away_opp: int,
        win_split: Split,
        loss_split: Split,
        after: Callable[[int, int], float],
        *,
        backgammon_value: int = 3,
        cube_available: bool = True,
    ) -> None:
        if away_me < 1 or away_opp < 1:
            raise EngineError(
                f"a game is played only in a match not yet won ({away_me}, {away_opp})"
            )
        self.away_me = away_me
        self.away_opp = away_opp
        self.win_split = win_split
        self.loss_split = loss_split
        self.after = after
        self.backgammon_value = backgammon_value
        self.cube_available = cube_available
        self._curves: dict[tuple[int, Owner], Curve] = {}

    def win_value(self, cube: int) -> float:
        """My match winning chance once I have won this game at ``cube`` (its mix of single,
        gammon and backgammon)."""
        a, b, s = self.away_me, self.away_opp, self.win_split
        mults = level_values(backgammon_value=self.backgammon_value)
        return sum(f * self.after(a - m * cube, b) for f, m in zip(s, mults, strict=True))

    def loss_value(self, cube: int) -> float:
        """My match winning chance once I have lost this game at ``cube``."""
        a, b, s = self.away_me, self.away_opp, self.loss_split
        mults = level_values(backgammon_value=self.backgammon_value)
        return sum(f * self.after(a, b - m * cube) for f, m in zip(s, mults, strict=True))

    def cash(self, cube: int) -> float:
        """My match winning chance when the opponent passes my double of ``cube``."""
        return self.after(self.away_me - cube, self.away_opp)

    def dropped(self, cube: int) -> float:
        """My match winning chance when I pass the opponent's double of ``cube``."""
        return self.after(self.away_me, self.away_opp - cube)

    def may_double(self, cube: int, who: Owner) -> bool:
        """Whether turning a cube of ``cube`` can help ``who`` ("me" or "opponent")."""
        away = self.away_me if who == "me" else self.away_opp
        return self.cube_available and cube < away

    def dead(self, cube: int) -> Curve:
        """The dead cube: no more doubling, so linear from a loss to a win at ``cube``."""
        return line(self.loss_value(cube), self.win_value(cube))

    def curve(self, cube: int, owner: Owner) -> Curve:
        """My live-cube match winning chance against ``p`` with the cube at ``cube`` held by
        ``owner``."""
        key = (cube, owner)
        if key not in self._curves:
            lower = upper = None
            if owner != "opponent" and self.may_double(cube, "me"):
                # I double: the opponent takes (owns 2·cube) or passes, whichever is worse
                # for me.
                lower = clip_curve(self.curve(2 * cube, "opponent"), self.cash(cube), above=False)
            if owner != "me" and self.may_double(cube, "opponent"):
                upper = clip_curve(self.curve(2 * cube, "me"), self.dropped(cube), above=True)
            self._curves[key] = taut_string(
                self.loss_value(cube), self.win_value(cube), lower, upper
            )
        return self._curves[key]


# -- the table --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MetParameters:
    """The numbers behind a computed match equity table (see the module docstring).

    The defaults were chosen, by a small grid search, to reproduce the Kazaross-XG2 table:
    the Crawford-game and post-Crawford gammon and backgammon rates are the ones its
    1-away/2-away (0.67736) and post-Crawford 5-away (0.19012) entries imply, the free-drop
    spread the one its post-Crawford 2-away entry (0.48803) implies; the pre-Crawford gammon
    rate and cube efficiency minimise the root mean square difference to it up to 13-away.
    """

    gammon_rate: float = 0.28
    """Fraction of a pre-Crawford game's wins that are gammons (backgammons included)."""
    backgammon_rate: float = 0.0
    """Fraction of a pre-Crawford game's wins that are backgammons."""
    cube_efficiency: float = 0.825
    """Janowski's ``x`` for a whole game (between 0, a dead cube, and 1, fully live)."""
    crawford_gammon_rate: float = 0.29
    """Fraction of the trailer's wins that are gammons in the Crawford game and after it,
    where he plays for them and the leader does not mind his own."""
    crawford_backgammon_rate: float = 0.012
    """Fraction of the trailer's wins that are backgammons there."""
    free_drop_spread: float = 0.03
    """Standard deviation of the trailer's winning chance when the post-Crawford leader
    answers his double (after the opening roll or two)."""


DEFAULT_PARAMETERS = MetParameters()


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """A match equity table up to ``size`` away.

    ``pre_crawford[a - 1][b - 1]`` is the match winning chance at ``a``-away against
    ``b``-away before a game; a 1-away entry is the Crawford game. ``post_crawford[n - 1]``
    is the trailer's at ``n``-away against 1-away after the Crawford game (the leader's is
    one minus it).
    """

    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]

    @property
    def size(self) -> int:
        """The most points away the table covers for each side."""
        return len(self.post_crawford)

    def equity(self, away_me: int, away_opp: int, crawford: bool = True) -> float:
        """The chance that the player ``away_me`` points from winning wins the match against
        one ``away_opp`` away; see :func:`match_equity`."""
        if away_me <= 0 and away_opp <= 0:
            raise EngineError("both players cannot have won the match")
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        if max(away_me, away_opp) > self.size:
            raise EngineError(f"the table covers up to {self.size} away, not {away_me}/{away_opp}")
        if 1 in (away_me, away_opp) and not crawford:
            if away_me == away_opp:
                return 0.5
            if away_me == 1:
                return 1.0 - self.post_crawford[away_opp - 1]
            return self.post_crawford[away_me - 1]
        return self.pre_crawford[away_me - 1][away_opp - 1]


def _normal_min(scale: float, cap: float, spread: float) -> float:
    """``E[min(scale·p, cap)]`` for ``p`` normal with mean 1/2 and standard deviation
    ``spread``: what the trailer gets when the leader takes or drops, whichever suits him."""
    if scale <= 0:
        return 0.0
    k = cap / scale
    if spread <= 0:
        return scale * min(0.5, k)
    z = (k - 0.5) / spread
    density = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    above = 0.5 * math.erfc(z / math.sqrt(2))  # P(p > k)
    return scale * (0.5 - ((0.5 - k) * above + spread * density))


def _post_crawford(size: int, prm: MetParameters) -> list[float]:
    """The trailer's post-Crawford match winning chance, index ``n`` for ``n``-away (index 0
    is a won match, 1.0)."""
    g, bg = prm.crawford_gammon_rate, prm.crawford_backgammon_rate
    split = (1.0 - g, g - bg, bg)
    trailer = [1.0, 0.5]

    def t(n: int) -> float:
        return 1.0 if n <= 0 else trailer[n]

    for n in range(2, size + 1):
        # The cube is on 2: a single, gammon or backgammon brings him 2, 4 or 6 points.
        take = sum(f * t(n - 2 * m) for f, m in zip(split, (1, 2, 3), strict=True))
        trailer.append(_normal_min(take, trailer[n - 1], prm.free_drop_spread))
    return trailer


def compute_met(
    size: int = MET_SIZE, parameters: MetParameters = DEFAULT_PARAMETERS
) -> MatchEquityTable:
    """Compute a match equity table up to ``size`` away by the procedure of the module
    docstring (about half a second for 25)."""
    if size < 1:
        raise EngineError(f"a table needs at least 1-away, not {size}")
    prm = parameters
    trailer = _post_crawford(size, prm)

    def post(away_me: int, away_opp: int) -> float:
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        return 1.0 - trailer[away_opp] if away_me == 1 else trailer[away_me]

    g, bg = prm.crawford_gammon_rate, prm.crawford_backgammon_rate
    crawford_split = (1.0 - g, g - bg, bg)
    leader = [0.5] * (size + 1)  # the Crawford game, leader's chance, by trailer's away
    for b in range(2, size + 1):
        trailer_wins = sum(
            f * post(1, b - m) for f, m in zip(crawford_split, (1, 2, 3), strict=True)
        )
        leader[b] = 0.5 + 0.5 * trailer_wins

    table = [[0.5] * (size + 1) for _ in range(size + 1)]
    for b in range(2, size + 1):
        table[1][b] = leader[b]
        table[b][1] = 1.0 - leader[b]

    def after(away_me: int, away_opp: int) -> float:
        if away_me <= 0:
            return 1.0
        if away_opp <= 0:
            return 0.0
        return table[away_me][away_opp]

    g, bg = prm.gammon_rate, prm.backgammon_rate
    split = (1.0 - g, g - bg, bg)
    x = prm.cube_efficiency
    for total in range(4, 2 * size + 1):
        for a in range(max(2, total - size), min(size, total - 2) + 1):
            model = LiveCubeModel(a, total - a, split, split, after)
            live = curve_at(model.curve(1, "centred"), 0.5)
            dead = 0.5 * (model.win_value(1) + model.loss_value(1))
            table[a][total - a] = x * live + (1.0 - x) * dead
    return MatchEquityTable(
        tuple(tuple(row[1:]) for row in table[1:]), tuple(trailer[1 : size + 1])
    )


def format_met(table: MatchEquityTable) -> str:
    """The text block the embedded table is stored as: the pre-Crawford table row by row,
    then the post-Crawford row, six decimals, ten numbers a line."""
    numbers = [v for row in table.pre_crawford for v in row] + list(table.post_crawford)
    lines = [" ".join(f"{v:.6f}" for v in numbers[i : i + 10]) for i in range(0, len(numbers), 10)]
    return "\n".join(lines)


def parse_met(text: str, size: int) -> MatchEquityTable:
    """Read back :func:`format_met`'s text for a table of ``size``."""
    numbers = [float(v) for v in text.split()]
    if len(numbers) != size * size + size:
        raise EngineError(
            f"a table of {size} needs {size * size + size} numbers, not {len(numbers)}"
        )
    rows = tuple(tuple(numbers[i * size : (i + 1) * size]) for i in range(size))
    return MatchEquityTable(rows, tuple(numbers[size * size :]))


@functools.cache
def _computed(size: int) -> MatchEquityTable:
    return compute_met(size)


def default_met() -> MatchEquityTable:
    """nardy's match equity table up to 25-away (computed with the default parameters;
    embedded)."""
    return _DEFAULT


def match_equity(away_me: int, away_opp: int, crawford: bool = True) -> float:
    """The probability that the player ``away_me`` points from winning wins the match
    against one ``away_opp`` points away, at the start of a game.

    0 (or less) away is a match already won: 1.0 for ``away_me``, 0.0 for ``away_opp``.
    With a player 1 away, ``crawford=True`` means the next game is the Crawford game (no
    cube) and ``False`` a post-Crawford game (the Crawford game is over, or the match is
    played without the Crawford rule); it does not matter at other scores. Scores beyond
    25-away are computed once, on first use (a few seconds).
    """
    size = max(away_me, away_opp)
    table = _DEFAULT if size <= MET_SIZE else _computed(size)
    return table.equity(away_me, away_opp, crawford)


_DEFAULT_TEXT = """
0.500000 0.677500 0.751249 0.814676 0.841282 0.887172 0.906931 0.932571 0.943809 0.959420
0.966358 0.975618 0.979786 0.985336 0.987861 0.991181 0.992705 0.994695 0.995616 0.996808
0.997364 0.998079 0.998415 0.998844 0.999047 0.322500 0.500000 0.601609 0.671554 0.743495
0.799626 0.840408 0.873619 0.899762 0.921913 0.937953 0.951580 0.961548 0.970122 0.976288
0.981587 0.985399 0.988679 0.991032 0.993052 0.994501 0.995743 0.996634 0.997395 0.997942
0.248751 0.398391 0.500000 0.573597 0.649002 0.712148 0.761806 0.803941 0.839356 0.870106
0.893913 0.914529 0.930484 0.944368 0.954913 0.964045 0.970956 0.976923 0.981414 0.985272
0.988170 0.990648 0.992506 0.994087 0.995272 0.185324 0.328446 0.426403 0.500000 0.576437
0.641826 0.696680 0.742840 0.784835 0.820969 0.850988 0.876606 0.897958 0.916190 0.931049
0.943641 0.953849 0.962466 0.969392 0.975203 0.979853 0.983735 0.986829 0.989399 0.991440
0.158718 0.256505 0.350998 0.423563 0.500000 0.566373 0.624992 0.675861 0.722964 0.764291
0.799839 0.830809 0.857253 0.880317 0.899713 0.916509 0.930447 0.942440 0.952300 0.960721
0.967600 0.973437 0.978180 0.982179 0.985417 0.112828 0.200374 0.287852 0.358174 0.433627
0.500000 0.560938 0.614115 0.664737 0.709609 0.749609 0.784660 0.815592 0.842702 0.866150
0.886566 0.904145 0.919356 0.932253 0.943324 0.952638 0.960581 0.967215 0.972835 0.977502
0.093069 0.159592 0.238194 0.303320 0.375008 0.439062 0.500000 0.554300 0.606857 0.654142
0.697369 0.735881 0.770554 0.801389 0.828609 0.852630 0.873719 0.892204 0.908194 0.922098
0.934042 0.944366 0.953147 0.960680 0.967044 0.067429 0.126381 0.196059 0.257160 0.324139
0.385885 0.445700 0.500000 0.553120 0.601778 0.647110 0.688087 0.725645 0.759463 0.789867
0.816999 0.841253 0.862754 0.881706 0.898366 0.912916 0.925619 0.936612 0.946142 0.954347
0.056191 0.100238 0.160644 0.215165 0.277036 0.335263 0.393143 0.446880 0.500000 0.549422
0.596171 0.639131 0.679020 0.715457 0.748668 0.778712 0.805916 0.830333 0.852146 0.871559
0.888752 0.903944 0.917267 0.928951 0.939126 0.040580 0.078087 0.129894 0.179031 0.235709
0.290391 0.345858 0.398222 0.450578 0.500000 0.547442 0.591596 0.633162 0.671561 0.707046
0.739492 0.769248 0.796248 0.820690 0.842673 0.862383 0.879982 0.895620 0.909474 0.921690
0.033642 0.062047 0.106087 0.149012 0.200161 0.250391 0.302631 0.352890 0.403829 0.452558
0.500000 0.544756 0.587405 0.627277 0.664565 0.699048 0.731021 0.760339 0.787181 0.811577
0.833698 0.853649 0.871568 0.887609 0.901909 0.024382 0.048420 0.085471 0.123394 0.169191
0.215340 0.264119 0.311913 0.360869 0.408404 0.455244 0.500000 0.543138 0.583918 0.622488
0.658527 0.692285 0.723553 0.752483 0.779036 0.803359 0.825505 0.845601 0.863755 0.880099
0.020214 0.038452 0.069516 0.102042 0.142747 0.184408 0.229446 0.274355 0.320980 0.366838
0.412595 0.456862 0.500000 0.541228 0.580635 0.617836 0.653015 0.685911 0.716639 0.745108
0.771433 0.795622 0.817776 0.837969 0.856314 0.014664 0.029878 0.055632 0.083810 0.119683
0.157298 0.198611 0.240537 0.284543 0.328439 0.372723 0.416082 0.458772 0.500000 0.539799
0.577735 0.613931 0.648091 0.680286 0.710380 0.738454 0.764472 0.788511 0.810608 0.830855
0.012139 0.023712 0.045087 0.068951 0.100287 0.133850 0.171391 0.210133 0.251332 0.292954
0.335435 0.377512 0.419365 0.460201 0.500000 0.538296 0.575152 0.610238 0.643588 0.675027
0.704599 0.732231 0.757972 0.781824 0.803856 0.008819 0.018413 0.035955 0.056359 0.083491
0.113434 0.147370 0.183001 0.221288 0.260508 0.300952 0.341473 0.382164 0.422265 0.461704
0.500000 0.537157 0.572833 0.607015 0.639501 0.670298 0.699301 0.726529 0.751953 0.775616
0.007295 0.014601 0.029044 0.046151 0.069553 0.095855 0.126281 0.158747 0.194084 0.230752
0.268979 0.307715 0.346985 0.386069 0.424848 0.462843 0.500000 0.535968 0.570693 0.603953
0.635719 0.665860 0.694363 0.721173 0.746307 0.005305 0.011321 0.023077 0.037534 0.057560
0.080644 0.107796 0.137246 0.169667 0.203752 0.239661 0.276447 0.314089 0.351909 0.389762
0.427167 0.464032 0.500000 0.534983 0.568740 0.601211 0.632243 0.661795 0.689786 0.716208
0.004384 0.008968 0.018586 0.030608 0.047700 0.067747 0.091806 0.118294 0.147854 0.179310
0.212819 0.247517 0.283361 0.319714 0.356412 0.392985 0.429307 0.465017 0.500000 0.534002
0.566933 0.598623 0.629004 0.657975 0.685501 0.003192 0.006948 0.014728 0.024797 0.039279
0.056676 0.077902 0.101634 0.128441 0.157327 0.188423 0.220964 0.254892 0.289620 0.324973
0.360499 0.396047 0.431260 0.465998 0.500000 0.533151 0.565266 0.596256 0.625997 0.654434
0.002636 0.005499 0.011830 0.020147 0.032400 0.047362 0.065958 0.087084 0.111248 0.137617
0.166302 0.196641 0.228567 0.261546 0.295401 0.329702 0.364281 0.398789 0.433067 0.466849
0.500000 0.532323 0.563710 0.594020 0.623179 0.001921 0.004257 0.009352 0.016265 0.026563
0.039419 0.055634 0.074381 0.096056 0.120018 0.146351 0.174495 0.204378 0.235528 0.267769
0.300699 0.334140 0.367757 0.401377 0.434734 0.467677 0.500000 0.531578 0.562259 0.591948
0.001585 0.003366 0.007494 0.013171 0.021820 0.032785 0.046853 0.063388 0.082733 0.104380
0.128432 0.154399 0.182224 0.211489 0.242028 0.273471 0.305637 0.338205 0.370996 0.403744
0.436290 0.468422 0.500000 0.530862 0.560898 0.001156 0.002605 0.005913 0.010601 0.017821
0.027165 0.039320 0.053858 0.071049 0.090526 0.112391 0.136245 0.162031 0.189392 0.218176
0.248047 0.278827 0.310214 0.342025 0.374003 0.405980 0.437741 0.469138 0.500000 0.530204
0.000953 0.002058 0.004728 0.008560 0.014583 0.022498 0.032956 0.045653 0.060874 0.078310
0.098091 0.119901 0.143686 0.169145 0.196144 0.224384 0.253693 0.283792 0.314499 0.345566
0.376821 0.408052 0.439102 0.469796 0.500000 0.500000 0.488032 0.322500 0.312570 0.189987
0.182494 0.115273 0.110066 0.069265 0.065786 0.041752 0.039481 0.025141 0.023683 0.015144
0.014218 0.009121 0.008538 0.005494 0.005129 0.003309 0.003082 0.001993 0.001852 0.001200
"""

_DEFAULT = parse_met(_DEFAULT_TEXT, MET_SIZE)


if __name__ == "__main__":  # print the embedded table: python -m nardy.engine.met
    print(format_met(compute_met()))
