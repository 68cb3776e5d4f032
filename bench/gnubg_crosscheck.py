"""Cross-check nardy's legal plays against GNU Backgammon's move generator (gnubg-nn).

    python bench/gnubg_crosscheck.py --positions 1000000 --seed 1

Positions come from random games (both sides choose uniformly among legal plays). For each
position and roll, the set of positions reached must be the same in nardy and in
``gnubg_nn.moves``. nardy's answer is ``Variant.play_paths``: the compiled generator where it
is built (``NARDY_FASTPATH=python`` checks the pure-Python reference instead). gnubg-nn is
GPL and used here only as a test oracle.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from nardy.core import OFF, Position, variant
from nardy.core.position import Side
from nardy.core.variant import movegen
from nardy.notation.position_id import encode_sides


def random_game_positions(
    variant_name: str, count: int, seed: int
) -> Iterator[tuple[Position, int, int]]:
    """``count`` (position, d1, d2) from random games of a variant, reproducible by seed."""
    rng = random.Random(seed)
    v = variant(variant_name)
    produced = 0
    while produced < count:
        pos = v.start()
        while pos.outcome() is None and produced < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            yield pos, d1, d2
            produced += 1
            paths = v.play_paths(pos.mine, pos.theirs, d1, d2)
            mine, theirs = rng.choice(sorted(paths))
            pos = Position(v, theirs, mine)


def gnubg_board(pos: Position) -> list[list[int]]:
    """gnubg's board: [side not on roll, side on roll], index 0-23 = points 1-24, 24 = bar."""
    return [list(pos.theirs[1:26]), list(pos.mine[1:26])]


def _key(mine: Side, theirs: Side) -> str:
    # gnubg lists one of the plays that bear off the last checker and differ only by hits.
    if mine[OFF] == 15:
        return "won:" + encode_sides(mine, bytes(26))
    return encode_sides(mine, theirs)


def nardy_results(pos: Position, d1: int, d2: int) -> set[str]:
    paths = pos.variant.play_paths(pos.mine, pos.theirs, d1, d2)
    return {_key(m, t) for m, t in paths}


def gnubg_results(pos: Position, d1: int, d2: int) -> set[str]:
    import gnubg_nn

    keys = gnubg_nn.moves(gnubg_board(pos), d1, d2, 0)
    if not keys:
        return {_key(pos.mine, pos.theirs)}
    out = set()
    for k in keys:
        theirs, mine = gnubg_nn.board_from_position_key(k)
        out.add(_key(bytes([15 - sum(mine), *mine]), bytes([15 - sum(theirs), *theirs])))
    return out


def crosscheck(count: int, seed: int, variant_name: str = "backgammon") -> list[str]:
    """Descriptions of every position where nardy and gnubg disagree."""
    from nardy.notation.position_id import position_id

    differences = []
    for pos, d1, d2 in random_game_positions(variant_name, count, seed):
        ours, theirs = nardy_results(pos, d1, d2), gnubg_results(pos, d1, d2)
        if ours != theirs:
            differences.append(
                f"{position_id(pos)} {d1}-{d2}: only nardy {sorted(ours - theirs)}, "
                f"only gnubg {sorted(theirs - ours)}"
            )
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="backgammon", choices=["backgammon", "nackgammon"])
    args = parser.parse_args()
    started = time.perf_counter()
    differences = crosscheck(args.positions, args.seed, args.variant)
    for line in differences[:20]:
        print(line)
    elapsed = time.perf_counter() - started
    print(
        f"{args.positions} positions ({args.variant}, seed {args.seed}, {movegen()} generator): "
        f"{len(differences)} differences in {elapsed:.0f} s"
    )
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
