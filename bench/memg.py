"""Each net's error on the benchmark positions, in mEMG: the fast measure between duels.

    python bench/memg.py                                   # the shipped nets, both variants
    python bench/memg.py --variant backgammon shipped /tmp/sup/net.npz --ply 0

Reads ``bench/data/benchmark-VARIANT.jsonl`` (made by train/benchmark_positions.py: positions
with the project's own rolled-out equities, never trained on) and prints, for each net and
position class, two errors in **mEMG** — thousandths of a point of cubeless money equity
(EMG, "equivalent to money game", is the equity a match figure is normalised to; in money
play it is the equity itself):

* **eval** — the mean absolute difference between the net's equity of a position before the
  roll and its rolled-out equity: how well the net judges positions. At 0-ply the net values
  the position as the opponent's play left it (from the opponent's side, flipped); at
  ``--ply`` n ≥ 1 it averages its best plays of the 21 rolls, n - 1 plies deep.
* **move** — the mean equity lost by the net's choice of play: the rolled-out equity of the
  best candidate minus that of the play the net chose (at ``--ply``), 0 when it chose the
  best. This is GNU Backgammon's benchmark measure of checker play (its "error rate" on a
  rolled-out move set). A chosen play outside the rolled-out candidates counts as the worst
  candidate (so the figure is then a lower bound; ``unlisted`` says how often).

``floor`` is the mean standard error of the rollouts in the same unit: differences between
nets much smaller than it are the rollouts' noise, not the nets'. The last column is the
seconds the net took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nardy.core import Position, variant  # noqa: E402
from nardy.engine.errors import EngineError  # noqa: E402
from nardy.engine.evaluator import Evaluator, evaluator, for_net  # noqa: E402
from nardy.engine.net import Net, equity, flip  # noqa: E402
from nardy.notation.position_id import position_from_id, position_id  # noqa: E402

DATA = ROOT / "bench" / "data"
MILLI = 1000.0


def benchmark_path(variant_key: str) -> Path:
    """The benchmark file of a variant."""
    return DATA / f"benchmark-{variant_key}.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    """The records of a benchmark file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def net_equities(ev: Evaluator, positions: Sequence[Position], ply: int) -> list[float]:
    """The net's cubeless equity of each position for the side on roll, at ``ply``."""
    if not positions:
        return []
    v = positions[0].variant
    if ply == 0:
        outs = flip(ev.after(v, [(p.theirs, p.mine) for p in positions], 0))
        return [float(x) for x in equity(outs)]
    return [float(equity(ev.on_roll(p, ply)[None, :])[0]) for p in positions]


def move_loss(ev: Evaluator, record: dict[str, Any], ply: int) -> tuple[float, bool]:
    """The equity the net's play loses in a move record, and whether that play was among
    the rolled-out candidates."""
    v = variant(record["variant"])
    position = position_from_id(record["id"], v)
    d1, d2 = record["dice"]
    mine, theirs = ev.rank(position, d1, d2, ply)[0].after
    chosen = position_id(Position(v, theirs, mine))
    equities = {p["after"]: p["equity"] for p in record["plays"]}
    best = max(equities.values())
    if chosen in equities:
        return best - equities[chosen], True
    return best - min(equities.values()), False


@dataclass(frozen=True, slots=True)
class Score:
    """A net's errors on one class of a benchmark, in mEMG (NaN where it has no record)."""

    cls: str
    evals: int
    eval_error: float
    moves: int
    move_error: float
    unlisted: int
    floor: float


def score(ev: Evaluator, records: Sequence[dict[str, Any]], ply: int = 0) -> list[Score]:
    """The net's errors on ``records`` class by class, then over all of them (``"all"``)."""
    by_class: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_class.setdefault(r["class"], []).append(r)
    groups = [*sorted(by_class.items()), ("all", list(records))]
    scores = []
    for cls, group in groups:
        evals = [r for r in group if r["kind"] == "eval"]
        moves = [r for r in group if r["kind"] == "move"]
        positions = [position_from_id(r["id"], variant(r["variant"])) for r in evals]
        errors = [
            abs(e - r["equity"])
            for e, r in zip(net_equities(ev, positions, ply), evals, strict=True)
        ]
        losses = [move_loss(ev, r, ply) for r in moves]
        ses = [r["se"] for r in evals] + [p["se"] for r in moves for p in r["plays"]]
        scores.append(
            Score(
                cls,
                len(evals),
                _mean(errors) * MILLI,
                len(moves),
                _mean([loss for loss, _ in losses]) * MILLI,
                sum(not listed for _, listed in losses),
                _mean(ses) * MILLI,
            )
        )
    return scores


def _mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else float("nan")


def net_evaluator(spec: str, variant_key: str, race: Path | None = None) -> Evaluator:
    """``shipped`` (the variant's shipped nets) or the path of a saved net, with the race
    net saved at ``race`` if given (else the net plays races too)."""
    if spec == "shipped":
        return evaluator(variant_key)
    return for_net(Net.load(spec), variant_key, Net.load(race) if race else None)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nets", nargs="*", default=["shipped"], help="shipped or NET.npz")
    parser.add_argument("--variant", choices=("backgammon", "long"), action="append")
    parser.add_argument("--ply", type=int, default=0)
    parser.add_argument("--data", type=Path, help="a benchmark file (default: the variant's)")
    parser.add_argument("--race", type=Path, help="the race net to go with each saved net")
    args = parser.parse_args(argv)
    header = (
        f"{'variant':<11} {'net':<28} {'class':<8} {'evals':>5} {'eval':>7} {'moves':>5} "
        f"{'move':>7} {'unlisted':>8} {'floor':>6} {'seconds':>7}"
    )
    print(f"mEMG at {args.ply}-ply\n{header}")
    for key in args.variant or ["backgammon", "long"]:
        records = load(args.data or benchmark_path(key))
        for spec in args.nets:
            try:
                ev = net_evaluator(spec, key, args.race)
            except EngineError as exc:
                if args.variant:  # asked for by name: say why it cannot be
                    raise SystemExit(f"{spec} in {key}: {exc}") from None
                # Both variants by default: a saved net is measured in its own.
                print(f"{key:<11} {spec[-28:]:<28} not this variant's net", file=sys.stderr)
                continue
            started = time.process_time()
            scores = score(ev, records, args.ply)
            seconds = time.process_time() - started
            for s in scores:
                print(
                    f"{key:<11} {spec[-28:]:<28} {s.cls:<8} {s.evals:>5} {s.eval_error:>7.1f} "
                    f"{s.moves:>5} {s.move_error:>7.1f} {s.unlisted:>8} {s.floor:>6.1f} "
                    + (f"{seconds:>7.2f}" if s.cls == "all" else "")
                )


if __name__ == "__main__":
    main()
