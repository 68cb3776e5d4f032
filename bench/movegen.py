"""Move-generation speed: nardy's compiled and pure-Python generators against gnubg-nn's.

    python bench/movegen.py [--positions 10000] [--rounds 5]

The same fixed set of positions from random games (fixed seed) goes through
``Variant.play_paths`` (the compiled generator where it is built: every distinct resulting
position with one move list reaching it), through ``Variant.reference_play_paths`` (the
pure-Python reference, the same answer) and through ``gnubg_nn.moves`` (keys only, and keys
with move steps). Rounds alternate between them so that a noisy machine slows all alike; the
best round of each is reported, with each nardy generator's ratio to gnubg-nn's. Long nardy
has no gnubg counterpart, so only nardy's own rates are printed for it.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_crosscheck import gnubg_board, random_game_positions

from nardy.core import Variant
from nardy.core.variant import movegen

try:
    import gnubg_nn
except ImportError:  # the reference is optional: nardy's own rates are still printed
    gnubg_nn = None

Board = list[list[int]]


def nardy_run(raw: list[tuple[Variant, bytes, bytes, int, int]]) -> None:
    for v, mine, theirs, d1, d2 in raw:
        v.play_paths(mine, theirs, d1, d2)


def reference_run(raw: list[tuple[Variant, bytes, bytes, int, int]]) -> None:
    for v, mine, theirs, d1, d2 in raw:
        v.reference_play_paths(mine, theirs, d1, d2)


def gnubg_run(boards: list[tuple[Board, int, int]], verbose: int) -> None:
    for board, d1, d2 in boards:
        gnubg_nn.moves(board, d1, d2, verbose)


def best_rates(runs: dict[str, Callable[[], None]], count: int, rounds: int) -> dict[str, float]:
    """Positions per second of each run, best of ``rounds``, the runs taking turns."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for label, run in runs.items():
            started = time.perf_counter()
            run()
            best[label] = min(best[label], time.perf_counter() - started)
    return {label: count / seconds for label, seconds in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()

    for name in ("backgammon", "long"):
        cases = list(random_game_positions(name, args.positions, args.seed))
        raw = [(pos.variant, pos.mine, pos.theirs, d1, d2) for pos, d1, d2 in cases]

        runs: dict[str, Callable[[], None]] = {
            "nardy python": functools.partial(reference_run, raw)
        }
        if movegen() == "compiled":
            runs["nardy compiled"] = functools.partial(nardy_run, raw)
        if gnubg_nn is not None and name == "backgammon":
            boards = [(gnubg_board(pos), d1, d2) for pos, d1, d2 in cases]
            runs["gnubg-nn keys"] = functools.partial(gnubg_run, boards, 0)
            runs["gnubg-nn keys+moves"] = functools.partial(gnubg_run, boards, 1)
        rates = best_rates(runs, len(raw), args.rounds)
        print(f"{name}: {len(raw)} positions, best of {args.rounds} rounds")
        for label, rate in rates.items():
            print(f"  {label:20} {rate:11,.0f} positions/s")
        ours = [label for label in rates if label.startswith("nardy")]
        for label in rates:
            if label.startswith("gnubg"):
                for mine in ours:
                    ratio = rates[mine] / rates[label]
                    print(f"  ratio {mine} / {label} = {ratio:.3f}")
        if "nardy compiled" in rates:
            speedup = rates["nardy compiled"] / rates["nardy python"]
            print(f"  compiled / python = {speedup:.1f}")
        else:
            print("  compiled generator not in use (not built, or NARDY_MOVEGEN=python)")
        if gnubg_nn is None:
            print("  gnubg-nn not installed (pip install --pre gnubg-nn): no reference")


if __name__ == "__main__":
    main()
