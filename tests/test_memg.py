"""The benchmark positions (train/benchmark_positions.py, bench/data) and their measure
(bench/memg.py): what a record holds, and that the errors are what mEMG means."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "train"))

import benchmark_positions
import memg

from nardy import BACKGAMMON, LONG_NARDY, Position
from nardy.engine.classes import CONTACT, CRASHED, RACE, position_class
from nardy.engine.evaluator import evaluator
from nardy.notation.position_id import position_from_id, position_id


def test_classes_split_contact_crashed_and_race() -> None:
    start = BACKGAMMON.start()
    assert position_class(start) == CONTACT
    race = Position.from_points(BACKGAMMON, {6: 8, 5: 7}, {6: 8, 5: 7})
    assert position_class(race) == RACE
    # Still contact (a checker back on my 24-point), but I have only 5 checkers in play:
    # 10 off, and a heap of 5 on the 1-point counts once.
    crashed = Position.from_points(BACKGAMMON, {0: 6, 1: 5, 2: 1, 3: 2, 24: 1}, {6: 5, 8: 10})
    assert position_class(crashed) == CRASHED
    assert position_class(LONG_NARDY.start()) == CONTACT


def test_sampling_is_deterministic_and_gives_each_class_its_quota() -> None:
    a = benchmark_positions.sample_positions(BACKGAMMON, 1, 1, seed=5)
    b = benchmark_positions.sample_positions(BACKGAMMON, 1, 1, seed=5)
    assert [(k, c, position_id(p), d) for k, c, p, d in a] == [
        (k, c, position_id(p), d) for k, c, p, d in b
    ]
    assert sorted((k, c) for k, c, _, _ in a) == sorted(
        (k, c) for k in ("eval", "move") for c in (CONTACT, CRASHED, RACE)
    )
    assert all(position_class(p) == c for _, c, p, _ in a)


def test_a_record_carries_its_rollout_and_memg_measures_against_it() -> None:
    """One eval and one move record from the real generator (4 games, 2 plays: fast). The
    net's eval error is its distance to the rolled-out equity; its move loss is 0 when it
    chooses the candidate rolled out best, and the best minus its play's equity otherwise."""
    samples = benchmark_positions.sample_positions(BACKGAMMON, 1, 1, seed=5)
    kinds = {k: s for s in samples if s[1] == CONTACT for k in [s[0]]}
    records = [benchmark_positions.measure(kinds[k], 4, 2, seed=3) for k in ("eval", "move")]
    ev_record, move_record = records
    assert ev_record["rollout"] == {"games": 4, "truncate": 2, "reduce": True, "ply": 0, "seed": 3}
    assert ev_record["se"] > 0
    equities = [p["equity"] for p in move_record["plays"]]
    assert equities == sorted(equities, reverse=True) and len(equities) >= 2

    ev = evaluator("backgammon")
    position = position_from_id(ev_record["id"])
    (net,) = memg.net_equities(ev, [position], 0)
    scores = {s.cls: s for s in memg.score(ev, records)}
    assert scores[CONTACT].eval_error == pytest.approx(abs(net - ev_record["equity"]) * 1000)

    assert memg.move_loss(ev, move_record, 0)[1]  # the net's choice is a candidate
    # Make the net's choice the worst candidate: the loss is the spread of the candidates.
    mine, theirs = ev.rank(position_from_id(move_record["id"]), *move_record["dice"])[0].after
    chosen = position_id(Position(BACKGAMMON, theirs, mine))
    rigged = {**move_record, "plays": [dict(p) for p in move_record["plays"]]}
    for p in rigged["plays"]:
        p["equity"] = -1.0 if p["after"] == chosen else 1.0
    assert memg.move_loss(ev, rigged, 0) == (2.0, True)
    # Its play left out of the candidates: it counts as the worst one that is listed.
    rigged["plays"] = [p for p in rigged["plays"] if p["after"] != chosen]
    rigged["plays"][-1]["equity"] = 0.25
    assert memg.move_loss(ev, rigged, 0) == (0.75, False)
