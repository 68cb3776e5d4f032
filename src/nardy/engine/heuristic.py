"""The bots that need no net: a random player and a hand-made heuristic (RULES.md 1.5, 1.4,
2 for their cube, resignation and acey-deucey decisions).

* :class:`RandomBot` plays uniformly at random among the legal plays; its cube actions are
  random but sane (it never doubles when behind in the race, and rarely takes a hopeless one).
* :class:`HeuristicBot` plays the play that reaches the best position by a hand-made
  evaluation (pips, points made, blots left to direct shots, primes and blocks, the head in
  long nardy) and handles the cube by the Keith count or the 8-9-12 rule in a race and a
  simple lead rule in contact.

Both answer the :class:`nardy.engine.bots.Bot` protocol; the neural bot
(:mod:`nardy.engine.neural`) asks the heuristic where it has no net.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from nardy.core import BAR, OFF, Play, Position, Variant
from nardy.core.game import Game, Phase
from nardy.core.position import ResultKind
from nardy.core.scoring import multiplier

if TYPE_CHECKING:
    from nardy.engine.stakes import Stakes

LEVELS = ("beginner", "casual", "intermediate", "advanced", "expert", "world-class")
"""The neural bot's levels, weakest first (:data:`nardy.engine.neural.LEVELS`); named here,
without numpy, so that choosing a bot by name need not load the net."""


# -- counting ---------------------------------------------------------------------------------


def keith_count(position: Position) -> tuple[int, int]:
    """The Keith counts (mine, theirs) of a race: the pip count plus penalties for wasted
    pips in the bear-off — 2 for each checker beyond one on the 1-point, 1 for each beyond one
    on the 2-point and beyond three on the 3-point, 1 for each empty 4-, 5- and 6-point.
    """
    mine, theirs = position.pips()

    def penalty(side: bytes) -> int:
        return (
            2 * max(0, side[1] - 1)
            + max(0, side[2] - 1)
            + max(0, side[3] - 3)
            + sum(1 for p in (4, 5, 6) if not side[p])
        )

    return mine + penalty(position.mine), theirs + penalty(position.theirs)


_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _reach_masks() -> tuple[int, ...]:
    """For each distance 1-24, the rolls (bit i of the 36 in :data:`_ROLLS`) whose dice can
    carry one checker exactly that far, blocks on the way ignored."""
    masks = [0] * 25
    for i, (a, b) in enumerate(_ROLLS):
        reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
        for distance in reach:
            if distance <= 24:
                masks[distance] |= 1 << i
    return tuple(masks)


_REACH = _reach_masks()


@functools.cache
def _paths(v: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The points in the order each side travels them, both in my numbering: mine from 24
    down to 1, the opponent's from their 24 down to their 1."""
    theirs = tuple(q for t in range(24, 0, -1) for q in range(1, 25) if v.opponent_point(q) == t)
    return tuple(range(24, 0, -1)), theirs


# -- the random bot ---------------------------------------------------------------------------


