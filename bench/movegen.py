"""Move-generation speed: nardy's compiled and pure-Python generators against gnubg-nn's.

    python bench/movegen.py [--positions 10000] [--rounds 5]

The same fixed set of positions from random games (fixed seed) goes through
``Variant.play_paths`` (the compiled generator where it is built: every distinct resulting
position with one move list reaching it), through ``Variant.reference_play_paths`` (the
pure-Python reference, the same answer) and through ``gnubg_nn.moves`` (keys only, and keys
with move steps). Rounds alternate between them so that a noisy machine slows all alike; the
best round of each is reported, with each nardy generator's ratio to gnubg-nn's. Long nardy
has no gnubg counterpart, so only nardy's own rates are printed for it.

Then the nets' encodings, compiled and numpy (``features.encode`` and ``reference_encode``,
the same vectors): each batch is every play of the 21 rolls of one of the first
``--positions / 25`` positions, as a 1-ply search encodes them; CPU time per row, best round.
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

from nardy.core import Variant, fastpath
from nardy.core.variant import movegen
from nardy.engine import features, features_long
from nardy.engine.evaluator import ROLLS
from nardy.engine.features import U8, sides_array

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


def encoding_batches(raw: list[tuple[Variant, bytes, bytes, int, int]]) -> list[tuple[U8, U8]]:
    """For each position, the sides reached by every play of its 21 rolls, as two arrays."""
    batches = []
    for v, mine, theirs, _, _ in raw:
        reached = [pair for d1, d2, _ in ROLLS for pair in v.play_paths(mine, theirs, d1, d2)]
        batches.append((sides_array(m for m, _ in reached), sides_array(t for _, t in reached)))
    return batches


def encoding_costs(name: str, batches: list[tuple[U8, U8]], rounds: int) -> dict[str, float]:
    """CPU microseconds per encoded row, best of ``rounds``, compiled (where built) and numpy."""
    module = features_long if name == "long" else features
    encoders = {"numpy": module.reference_encode}
    if fastpath.in_use().get("nardy.engine._features"):
        encoders["compiled"] = module.encode
    rows = sum(len(mine) for mine, _ in batches)
    best = dict.fromkeys(encoders, float("inf"))
    for _ in range(rounds):
        for label, encode in encoders.items():
            started = time.process_time()
            for mine, theirs in batches:
                encode(mine, theirs)
            best[label] = min(best[label], time.process_time() - started)
    return {label: 1e6 * seconds / rows for label, seconds in best.items()}


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
        batches = encoding_batches(raw[: max(1, len(raw) // 25)])
        costs = encoding_costs(name, batches, args.rounds)
        rows = sum(len(mine) for mine, _ in batches) / len(batches)
        print(f"  encoding, {len(batches)} batches of {rows:.0f} rows on average (CPU time):")
        for label, cost in costs.items():
            print(f"  {label:20} {cost:11.2f} µs a row")


if __name__ == "__main__":
    main()
