"""Make the benchmark positions: positions with the project's own rolled-out equities.

    nice -n 19 python3 train/benchmark_positions.py --variant backgammon
    nice -n 19 python3 train/benchmark_positions.py --variant long

writes ``bench/data/benchmark-VARIANT.jsonl``, which ``bench/memg.py`` measures nets on. The
positions come from games the shipped net plays against itself at the ``intermediate`` level
(0-ply with noise, so that the games wander off the net's favourite lines), with dice and
noise from ``--seed`` (the benchmark's own seed: the supervised pipeline, train/supervised.py,
drops every position in these files from its training data). From each game at most one
position per class and kind is kept, at a random turn (``--keep``), until every class
(:mod:`nardy.engine.classes`: contact, crashed, race; long nardy contact and race) has its
quota. Two kinds of record, one JSON object a line:

* ``"kind": "eval"`` — a position before the roll: ``id`` its Position ID (the side on roll
  first, as GNU Backgammon writes it), ``class``, and ``equity`` the cubeless money equity
  of the side on roll by a rollout, with its standard error ``se`` and the mean
  ``outputs`` (win, win gammon, win backgammon, lose gammon, lose backgammon);
* ``"kind": "move"`` — a position and a roll (``dice``) with at least two different plays:
  ``plays``, the candidates each with its move notation ``play``, the Position ID ``after``
  of the position it reaches (the opponent on roll) and the rolled-out cubeless equity
  ``equity`` (with ``se``) for the side that played. The candidates are the shipped net's
  best five at 1-ply and its 0-ply choice; all are rolled out with the same dice, so their
  differences are more precise than each equity.

Every record carries its ``rollout`` settings: ``games`` (72 by default: the first roll
stratified, each of the 36 twice), ``truncate`` (plays; the shipped net's 0-ply evaluation of
the position reached stands in for the rest of the game), ``reduce`` (variance reduction: the
luck of every roll, as valued by the 0-ply net, is subtracted, nardy.engine.rollout), the
``ply`` of the plays inside (0) and the ``seed``. Truncated rollouts are what 2 shared cores
allow: they measure a net against a search ten plays deeper than itself with the same net at
the horizon, not against perfect play; the standard errors say how far the dice still move
them. The file is written as records finish; run again, it keeps the records already there
(the sampling is deterministic) and adds the rest. ``--first`` and ``--last`` make a range of
the records only (into another ``--out``), so that two processes can share the work; the
parts, concatenated in order, are the file one process makes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nardy.core import Position, Variant, variant  # noqa: E402
from nardy.engine.classes import classes, position_class  # noqa: E402
from nardy.engine.evaluator import evaluator  # noqa: E402
from nardy.engine.net import flip  # noqa: E402
from nardy.engine.neural import NeuralBot  # noqa: E402
from nardy.engine.rollout import rollout, rollouts  # noqa: E402
from nardy.notation.position_id import position_id  # noqa: E402

DATA = ROOT / "bench" / "data"
CANDIDATES = 5
"""Plays rolled out per move record: the net's best at 1-ply (and its 0-ply choice)."""
MAX_TURNS = 5000
SURE, UNSURE = 0.99, 0.01
"""A chance above SURE or below UNSURE counts as certain when positions are picked."""
CHOICE = 0.01
"""The least spread of the 0-ply equities of a roll's plays for a move record."""

Sample = tuple[str, str, Position, tuple[int, int] | None]
"""(kind, class, position on roll, dice of a move record)."""


def benchmark_path(variant_key: str) -> Path:
    """Where the benchmark of a variant is kept."""
    return DATA / f"benchmark-{variant_key}.jsonl"


def sample_positions(
    v: Variant, evals: int, moves: int, seed: int, keep: float = 0.1
) -> list[Sample]:
    """``evals`` positions and ``moves`` positions with a roll of each class, from games the
    shipped net plays at the intermediate level; the same for the same arguments."""
    rng = random.Random(f"benchmark:{v.key}:{seed}")
    want = {(kind, c): n for c in classes(v) for kind, n in (("eval", evals), ("move", moves))}
    found: dict[tuple[str, str], list[Sample]] = {k: [] for k in want}
    seen: set[str] = set()
    game = 0
    while any(len(found[k]) < n for k, n in want.items()):
        bot = NeuralBot("intermediate", seed=f"benchmark:{seed}:{game}")
        game += 1
        taken: set[tuple[str, str]] = set()
        position = v.start()
        first = v.opening_dice_played
        for _ in range(MAX_TURNS):
            if position.outcome() is not None:
                break
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if first and d1 == d2:
                continue
            first = False
            c = position_class(position)
            pid = position_id(position)
            if pid not in seen and rng.random() < keep:
                kind = "eval" if rng.random() < 0.5 else "move"
                key = (kind, c)
                if key not in taken and len(found[key]) < want[key]:
                    wanted = (
                        not decided(position) if kind == "eval" else has_choice(position, d1, d2)
                    )
                    if wanted:
                        dice = (d1, d2) if kind == "move" else None
                        found[key].append((kind, c, position, dice))
                        taken.add(key)
                        seen.add(pid)
            mine, theirs = bot.choose(position, d1, d2)
            position = Position(v, theirs, mine)
    return [s for k in want for s in found[k]]


