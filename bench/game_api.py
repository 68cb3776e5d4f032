"""Game API speed (issue 8): restoring a game from its snapshot, and a single move through
``apply`` against the ``move`` method it dispatches to.

    python bench/game_api.py [--turns 60] [--rounds 7]

Restore: a game of at least ``--turns`` finished turns (random legal plays, fixed seed) is
snapshotted, put through JSON text and restored; beside it, the same game is replayed from
its JSON record (``notation.record.replay``, which re-checks every play), measured in the
same run so that the ratio does not depend on the machine. Single moves: the first legal
single move of each roll, made (and undone) in copies restored with the dice on the table,
through ``Game.apply`` and through ``Game.move``, alternating so that a noisy machine slows
both alike. The best round of each is reported.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from nardy.core import actions
from nardy.core.dice import SeededDice
from nardy.core.game import Game, Phase
from nardy.notation.record import game_record, replay


def long_game(turns: int, seed: int = 1) -> tuple[Game, list[dict[str, Any]]]:
    """A backgammon game with at least ``turns`` finished turns, not over (a new seed until
    one lasts that long), and its snapshots with dice on the table and a move to make."""
    while True:
        game = Game(dice=SeededDice(seed))
        rng = random.Random(seed)
        game.apply(actions.RollOpening(0))
        rolled = []
        while not game.over and len(game.records) < turns:
            if game.phase is Phase.ROLL:
                game.apply(actions.Roll(game.turn))
            else:
                if game.next_moves():
                    rolled.append(game.snapshot())
                game.apply(actions.Play(game.turn, str(rng.choice(game.legal_plays()))))
        if not game.over:
            return game, rolled
        seed += 1


def best(rounds: int, run: Callable[[], object], repeat: int) -> float:
    """The best of ``rounds`` rounds, in seconds per call."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            run()
        times.append((time.perf_counter() - start) / repeat)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    game, rolled = long_game(args.turns)
    text = json.dumps(game.snapshot())
    record = json.loads(json.dumps(game_record(game)))
    restore = best(args.rounds, lambda: Game.restore(json.loads(text)), 20)
    replayed = best(args.rounds, lambda: replay(record), 3)
    print(f"a game of {len(game.records)} turns, {len(text)} bytes of snapshot JSON")
    print(f"restore from snapshot (JSON text): {restore * 1000:.2f} ms")
    print(f"replay from the record:            {replayed * 1000:.2f} ms")
    print(f"restore is {replayed / restore:.0f}x faster than replay")

    # Single moves: the first legal single move of each roll, from a restored copy.
    games = []
    for snap in rolled[:20]:
        g = Game.restore(snap)
        first = g.next_moves()[0]
        games.append((g, g.turn, first.start, first.end))

    def by_method() -> None:
        for g, p, a, b in games:
            g.move(p, a, b)
            g.undo(p)

    def by_apply() -> None:
        for g, p, a, b in games:
            g.apply(actions.Move(p, a, b))
            g.apply(actions.Undo(p))

    method_times, apply_times = [], []
    for _ in range(args.rounds):
        method_times.append(best(1, by_method, 5))
        apply_times.append(best(1, by_apply, 5))
    method, applied = min(method_times) / len(games), min(apply_times) / len(games)
    print(f"move + undo by method:  {method * 1e6:.0f} µs")
    print(f"move + undo by apply:   {applied * 1e6:.0f} µs ({applied / method:.2f}x)")


if __name__ == "__main__":
    main()
