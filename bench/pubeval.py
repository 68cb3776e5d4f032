"""PubEval: Gerald Tesauro's public linear evaluator for backgammon, a reference opponent.

    python bench/pubeval.py [--positions 2000] [--seed 7]

Tesauro published PubEval (``pubeval.c``, 1993, placed in the public domain "as a public
service to the backgammon programming community") so that programs could be compared against
a common, fixed opponent. It scores the position *after* a move from the mover's side,
``W . x``, with one weight vector for races and one for contact positions, over 122 inputs:

* for each of the mover's points 24 down to 1, five inputs: an opponent blot there; exactly
  one of the mover's checkers; two or more; exactly three; ``(n - 3) / 2`` for ``n >= 4``;
* the opponent's checkers on the bar, halved (input 120), and the mover's checkers borne off
  over 15 (input 121).

The race weights are chosen by the position *before* the move (no contact left). A play that
bears off the last checker scores 99999999. The player picks the legal play (from nardy's
generator) whose resulting position scores highest; ties go to the first play generated.

Run as a script, this checks the implementation against GNU Backgammon's own PubEval
(``gnubg_nn.pub_eval_score`` and ``gnubg_nn.pub_best_move``) on random-game positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nardy.core import OFF, Play, Position
from nardy.core.position import BAR, CHECKERS, Side

# Tesauro's published weights (pubeval.c): inputs 5*(24 - p) .. 5*(24 - p) + 4 describe the
# mover's point p (opponent blot, 1, >=2, ==3, (n-3)/2); input 120 is the opponent's bar,
# input 121 the mover's checkers off.
CONTACT_WEIGHTS: tuple[float, ...] = (
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
)  # fmt: skip
RACE_WEIGHTS: tuple[float, ...] = (
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
)  # fmt: skip

WIN_SCORE = 99999999.0
"""What pubeval.c returns for a play that bears off the mover's last checker."""

BLOT = CHECKERS + 1
"""Column of :data:`_TABLES` for an empty point of the mover holding one opponent checker."""


def inputs(mine: Side, theirs: Side) -> list[float]:
    """The 122 inputs of pubeval.c's ``setx`` for the position after a move, from the mover's
    side (``mine``, nardy numbering; ``theirs`` in the opponent's own numbering)."""
    x = [0.0] * 122
    for p in range(1, 25):
        i = 5 * (24 - p)
        n = mine[p]
        if n == 0:
            if theirs[25 - p] == 1:  # the opponent's point 25 - p is my point p
                x[i] = 1.0
            continue
        if n == 1:
            x[i + 1] = 1.0
        if n >= 2:
            x[i + 2] = 1.0
        if n == 3:
            x[i + 3] = 1.0
        if n >= 4:
            x[i + 4] = (n - 3) / 2.0
    x[120] = theirs[BAR] / 2.0
    x[121] = mine[OFF] / 15.0
    return x


def _tables(weights: Sequence[float]) -> tuple[tuple[float, ...], ...]:
    """Per point 1-24 (index 0-23), the weights summed for each content of the point: column
    ``n`` (0-15) for ``n`` of the mover's checkers, column :data:`BLOT` for an opponent blot
    on an otherwise empty point. Scoring is then one lookup per point."""
    tables = []
    for p in range(1, 25):
        i = 5 * (24 - p)
        row = [0.0, weights[i + 1], weights[i + 2], weights[i + 2] + weights[i + 3]]
        row += [weights[i + 2] + weights[i + 4] * (n - 3) / 2.0 for n in range(4, CHECKERS + 1)]
        row.append(weights[i])
        tables.append(tuple(row))
    return tuple(tables)


_TABLES = {False: _tables(CONTACT_WEIGHTS), True: _tables(RACE_WEIGHTS)}
_EXTRA = {
    race: (w[120] / 2.0, w[121] / 15.0)
    for race, w in ((False, CONTACT_WEIGHTS), (True, RACE_WEIGHTS))
}


def score(mine: Side, theirs: Side, race: bool) -> float:
    """PubEval's score of the position after a move, for the mover (``mine``), with the race
    or the contact weights; equal to ``sum(w * x)`` over :func:`inputs`."""
    if mine[OFF] == CHECKERS:
        return WIN_SCORE
    table = _TABLES[race]
    total = 0.0
    # theirs[24:0:-1][p - 1] is the opponent's point 25 - p, my point p.
    for row, n, o in zip(table, mine[1:25], theirs[24:0:-1], strict=True):
        if n:
            total += row[n]
        elif o == 1:
            total += row[BLOT]
    bar, off = _EXTRA[race]
    return total + bar * theirs[BAR] + off * mine[OFF]


