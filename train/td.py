"""Train the neural evaluator by TD(λ) self-play, in numpy on one core.

    python train/td.py --out /tmp/nardy-td --minutes 30 --seed 1
    python train/td.py --variant long --out /tmp/nardy-td-long --minutes 90 --seed 1

``--variant`` picks the family: ``backgammon`` (the default; :mod:`nardy.engine.features`)
or ``long`` nardy (:mod:`nardy.engine.features_long`, its own inputs; the same five outputs,
read as win, win a mars and lose a mars, the two backgammon outputs always trained toward 0).

The net (:mod:`nardy.engine.net`) plays both sides of cubeless games, each turn
choosing the legal play whose resulting position it values highest (0-ply, the same choice as
:class:`~nardy.engine.neural.NeuralBot`; no exploration: the dice vary the games). After each
game it learns from the positions it chose, one batched gradient step per game: each position
is moved toward its λ-return (the offline, forward view of TD(λ)),

    G_t = flip((1 - λ) y_{t+1} + λ G_{t+1}),     G_{T-1} = flip(z),

where ``y_{t+1}`` is the net's evaluation of the next chosen position (from the other side,
hence :func:`~nardy.engine.net.flip`) as computed during play, and ``z`` the actual result of
the game for the player who bore off the last checker (win, gammon, backgammon; in long
nardy win and mars, RULES.md 3.4 with ``ending=mars``). The first roll of a backgammon game
is never a double (the opening roll is played); long nardy's starting lot only decides who
moves first, so its first roll is any roll, doubles included. The loss is
each output's cross-entropy; the learning rate decays from ``--rate`` to ``--rate-end`` with
time constant ``--tau`` games.

Every ``--checkpoint`` games the net is saved to ``OUT/net-GAMES.npz``; every ``--duel-every``
games a quick duplicate duel against the family's yardstick (PubEval in backgammon, the
heuristic bot in long nardy; bench/strength.py, ``--duel-pairs`` pairs, one process, a seed
of its own per duel) is logged, and the net with the best duel result so far
is kept as ``OUT/best.npz``. ``OUT/log.jsonl`` has one line per report. SIGINT or SIGTERM
stops after the current game and saves ``OUT/last.npz``.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from nardy.core import (  # noqa: E402
    ACEY_DEUCEY,
    BACKGAMMON,
    CHECKERS,
    LONG_NARDY,
    OFF,
    Position,
    Variant,
)
from nardy.core.position import Side  # noqa: E402
from nardy.engine import features, features_long  # noqa: E402
from nardy.engine.evaluator import terminal_outputs  # noqa: E402
from nardy.engine.net import F32, Net, equity, flip  # noqa: E402

MAX_TURNS = 5000
"""A self-play game longer than this is a bug in the rules, not a long game."""


@dataclass(frozen=True)
class Family:
    """What training one family of variants needs: its rules, its encoding, the exact
    outputs of a finished game (mover's side) and the player its net is measured against."""

    variant: Variant
    inputs: int
    encode_sides: Callable[[Iterable[tuple[Side, Side]]], F32]
    terminal_outputs: Callable[[Side, Side], F32]
    opponent: str


FAMILIES = {
    "backgammon": Family(
        BACKGAMMON,
        features.INPUTS,
        features.encode_sides,
        functools.partial(terminal_outputs, BACKGAMMON),
        "pubeval",
    ),
    "acey-deucey": Family(
        ACEY_DEUCEY,
        features.INPUTS,
        features.encode_sides,
        functools.partial(terminal_outputs, ACEY_DEUCEY),
        "heuristic",
    ),
    "long": Family(
        LONG_NARDY,
        features_long.INPUTS,
        features_long.encode_sides,
        functools.partial(terminal_outputs, LONG_NARDY),
        "heuristic",
    ),
}


Turn = tuple[Side, Side, int, int, Side, Side]
"""One play of a game: (mine, theirs) before it, the dice, (mine, theirs) after it. A turn is
one play, except after acey-deucey's 1-2 (the named double, then another roll)."""


class NetChooser:
    """The net's 0-ply choice of a play (the highest equity, as
    :class:`~nardy.engine.neural.NeuralBot` at the ``advanced`` level chooses; a play that
    wins is valued exactly), remembering the encoding and outputs of its last choice: what
    self-play learns from."""

    name = "td"

    def __init__(self, net: Net, family: Family, trace: list[Turn] | None = None) -> None:
        self.net = net
        self.family = family
        self.trace = trace
        self.x: F32 | None = None
        self.y: F32 | None = None

    def choose(
        self, position: Position, d1: int, d2: int, chosen: bool = False
    ) -> tuple[Side, Side]:
        # Self-play ranks every play by the net's value after it, as if it ended the turn
        # (the bot looks ahead to a named double and the roll after: Evaluator.played).
        del chosen
        family, mine, theirs = self.family, position.mine, position.theirs
        after = list(family.variant.play_paths(mine, theirs, d1, d2))
        finished = [i for i, (m, _) in enumerate(after) if m[OFF] == CHECKERS]
        if finished:
            outs = np.stack([family.terminal_outputs(*after[i]) for i in finished])
            i = finished[int(np.argmax(equity(outs)))]
            self.x, self.y = None, family.terminal_outputs(*after[i])
        else:
            x = family.encode_sides(after)
            y = self.net.forward(x)
            i = int(np.argmax(equity(y))) if len(after) > 1 else 0
            self.x, self.y = x[i], y[i]
        if self.trace is not None:
            self.trace.append((mine, theirs, d1, d2, *after[i]))
        return after[i]

    def choose_double(self, position: Position) -> int:
        """Acey-deucey: the double whose best play the net values most, as if it ended the
        turn (the trainer's simplification; NeuralBot values the roll that follows too)."""
        v, mine, theirs = self.family.variant, position.mine, position.theirs

        def best(die: int) -> float:
            after = list(v.play_paths(mine, theirs, die, die))
            if any(m[OFF] == CHECKERS for m, _ in after):
                return math.inf
            return float(np.max(equity(self.net.forward(self.family.encode_sides(after)))))

        return max(range(1, 7), key=best)


def self_play_game(
    net: Net,
    rng: random.Random,
    family: Family = FAMILIES["backgammon"],
    trace: list[Turn] | None = None,
) -> tuple[F32, F32, F32, int]:
    """One game of the net against itself: the encoded positions that end each turn (from
    each mover's side, the opponent to roll), the net's outputs for them, the exact outputs
    of the final position for its mover, and the turns played. ``trace``, if given, receives
    every play (for checking games)."""
    import strength  # bench/strength.py: a whole turn, acey-deucey's 1-2 included

    v = family.variant
    chooser = NetChooser(net, family, trace)
    dice = strength.rolls(rng, v)
    pos = v.start()
    xs: list[F32] = []
    ys: list[F32] = []
    while len(xs) < MAX_TURNS:
        mine, theirs = strength.play_turn(v, chooser, pos, dice)
        assert chooser.y is not None
        if mine[OFF] == CHECKERS:
            return np.stack(xs), np.stack(ys), chooser.y, len(xs) + 1
        assert chooser.x is not None
        xs.append(chooser.x)
        ys.append(chooser.y)
        pos = Position(v, theirs, mine)
    raise RuntimeError(f"no result after {MAX_TURNS} turns")


def lambda_targets(ys: F32, z: F32, lam: float) -> F32:
    """The λ-return of each position (see the module's docstring)."""
    targets = np.empty_like(ys)
    g = flip(z[None, :])[0]
    targets[-1] = g
    for t in range(len(ys) - 2, -1, -1):
        g = flip(((1.0 - lam) * ys[t + 1] + lam * targets[t + 1])[None, :])[0]
        targets[t] = g
    return targets


def duel(family: Family, path: Path, pairs: int, seed: int) -> dict[str, Any]:
    """A quick duplicate duel of the net saved at ``path`` against the family's opponent."""
    import strength  # bench/strength.py

    r = strength.duel(family.variant.key, f"net:{path}", family.opponent, pairs, seed=seed, jobs=1)
    return {"ppg": r.ppg, "ci95": r.ci95, "win_rate": r.win_rate, "duel_seconds": r.seconds}


def starting_net(family: Family, resume: Path | None, hidden: int, seed: int) -> Net:
    """The net training starts from: ``resume`` (widened to the family's inputs if it has
    fewer), or a fresh one of ``hidden`` units."""
    if resume is None:
        return Net.random(family.inputs, hidden, seed)
    net = Net.load(resume)
    if net.inputs < family.inputs:
        # Inputs are only appended to an encoding: the ones added since this net was saved
        # start with zero weights (the same function) and learn from here on.
        net = net.widened(family.inputs)
    if net.inputs != family.inputs:
        raise SystemExit(f"{resume} has {net.inputs} inputs; the family needs {family.inputs}")
    return net


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(FAMILIES), default="backgammon")
    parser.add_argument("--out", type=Path, default=Path("/tmp/nardy-td"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1_000_000, help="stop after this many")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--hidden", type=int, default=96)
    parser.add_argument("--lam", type=float, default=0.7, help="TD's λ")
    parser.add_argument("--rate", type=float, default=0.1, help="initial learning rate")
    parser.add_argument("--rate-end", type=float, default=0.02, help="final learning rate")
    parser.add_argument("--tau", type=float, default=10_000, help="rate decay, in games")
    parser.add_argument("--resume", type=Path, help="start from this saved net")
    parser.add_argument("--checkpoint", type=int, default=1000, help="save every N games")
    parser.add_argument("--duel-every", type=int, default=2000, help="duel every N games")
    parser.add_argument("--duel-pairs", type=int, default=100)
    parser.add_argument("--report", type=int, default=200, help="log a line every N games")
    args = parser.parse_args()
    family = FAMILIES[args.variant]

    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    net = starting_net(family, args.resume, args.hidden, args.seed)
    done = int(net.meta.get("games", 0))
    if args.resume and net.meta.get("variant", args.variant) != args.variant:
        # Another family's net is only a starting point (backgammon's for acey-deucey): this
        # family's games, seconds and learning-rate schedule start from zero.
        net.meta = {"started_from": f"{net.meta.get('variant')} net of {done} games"}
        done = 0
    net.meta.update(
        {"hidden": args.hidden, "lambda": args.lam, "seed": args.seed, "trainer": "train/td.py"}
    )
    net.meta["variant"] = args.variant
    stop = False

    def request_stop(signum: int, frame: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    log = (args.out / "log.jsonl").open("a")

    def write(entry: dict[str, Any]) -> None:
        log.write(json.dumps(entry) + "\n")
        log.flush()
        print(json.dumps(entry), flush=True)

    write({"event": "start", **{k: str(v) for k, v in vars(args).items()}, "games": done})
    started = time.perf_counter()
    train_seconds = float(net.meta.get("seconds", 0.0))
    best_ppg = -math.inf
    errors: list[float] = []
    turns: list[int] = []
    games = 0
    while not stop and games < args.games:
        if time.perf_counter() - started > 60 * args.minutes:
            break
        t0 = time.perf_counter()
        xs, ys, z, n = self_play_game(net, rng, family)
        rate = args.rate_end + (args.rate - args.rate_end) * math.exp(-(done + 1) / args.tau)
        errors.append(net.train(xs, lambda_targets(ys, z, args.lam), rate))
        train_seconds += time.perf_counter() - t0
        turns.append(n)
        games += 1
        done += 1
        net.meta.update({"games": done, "seconds": round(train_seconds, 1)})
        if done % args.report == 0:
            write(
                {
                    "games": done,
                    "seconds": round(train_seconds, 1),
                    "rate": round(rate, 5),
                    "mse": round(float(np.mean(errors)), 5),
                    "turns": round(float(np.mean(turns)), 1),
                }
            )
            errors.clear()
            turns.clear()
        if done % args.checkpoint == 0:
            path = args.out / f"net-{done}.npz"
            net.save(path)
            if done % args.duel_every == 0:
                result = duel(family, path, args.duel_pairs, seed=done)
                write({"games": done, f"vs_{family.opponent}": result})
                if result["ppg"] > best_ppg:
                    best_ppg = result["ppg"]
                    net.meta["best_duel"] = json.dumps(result)
                    net.save(args.out / "best.npz")
                    del net.meta["best_duel"]
    net.save(args.out / "last.npz")
    write({"event": "stop", "games": done, "seconds": round(train_seconds, 1)})


if __name__ == "__main__":
    main()
