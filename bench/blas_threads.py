"""What BLAS threads cost the net's small matrix products, and which way of limiting them works.

    python bench/blas_threads.py [--positions 40] [--ply 1]

The same plays (a fixed set of positions from random games, each ranked at ``--ply``) are
ranked with ``Net.forward`` run four ways, in this order:

- ``default``: the BLAS library's own thread count (OpenBLAS: one per core);
- ``threadpool_limits``: ``threadpoolctl.threadpool_limits(1)`` around each net call;
- ``engine``: the engine's own limit (:mod:`nardy.engine.blas`: one controller, made once,
  sets one thread for each call and restores the count after it);
- ``process``: one thread set once for the whole process, as if when the evaluator is made.

Each prints its wall-clock and CPU seconds (best of ``--rounds``) and its ratio to the
default (above 1: faster).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gnubg_crosscheck import random_game_positions
from threadpoolctl import ThreadpoolController, threadpool_limits

from nardy.engine import blas
from nardy.engine.evaluator import evaluator
from nardy.engine.net import F32, Net

Limit = Callable[[], contextlib.AbstractContextManager[object]]


def timed(rank: Callable[[], None], rounds: int) -> tuple[float, float]:
    """The best wall-clock and CPU seconds of ``rounds`` runs of ``rank``."""
    best = (float("inf"), float("inf"))
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        rank()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best


@contextlib.contextmanager
def forward_within(limit: Limit) -> Iterator[None]:
    """``Net.forward`` without the engine's own limit, each call inside ``limit()``."""
    engine_forward = Net.forward

    def forward(net: Net, x: F32) -> F32:
        with limit():
            return net.forward_as_set(x)

    Net.forward = forward  # type: ignore[method-assign]
    try:
        yield
    finally:
        Net.forward = engine_forward  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--ply", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    positions = list(random_game_positions("backgammon", args.positions * 10, 3))[::10]
    ev = evaluator("backgammon")

    def rank() -> None:
        for position, d1, d2 in positions:
            ev.rank(position, d1, d2, args.ply)

    rank()  # loads the net and warms the caches
    controller = ThreadpoolController()
    libraries = [f"{i['internal_api']} {i['num_threads']} threads" for i in controller.info()]
    print(f"BLAS: {', '.join(libraries)}")
    print(f"{len(positions)} positions ranked at {args.ply}-ply, best of {args.rounds}:")
    results: dict[str, tuple[float, float]] = {}
    with forward_within(contextlib.nullcontext):
        results["default"] = timed(rank, args.rounds)
    with forward_within(lambda: threadpool_limits(1, user_api="blas")):
        results["threadpool_limits"] = timed(rank, args.rounds)
    results["engine"] = timed(rank, args.rounds)
    with forward_within(contextlib.nullcontext):
        controller.limit(limits=1, user_api="blas")  # for the rest of the process
        results["process"] = timed(rank, args.rounds)
    base_wall, base_cpu = results["default"]
    for name, (wall, cpu) in results.items():
        print(
            f"  {name:18} wall {wall:7.3f} s  cpu {cpu:7.3f} s"
            f"  ratio {base_wall / wall:5.2f} (wall)  {base_cpu / cpu:5.2f} (cpu)"
        )
    print(f"(the engine's limit: {blas.VARIABLE}={blas.threads()} thread(s))")


if __name__ == "__main__":
    main()