class PubEvalBot:
    """Plays the legal play whose resulting position PubEval scores highest.

    Checker play only: PubEval has no cube or resignation logic, and the strength benchmark
    plays cubeless games. Deterministic; ``seed`` is accepted and ignored so that it builds
    like the other players.
    """

    name = "pubeval"

    def __init__(self, seed: int | str | None = None) -> None:
        del seed

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        """The (mine, theirs) after the chosen play, still from the mover's side."""
        del chosen  # backgammon's evaluation function: no double is ever named
        v = position.variant
        paths = v.play_paths(position.mine, position.theirs, d1, d2)
        if len(paths) == 1:
            return next(iter(paths))
        race = v.is_race(position)
        return max(paths, key=lambda after: score(after[0], after[1], race))

    def choose_play(self, position: Position, d1: int, d2: int) -> Play:
        """The chosen play, as a :class:`~nardy.core.moves.Play` (the nardy ``Bot`` way)."""
        mine, theirs = self.choose(position, d1, d2)
        return next(
            p
            for p in position.legal_plays(d1, d2)
            if p.position.mine == mine and p.position.theirs == theirs
        )


# -- the check against GNU Backgammon ---------------------------------------------------------


def gnubg_after_board(mine: Side, theirs: Side) -> list[list[int]]:
    """The position after a move as ``gnubg_nn.pub_eval_score`` reads it: [mover, opponent],
    25 entries each (points 1-24, then the bar) — the mover is the side *not* on roll."""
    return [list(mine[1:26]), list(theirs[1:26])]


def apply_steps(mine: Side, theirs: Side, steps: Sequence[tuple[int, int]]) -> tuple[Side, Side]:
    """Backgammon geometry: play single moves ``(from, to)`` in the mover's numbering (25 =
    bar, 0 = off), hitting a blot where one lands; no legality check."""
    me, op = bytearray(mine), bytearray(theirs)
    for start, end in steps:
        me[start] -= 1
        me[end] += 1
        if 1 <= end <= 24 and op[25 - end] == 1:
            op[25 - end] = 0
            op[BAR] += 1
    return bytes(me), bytes(op)


def compare_with_gnubg(count: int, seed: int) -> dict[str, int]:
    """Score every play of ``count`` random-game positions and choose a play in each, here and
    in gnubg-nn; returns counts: ``plays`` scored, ``score_differences``, ``choices`` made,
    ``choice_differences`` (gnubg's choice not one of our best-scoring plays)."""
    import math

    import gnubg_nn
    from gnubg_crosscheck import gnubg_board, random_game_positions

    bot = PubEvalBot()
    out = dict.fromkeys(("plays", "score_differences", "choices", "choice_differences"), 0)
    for pos, d1, d2 in random_game_positions("backgammon", count, seed):
        paths = pos.variant.play_paths(pos.mine, pos.theirs, d1, d2)
        for mine, theirs in paths:
            after_race = pos.variant.is_race(Position(pos.variant, mine, theirs))
            ours = score(mine, theirs, after_race)  # gnubg classifies the board it is given
            theirs_score = gnubg_nn.pub_eval_score(gnubg_after_board(mine, theirs))
            out["plays"] += 1
            if not math.isclose(ours, theirs_score, rel_tol=1e-6, abs_tol=1e-4):
                out["score_differences"] += 1
        flat = gnubg_nn.pub_best_move(gnubg_board(pos), d1, d2)
        steps = [(flat[i] + 1, flat[i + 1] + 1) for i in range(0, len(flat), 2)]
        gnubg_choice = apply_steps(pos.mine, pos.theirs, steps)
        our_choice = bot.choose(pos, d1, d2)
        race = pos.variant.is_race(pos)
        out["choices"] += 1
        if gnubg_choice != our_choice and not (
            gnubg_choice in paths
            and math.isclose(score(*gnubg_choice, race), score(*our_choice, race), abs_tol=1e-4)
        ):
            out["choice_differences"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    started = time.perf_counter()
    result = compare_with_gnubg(args.positions, args.seed)
    elapsed = time.perf_counter() - started
    print(", ".join(f"{k} {v}" for k, v in result.items()) + f" ({elapsed:.1f} s)")
    sys.exit(1 if result["score_differences"] or result["choice_differences"] else 0)


if __name__ == "__main__":
    main()
