"""Supervised training on the project's own labels: positions, their labels, nets by class.

    # 1. positions from self-play, labelled by the current net's 2-ply search (shards of 500)
    nice -n 19 python3 train/supervised.py generate --variant backgammon --out /tmp/sup \\
        --minutes 30 --seed 1 --label-ply 2
    # 2. a net per class from them, starting from the shipped net's weights
    nice -n 19 python3 train/supervised.py fit --data /tmp/sup --class contact \\
        --out /tmp/sup/contact.npz
    nice -n 19 python3 train/supervised.py fit --data /tmp/sup --class race --out /tmp/sup/race.npz
    # 3. measure (bench/memg.py takes the race net with --race)
    python3 bench/memg.py --variant backgammon shipped /tmp/sup/contact.npz --race /tmp/sup/race.npz

**Positions** (``generate``). The shipped net plays itself at the ``intermediate`` level
(0-ply with noise, so that games leave its favourite lines; the dice and the noise from
``--seed``). Every position it reaches after a play is kept (the mover's side, the opponent to
roll: what the net values). Where the net is least sure — its 0-ply choice of a roll is not
its choice at 1-ply — both plays' positions are kept as well, whichever it plays. Positions
of the benchmark (bench/data, train/benchmark_positions.py) are dropped, as are finished
games and the bear-offs the evaluator values exactly (nardy.engine.bearoff.exact_bearoffs):
no net ever sees those.

**Labels.** Each position's five cubeless probabilities by the current (shipped) evaluator,
or with ``--net PATH[,RACE]`` by a net of the last round (which then plays the games too),
at ``--label-ply`` (2 by default: the average over the opponent's 21 rolls of its best reply,
each valued by the average over our 21 replies: two rolls deeper than the net, with the exact
bear-off database at the leaves), or by a truncated rollout (``--rollout GAMES``, with
``--truncate`` plays and variance reduction, nardy.engine.rollout). A 2-ply label costs about
35 ms of one core; a shard of 500 positions is written to ``OUT/shard-SEED-N.npz`` as soon
as it is full (``mine``, ``theirs``: the sides as 26 counts; ``targets``; ``classes``), so a
run can be stopped at any time and what it wrote is usable.

**Relabel** (``relabel --data DIR --out DIR``): the positions of DIR's shards, each shard
labelled anew as ``--label-ply``, ``--rollout`` and ``--net`` say and written under its own
name (shards already there are kept, so a stopped run goes on): the same positions with
labels of another kind, to compare kinds of label, or the next round's labels by a new net.

**Fit** (``fit``). Adam on minibatches of the cross-entropy of each output against the
labels (numpy, :meth:`nardy.engine.net.Net.gradients`), from ``--init`` (the shipped net by
default, or a saved net, or ``random`` with ``--hidden``; a net of fewer inputs than today's
encoding is widened first, the new inputs at zero weight; ``--hidden`` above the init's adds
hidden units with zero output weights, the same function again; ``--inputs N`` fits on the
encoding's first N inputs only, to measure what the later ones add), on the positions of one class
(``--class``: contact, crashed, race, ``all``, or ``contact+crashed`` for every non-race
one). A tenth of the positions, chosen by position, is held out; the net with the lowest
held-out loss over the epochs is saved, with its figures in its metadata.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nardy.core import CHECKERS, OFF, Position, Variant, variant  # noqa: E402
from nardy.engine import bearoff  # noqa: E402
from nardy.engine.classes import CLASSES, RACE, position_class  # noqa: E402
from nardy.engine.evaluator import Evaluator, Pair, evaluator, family, for_net  # noqa: E402
from nardy.engine.features import F32, sides_array  # noqa: E402
from nardy.engine.net import Net  # noqa: E402
from nardy.engine.rollout import rollouts  # noqa: E402
from nardy.notation.position_id import position_id  # noqa: E402

SHARD = 500
"""Positions per shard file."""
MAX_TURNS = 5000
NOISE = 0.045
"""The intermediate level's noise (nardy.engine.neural): equity added to each play's value."""


# -- positions ----------------------------------------------------------------------------------


def benchmark_ids(variant_key: str) -> frozenset[str]:
    """Every Position ID in the variant's benchmark file (positions and the plays' results),
    which training never sees."""
    path = ROOT / "bench" / "data" / f"benchmark-{variant_key}.jsonl"
    if not path.exists():
        return frozenset()
    ids: set[str] = set()
    for line in path.read_text().splitlines():
        record = json.loads(line)
        ids.add(record["id"])
        ids.update(p["after"] for p in record.get("plays", ()))
    return frozenset(ids)


def after_id(v: Variant, pair: Pair) -> str:
    """The Position ID of a position reached by a play (the opponent on roll)."""
    mine, theirs = pair
    return position_id(Position(v, theirs, mine))


def trainable(v: Variant, pair: Pair) -> bool:
    """Whether a net ever values this position: the game goes on and it is no bear-off the
    evaluator values exactly."""
    if pair[0][OFF] == CHECKERS:
        return False
    ev = evaluator(v)
    return not (ev.bearoff and bool(bearoff.exact_bearoffs(*_arrays([pair]))[0]))


def _arrays(pairs: Sequence[Pair]) -> tuple[np.ndarray, np.ndarray]:
    return sides_array(m for m, _ in pairs), sides_array(t for _, t in pairs)


def game_positions(ev: Evaluator, v: Variant, rng: random.Random) -> list[Pair]:
    """The positions of one self-play game (see the module's docstring), in order."""
    kept: list[Pair] = []
    position = v.start()
    first = v.opening_dice_played
    for _ in range(MAX_TURNS):
        if position.outcome() is not None:
            return kept
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if first and d1 == d2:
            continue
        first = False
        ranked = ev.rank(position, d1, d2, 0)
        noisy = [c.value + rng.gauss(0.0, NOISE) for c in ranked]
        played = ranked[int(np.argmax(noisy))].after
        kept.append(played)
        if len(ranked) > 1:
            deeper = ev.rank(position, d1, d2, 1)[0].after
            if deeper != ranked[0].after:  # unsure: 0-ply and 1-ply choose differently
                kept.extend(p for p in (ranked[0].after, deeper) if p != played)
        position = Position(v, played[1], played[0])
    raise RuntimeError(f"no result after {MAX_TURNS} turns")


def label(
    ev: Evaluator, v: Variant, pairs: Sequence[Pair], ply: int, games: int, truncate: int
) -> F32:
    """The five probabilities of each position for its mover: ``ply``-ply values, or with
    ``games`` a truncated rollout of that many games (the seed: the position's index)."""
    if games:
        found = rollouts(
            [Position(v, m, t) for m, t in pairs],
            games=games,
            truncate=truncate,
            after_play=True,
            jobs=1,
            ev=ev,
        )
        return np.stack([r.outputs for r in found]).astype(np.float32)
    if ply <= 1:
        return ev.after(v, pairs, ply)
    # One position per call: a 2-ply search of many at once holds them all in memory.
    return np.concatenate([ev.after(v, [p], ply) for p in pairs]).astype(np.float32)


def labeller(v: Variant, nets: str | None) -> Evaluator:
    """The evaluator that plays the games and labels their positions: the shipped one, or
    ``--net PATH[,RACE]`` (a round of training labelling the next round's positions)."""
    if not nets:
        return evaluator(v)
    path, _, race = nets.partition(",")
    return for_net(Net.load(path), v, Net.load(race) if race else None)


def generate(args: argparse.Namespace) -> None:
    v = variant(args.variant)
    ev = labeller(v, args.net)
    exclude = benchmark_ids(v.key)
    rng = random.Random(f"supervised:{v.key}:{args.seed}")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    pending: list[Pair] = []
    seen: set[str] = set()
    shards = dropped = 0
    while time.perf_counter() - started < 60 * args.minutes:
        for pair in game_positions(ev, v, rng):
            pid = after_id(v, pair)
            if pid in exclude:
                dropped += 1
            elif pid not in seen and trainable(v, pair):
                seen.add(pid)
                pending.append(pair)
        while len(pending) >= args.shard:
            batch, pending = pending[: args.shard], pending[args.shard :]
            save_shard(args, v, ev, batch, shards)
            shards += 1
            print(
                json.dumps(
                    {
                        "shards": shards,
                        "positions": shards * args.shard,
                        "benchmark_dropped": dropped,
                        "seconds": round(time.perf_counter() - started),
                    }
                ),
                flush=True,
            )
            if time.perf_counter() - started >= 60 * args.minutes:
                return


def save_shard(
    args: argparse.Namespace, v: Variant, ev: Evaluator, batch: list[Pair], n: int
) -> None:
    """Label ``batch`` and write it as shard ``n``."""
    write_shard(args, v, ev, batch, args.out / f"shard-{args.seed}-{n:04d}.npz")


def write_shard(
    args: argparse.Namespace, v: Variant, ev: Evaluator, batch: list[Pair], path: Path
) -> None:
    """Label ``batch`` as ``args`` say (``--label-ply``, ``--rollout``, ``--net``) and write
    it to ``path``."""
    targets = label(ev, v, batch, args.label_ply, args.rollout, args.truncate)
    mine, theirs = _arrays(batch)
    classes = [position_class(Position(v, t, m)) for m, t in batch]
    labels = f"rollout:{args.rollout}:{args.truncate}" if args.rollout else f"ply:{args.label_ply}"
    if args.net:
        labels += f":{args.net}"
    np.savez_compressed(
        path,
        mine=mine,
        theirs=theirs,
        targets=targets,
        classes=np.array(classes),
        variant=np.array(v.key),
        labels=np.array(labels),
    )


def relabel(args: argparse.Namespace) -> None:
    """The positions of the shards in ``--data`` labelled anew (``--label-ply``,
    ``--rollout``, ``--net``), each shard written under its own name to ``--out``: the same
    positions with other labels, to compare kinds of label, or a new net's round."""
    v = variant(args.variant)
    ev = labeller(v, args.net)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    paths = sorted(args.data.glob("shard-*.npz"))
    for done, path in enumerate(paths, 1):
        if (args.out / path.name).exists():
            continue  # written by an earlier run: a stopped run picks up where it was
        with np.load(path, allow_pickle=False) as data:
            sides = zip(data["mine"], data["theirs"], strict=True)
            batch = [(bytes(m), bytes(t)) for m, t in sides]
        write_shard(args, v, ev, batch, args.out / path.name)
        seconds = round(time.perf_counter() - started)
        print(json.dumps({"shards": done, "of": len(paths), "seconds": seconds}), flush=True)


# -- fitting -----------------------------------------------------------------------------------


def load_shards(paths: Sequence[Path]) -> dict[str, np.ndarray]:
    """The shards' arrays, concatenated."""
    parts: dict[str, list[np.ndarray]] = {"mine": [], "theirs": [], "targets": [], "classes": []}
    for path in paths:
        with np.load(path, allow_pickle=False) as data:
            for key, items in parts.items():
                items.append(data[key])
    return {key: np.concatenate(items) for key, items in parts.items()}


def select(classes: np.ndarray, which: str) -> np.ndarray:
    """The rows of a class (``all``, one of CLASSES, or several joined by ``+``)."""
    if which == "all":
        return np.ones(len(classes), dtype=bool)
    wanted = which.split("+")
    unknown = set(wanted) - set(CLASSES)
    if unknown:
        raise SystemExit(f"unknown class {', '.join(sorted(unknown))}; known: {CLASSES}")
    return np.isin(classes, wanted)


def held_out(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """A tenth of the rows, chosen by the position itself (so that a position is on the same
    side of the split in every run and every shard)."""
    keys = np.concatenate([mine, theirs], axis=1).astype(np.uint64)
    h = (keys * (np.arange(52, dtype=np.uint64) * 2654435761 + 1)).sum(axis=1)
    chosen: np.ndarray = (h % 10) == 0
    return chosen


def cross_entropy(net: Net, x: F32, targets: F32) -> float:
    """The mean (over rows) of the summed cross-entropy of the five outputs."""
    y = np.clip(net.forward(x), 1e-6, 1 - 1e-6)
    return float(-np.mean(np.sum(targets * np.log(y) + (1 - targets) * np.log(1 - y), axis=1)))


def fit(
    net: Net,
    x: F32,
    targets: F32,
    holdout: np.ndarray,
    *,
    epochs: int,
    batch: int,
    rate: float,
    seed: int,
    log: Any = None,
) -> tuple[Net, list[dict[str, float]]]:
    """Adam on ``net`` (changed in place) against the rows not held out; returns a copy of
    the net of the lowest held-out loss and the loss after every epoch."""
    train, test = np.flatnonzero(~holdout), np.flatnonzero(holdout)
    rng = np.random.default_rng(seed)
    m = [np.zeros_like(p) for p in net.parameters]
    s = [np.zeros_like(p) for p in net.parameters]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    curve = [{"epoch": 0, "test": cross_entropy(net, x[test], targets[test])}]
    best = (curve[0]["test"], _copy(net))
    for epoch in range(1, epochs + 1):
        order = rng.permutation(train)
        for lo in range(0, len(order), batch):
            rows = order[lo : lo + batch]
            grads, _ = net.gradients(x[rows], targets[rows])
            step += 1
            for p, total, mi, si in zip(net.parameters, grads, m, s, strict=True):
                g = total / len(rows)  # the mean gradient of the batch
                mi *= beta1
                mi += (1 - beta1) * g
                si *= beta2
                si += (1 - beta2) * g * g
                mhat = mi / (1 - beta1**step)
                shat = si / (1 - beta2**step)
                p -= (rate * mhat / (np.sqrt(shat) + eps)).astype(np.float32)
        point = {
            "epoch": epoch,
            "train": cross_entropy(net, x[train], targets[train]),
            "test": cross_entropy(net, x[test], targets[test]),
        }
        curve.append(point)
        if log is not None:
            log(point)
        if point["test"] < best[0]:
            best = (point["test"], _copy(net))
    return best[1], curve


def _copy(net: Net) -> Net:
    w1, b1, w2, b2 = (p.copy() for p in net.parameters)
    return Net(w1, b1, w2, b2, dict(net.meta))


def fit_command(args: argparse.Namespace) -> None:
    paths = sorted(args.data.glob("shard-*.npz"))
    if not paths:
        raise SystemExit(f"no shard-*.npz in {args.data}")
    data = load_shards(paths)
    with np.load(paths[0], allow_pickle=False) as first:
        v = variant(str(first["variant"]))
        labels = str(first["labels"])
    # The benchmark again: positions it gained after the shards were written stay out too.
    exclude = benchmark_ids(v.key)
    rows = select(data["classes"], args.cls) & ~np.array(
        [
            after_id(v, (bytes(m), bytes(t))) in exclude
            for m, t in zip(data["mine"], data["theirs"], strict=True)
        ],
        dtype=bool,
    )
    if not rows.any():
        raise SystemExit(f"no {args.cls} positions in {args.data}")
    _, encode, _ = family(v)
    mine, theirs, targets = data["mine"][rows], data["theirs"][rows], data["targets"][rows]
    x = encode(mine, theirs)
    if args.inputs:  # only the encoding's first inputs (to measure what the later ones add)
        x = np.ascontiguousarray(x[:, : args.inputs])
    if args.init == "shipped":
        shipped = evaluator(v)
        start = shipped.race_net if args.cls == RACE and shipped.race_net else shipped.net
        net = _copy(start)
    elif args.init == "random":
        net = Net.random(x.shape[1], args.hidden or 96, args.seed)
    else:
        net = Net.load(args.init)
    if net.inputs < x.shape[1]:
        # A net from before inputs were appended (the shipped 212-input one): the new inputs
        # start with zero weights, the same function, and the fit learns their weights.
        net = net.widened(x.shape[1])
    if args.hidden > net.hidden:  # a bigger net starting as the init's function
        net = net.with_hidden(args.hidden, args.seed)
    started = time.perf_counter()
    best, curve = fit(
        net,
        x,
        targets.astype(np.float32),
        held_out(mine, theirs),
        epochs=args.epochs,
        batch=args.batch,
        rate=args.rate,
        seed=args.seed,
        log=lambda point: print(json.dumps(point), flush=True),
    )
    best.meta.update(
        {
            "trainer": "train/supervised.py",
            "variant": v.key,
            "class": args.cls,
            "labels": labels,
            "positions": int(rows.sum()),
            "init": args.init,
            "fit_seconds": round(time.perf_counter() - started, 1),
            "curve": json.dumps(curve),
        }
    )
    best.save(args.out)
    print(
        json.dumps(
            {
                "saved": str(args.out),
                "positions": int(rows.sum()),
                "best": min(c["test"] for c in curve),
            }
        )
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="labelled positions from self-play")
    gen.add_argument("--variant", choices=("backgammon", "long"), default="backgammon")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument("--minutes", type=float, default=30.0)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--label-ply", type=int, default=2)
    gen.add_argument("--rollout", type=int, default=0, help="label by rollouts of N games")
    gen.add_argument("--truncate", type=int, default=10, help="a rollout's plays")
    gen.add_argument("--shard", type=int, default=SHARD, help="positions per shard file")
    gen.add_argument("--net", help="PATH[,RACE]: play and label with this net, not the shipped")
    re = sub.add_parser("relabel", help="the positions of shards with labels of another kind")
    re.add_argument("--variant", choices=("backgammon", "long"), default="backgammon")
    re.add_argument("--data", type=Path, required=True)
    re.add_argument("--out", type=Path, required=True)
    re.add_argument("--label-ply", type=int, default=2)
    re.add_argument("--rollout", type=int, default=0, help="label by rollouts of N games")
    re.add_argument("--truncate", type=int, default=10, help="a rollout's plays")
    re.add_argument("--net", help="PATH[,RACE]: label with this net, not the shipped one")
    f = sub.add_parser("fit", help="train a net on labelled positions")
    f.add_argument("--data", type=Path, required=True)
    f.add_argument("--class", dest="cls", default="all")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--init", default="shipped", help="shipped, random or NET.npz")
    f.add_argument(
        "--hidden",
        type=int,
        default=0,
        help="hidden units: of a random net (default 96), or "
        "more than the init's, added with zero output weights",
    )
    f.add_argument("--inputs", type=int, default=0, help="use only the first N inputs")
    f.add_argument("--epochs", type=int, default=20)
    f.add_argument("--batch", type=int, default=64)
    f.add_argument("--rate", type=float, default=3e-4)
    f.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(args)
    elif args.command == "relabel":
        relabel(args)
    else:
        fit_command(args)


if __name__ == "__main__":
    main()