class RandomBot:
    """Plays a uniformly random legal play; random but sane cube and resignation decisions.

    It doubles now and then, but only when not behind in the pips; takes most doubles, but
    rarely one where it trails by more than a quarter of its pips; accepts a resignation half
    the time (always one of a backgammon, the most there is to win). Reproducible by
    ``seed``.
    """

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def resign_level(self, game: Game, player: int) -> int:
        return 0  # plays every game out

    def choose_play(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> Play:
        del stakes, chosen  # any play will do
        return self._rng.choice(position.legal_plays(d1, d2))

    def should_double(self, game: Game, player: int) -> bool:
        mine, theirs = game.position_for(player).pips()
        return mine <= theirs and self._rng.random() < 0.1

    def should_take(self, game: Game, player: int) -> bool:
        mine, theirs = game.position_for(player).pips()
        hopeless = mine - theirs > mine // 4
        return self._rng.random() < (0.2 if hopeless else 0.8)

    def should_beaver(self, game: Game, player: int) -> bool:
        mine, theirs = game.position_for(player).pips()
        return mine < theirs and self._rng.random() < 0.2

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        return level >= 3 or self._rng.random() < 0.5

    def choose_double(self, position: Position, stakes: Stakes | None = None) -> int:
        return self._rng.randint(1, 6)


# -- the heuristic bot ------------------------------------------------------------------------

# Worth of holding a point with two or more checkers in a hitting game, by my point number:
# the home board's inner points most (the 5- and 4-points best), the bar point next, and the
# anchors in the opponent's home board (my 20 and 21 are their 5- and 4-points).
_POINT_VALUE = (
    (0, 1, 2, 3, 5, 6, 5)  # off, then the home board 1-6
    + (4, 2, 1.5, 1.5, 1, 0.5)  # 7-12, the bar point first
    + (0.5,) * 6  # 13-18
    + (2, 3, 3, 1.5, 1, 1)  # 19-24: anchors in the opponent's home board
)
# A run of held points in front of opponent checkers, by its length: the longer the run,
# the fewer rolls get past it; six is a full prime.
_RUN_VALUE = (0, 0, 1, 3, 7, 12, 18)


class HeuristicBot:
    """Plays the legal play that reaches the best position by :meth:`evaluate`, and handles
    the cube with a race rule (the Keith count in backgammon and its variants, the 8-9-12
    rule in long nardy) and a simple lead rule while the sides are in contact.

    The cube rules reason as in money play; they know nothing of a match score.
    """

    name = "heuristic"

    # Cube thresholds for a contact position, as the roller's lead (see :meth:`lead`).
    DOUBLE_LEAD = 0.15
    REDOUBLE_LEAD = 0.18
    TAKE_LEAD = 0.30  # the taker takes while the roller leads by no more than this
    TOO_GOOD_LEAD = 0.50  # play on for a gammon rather than double the opponent out

    def resign_level(self, game: Game, player: int) -> int:
        return 0  # plays every game out

    def choose_play(
        self,
        position: Position,
        d1: int,
        d2: int,
        stakes: Stakes | None = None,
        chosen: bool = False,
    ) -> Play:
        del stakes, chosen  # the heuristic plays the same at every score, every turn
        plays = position.legal_plays(d1, d2)
        if len(plays) == 1:
            return plays[0]
        return max(plays, key=lambda play: self.evaluate(play.position))

    def choose_double(self, position: Position, stakes: Stakes | None = None) -> int:
        def best(die: int) -> float:
            return max(self.evaluate(p.position) for p in position.legal_plays(die, die))

        return max(range(1, 7), key=best)

    # -- the evaluation -----------------------------------------------------------------

    def evaluate(self, position: Position) -> float:
        """How good ``position`` is for the side that has just moved ("mine"), with the
        opponent to roll next, in pip-like units: higher is better. Only differences
        between positions reached from the same one mean anything."""
        if position.is_race():
            return self._race(position)
        if position.variant.hits:
            return self._hitting(position)
        return self._blocking(position)

    def _race(self, position: Position) -> float:
        # No more contact: bear off as fast as possible, wasting as few pips as possible.
        # The Keith count is the hitting family's race count (backgammon's bear-off).
        mine, _ = keith_count(position) if position.variant.hits else position.pips()
        return -mine + 2.0 * position.mine[OFF]

    def _hitting(self, position: Position) -> float:
        """Backgammon, nackgammon and acey-deucey: the sides hit each other's blots."""
        v = position.variant
        me, op = position.mine, v.to_mine(position.theirs)  # op: their checkers on my points
        my_pips, their_pips = position.pips()
        score = float(their_pips - my_pips)
        my_home = sum(1 for p in range(1, 7) if me[p] >= 2)
        their_home = sum(1 for p in range(19, 25) if op[p] >= 2)
        for p in range(1, 25):
            if me[p] >= 2:
                score += _POINT_VALUE[p]
            elif op[p] >= 2:
                score -= _POINT_VALUE[25 - p]
            if me[p] > 5:  # a tall stack is checkers doing no work
                score -= 0.5 * (me[p] - 5)
        # Checkers on the 1- and 2-points are out of play for the rest of the game.
        score -= 1.0 * (me[1] + me[2])
        # The opponent travels my points upward, entering on 1-6 (from "my 0").
        their_waiting = op[BAR] + position.waiting(mine=False)
        their_back = 0 if their_waiting else next((p for p in range(1, 25) if op[p]), 25)
        waiting = me[BAR] or position.waiting()
        my_back = 25 if waiting else max((p for p in range(1, 25) if me[p]), default=0)
        score += _RUN_VALUE[min(6, _longest_run(me, their_back + 1, 24))]
        score -= _RUN_VALUE[min(6, _longest_run(op, 1, my_back - 1))]
        # Checkers on the bar lose their pips and a tempo, the more so against a strong board.
        score += op[BAR] * (4 + 2.5 * my_home) - me[BAR] * (4 + 2.5 * their_home)
        # Blots exposed: the share of the 36 rolls that hit each one, times what a hit costs.
        sources = ([0] if their_waiting else []) + [p for p in range(1, 25) if op[p]]
        for b in range(1, 25):
            if me[b] != 1:
                continue
            shots = 0
            for q in sources:
                if q >= b:
                    break
                shots |= _REACH[b - q]
            if shots:
                cost = (6 + 0.5 * (25 - b)) * (1 + their_home / 3)
                score -= shots.bit_count() / 36 * cost
        return score + 2.0 * me[OFF]

    def _blocking(self, position: Position) -> float:
        """Long nardy: no hitting; points held in the other side's way and blocks decide."""
        v = position.variant
        me, op = position.mine, v.to_mine(position.theirs)
        my_path, their_path = _paths(v)
        my_pips, their_pips = position.pips()
        score = float(their_pips - my_pips)
        score += _blocks(me, op, their_path) - _blocks(op, me, my_path)
        # Checkers still on the head: only one may leave a turn, so leave whenever possible.
        head = my_path[0]
        score -= 2.0 * me[head]
        for p in range(1, head):
            if me[p] > 4:
                score -= 0.5 * (me[p] - 4)
        return score + 2.0 * me[OFF]

    # -- the cube -----------------------------------------------------------------------

    def lead(self, position: Position) -> float:
        """The side on roll's lead in a contact position, as a fraction: the pip lead (with
        the roll in hand) over the larger count, plus a little for each home-board point or
        block more than the opponent's and for opponent checkers on the bar."""
        mine, theirs = position.pips()
        lead = (theirs - mine + 4) / max(mine, theirs, 1)
        v = position.variant
        me, op = position.mine, v.to_mine(position.theirs)
        if v.hits:
            my_home = sum(1 for p in range(1, 7) if me[p] >= 2)
            their_home = sum(1 for p in range(19, 25) if op[p] >= 2)
            lead += 0.03 * (my_home - their_home)
            lead += 0.04 * (op[BAR] * my_home - me[BAR] * their_home) / 6
        else:
            my_path, their_path = _paths(v)
            lead += 0.005 * (_blocks(me, op, their_path) - _blocks(op, me, my_path))
        return lead

    def _race_margin(self, position: Position) -> tuple[str, float]:
        """("keith", the roller's Keith count plus a seventh minus the opponent's) in a
        backgammon race, or ("8-9-12", the roller's pip lead over their own count)."""
        if position.variant.hits:
            mine, theirs = keith_count(position)
            return "keith", mine * 8 / 7 - theirs
        mine, theirs = position.pips()
        return "8-9-12", (theirs - mine) / max(mine, 1)

    def should_double(self, game: Game, player: int) -> bool:
        position = game.position_for(player)
        owned = game.cube.owner == player
        if position.is_race():
            rule, margin = self._race_margin(position)
            if rule == "keith":
                return margin <= (3 if owned else 4)
            return margin >= (0.09 if owned else 0.08)
        lead = self.lead(position)
        if lead < (self.REDOUBLE_LEAD if owned else self.DOUBLE_LEAD):
            return False
        # Too good to double: play on for the gammon, unless Jacoby makes it count single.
        turned = game.cube.turned
        gammons_count = multiplier(ResultKind.GAMMON, game.settings, cube_turned=turned) > 1
        gammon_chance = position.theirs[OFF] == 0 and bool(game.variant.resignation_levels)
        return not (lead >= self.TOO_GOOD_LEAD and gammons_count and gammon_chance)

    def should_take(self, game: Game, player: int) -> bool:
        roller = game.turn
        position = game.position_for(roller)
        if game.phase is Phase.BEAVERED:
            # The doubler facing a beaver: keep playing unless the double was clearly wrong.
            return self._roller_margin(position) >= -self.TAKE_LEAD
        return self._roller_margin(position) <= self.TAKE_LEAD

    def should_beaver(self, game: Game, player: int) -> bool:
        # Beaver when the doubler is in fact behind: the taker is the favourite.
        position = game.position_for(game.turn)
        if not position.is_race():
            return self.lead(position) < -0.05
        if position.variant.hits:
            mine, theirs = keith_count(position)
            return mine - theirs > 4 + theirs / 20  # behind by more than the roll is worth
        mine, theirs = position.pips()
        return (theirs - mine) / max(mine, 1) < -0.04

    def _roller_margin(self, position: Position) -> float:
        """The roller's advantage on one scale for taking: the contact lead, or the race
        rules translated to it (Keith: take while the roller's adjusted count exceeds ours by
        2 or more; 8-9-12: take while the roller leads by at most 12%)."""
        if not position.is_race():
            return self.lead(position)
        rule, margin = self._race_margin(position)
        if rule == "keith":  # each Keith point under 2 is worth 5% of lead
            return self.TAKE_LEAD + (2 - margin) * 0.05
        return margin * self.TAKE_LEAD / 0.12

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        position = game.position_for(player)
        if self._roller_margin(position) < 0.1:
            return True  # not clearly winning: any resignation is a gift
        op = game.variant.to_mine(position.theirs)
        mine, theirs = position.pips()
        could_gammon = position.theirs[OFF] == 0 and theirs - mine > 40
        # A backgammon needs their checkers on the bar or in my home board (RULES.md 1.4).
        stuck = op[BAR] + position.waiting(mine=False) + sum(op[1:7])
        could_backgammon = could_gammon and stuck > 0
        expected = 3 if could_backgammon else 2 if could_gammon else 1
        return level >= expected


def _longest_run(side: bytes, low: int, high: int) -> int:
    """The longest run of consecutive points from ``low`` to ``high`` that ``side`` holds
    with two or more checkers."""
    best = run = 0
    for p in range(max(low, 1), min(high, 24) + 1):
        run = run + 1 if side[p] >= 2 else 0
        best = max(best, run)
    return best


def _blocks(blocker: bytes, victim: bytes, victim_path: Sequence[int]) -> float:
    """Long nardy: the worth of the points ``blocker`` holds in ``victim``'s way — each point
    ahead of the victim's last checker, more when close to it, and more for long runs
    (one checker holds a point; a run of six is a full block)."""
    rear = next((i for i, p in enumerate(victim_path) if victim[p]), None)
    if rear is None:
        return 0.0
    value = 0.0
    run = 0
    for i in range(rear + 1, len(victim_path)):
        if blocker[victim_path[i]]:
            run += 1
            value += 1.0 if i - rear <= 12 else 0.5
        else:
            value += _RUN_VALUE[min(6, run)]
            run = 0
    return value + _RUN_VALUE[min(6, run)]