def decided(position: Position) -> bool:
    """Whether the game is as good as over (nothing to measure): by the shipped net at 0-ply
    the side on roll or the other wins with more than 99%, and whether it is a gammon is
    just as certain (below 1% or above 99%)."""
    v = position.variant
    o = flip(evaluator(v).after(v, [(position.theirs, position.mine)], 0))[0]
    win, gammon = (o[0], o[1] / max(o[0], 1e-9)), (1 - o[0], o[3] / max(1 - o[0], 1e-9))
    return any(p > SURE and not UNSURE < g < SURE for p, g in (win, gammon))


def has_choice(position: Position, d1: int, d2: int) -> bool:
    """Whether the roll's plays differ by at least :data:`CHOICE` at 0-ply (a roll with one
    play, or plays all alike, measures no net)."""
    ranked = evaluator(position.variant).rank(position, d1, d2, 0)
    return len(ranked) > 1 and ranked[0].equity - ranked[-1].equity >= CHOICE


def settings(games: int, truncate: int, seed: int) -> dict[str, Any]:
    """The rollout settings a record carries."""
    return {"games": games, "truncate": truncate, "reduce": True, "ply": 0, "seed": seed}


def measure(sample: Sample, games: int, truncate: int, seed: int) -> dict[str, Any]:
    """The record of one sample, rolled out."""
    kind, c, position, dice = sample
    v = position.variant
    record: dict[str, Any] = {
        "kind": kind,
        "variant": v.key,
        "class": c,
        "id": position_id(position),
    }
    if dice is None:
        r = rollout(position, games=games, truncate=truncate, seed=seed, jobs=1)
        record |= {
            "equity": round(r.equity, 5),
            "se": round(r.equity_error, 5),
            "outputs": [round(float(x), 5) for x in r.outputs],
        }
    else:
        d1, d2 = dice
        ev = evaluator(v)
        ranked = ev.rank(position, d1, d2, 1)
        zero = ev.rank(position, d1, d2, 0)[0].after
        chosen = [c.after for c in ranked[:CANDIDATES]]
        if zero not in chosen:
            chosen.append(zero)
        texts = {(p.position.mine, p.position.theirs): str(p) for p in position.legal_plays(d1, d2)}
        results = rollouts(
            [Position(v, m, t) for m, t in chosen],
            games=games,
            truncate=truncate,
            seed=seed,
            after_play=True,
            jobs=1,
        )
        record["dice"] = [d1, d2]
        record["plays"] = [
            {
                "play": texts[after],
                "after": position_id(Position(v, after[1], after[0])),
                "equity": round(r.equity, 5),
                "se": round(r.equity_error, 5),
            }
            for after, r in sorted(
                zip(chosen, results, strict=True), key=lambda pair: -pair[1].equity
            )
        ]
    record["rollout"] = settings(games, truncate, seed)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("backgammon", "long"), default="backgammon")
    parser.add_argument("--evals", type=int, help="eval positions per class")
    parser.add_argument("--moves", type=int, help="move positions per class")
    parser.add_argument("--games", type=int, default=72, help="games per rollout")
    parser.add_argument("--truncate", type=int, default=10, help="plays per game (0: to the end)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--out", type=Path, help="default: bench/data/benchmark-VARIANT.jsonl")
    parser.add_argument("--first", type=int, default=0, help="the first record this run makes")
    parser.add_argument("--last", type=int, help="the record after the last this run makes")
    args = parser.parse_args()
    v = variant(args.variant)
    evals = args.evals or (80 if v.key == "backgammon" else 60)
    moves = args.moves or (20 if v.key == "backgammon" else 15)
    out: Path = args.out or benchmark_path(v.key)
    out.parent.mkdir(parents=True, exist_ok=True)
    samples = sample_positions(v, evals, moves, args.seed)
    done = len(out.read_text().splitlines()) if out.exists() else 0
    first, last = args.first + done, min(args.last or len(samples), len(samples))
    print(f"{len(samples)} positions, {done} already in {out}", flush=True)
    started = time.perf_counter()
    with out.open("a") as f:
        for i in range(first, last):
            record = measure(samples[i], args.games, args.truncate, args.seed + i)
            f.write(json.dumps(record) + "\n")
            f.flush()
            if i % 10 == 0:
                print(f"{i + 1}/{len(samples)} {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
