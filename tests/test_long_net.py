"""The long nardy net: its encoding (nardy.engine.features_long), the trainer's long nardy
self-play (train/td.py --variant long) and the shipped weights (weights/long.npz)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from nardy.core import CHECKERS, LONG_NARDY, OFF, Position
from nardy.core.position import Side
from nardy.engine.evaluator import evaluator
from nardy.engine.features import F32, sides_array
from nardy.engine.features_long import (
    EXPERT,
    INPUTS,
    POINTS_UNARY,
    RAW_PER_SIDE,
    encode,
    encode_sides,
    other_numbering,
)
from nardy.engine.net import Net

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "train"))
sys.path.insert(0, str(ROOT / "bench"))

import strength  # noqa: E402
import td  # noqa: E402

V = LONG_NARDY


def expert(mine: dict[int, int], theirs: dict[int, int]) -> F32:
    """The expert inputs of a checked position (each side ``{point: checkers}``)."""
    pos = Position.from_points(LONG_NARDY, mine, theirs)
    inputs: F32 = encode_sides([(pos.mine, pos.theirs)])[0, 2 * RAW_PER_SIDE :]
    return inputs


def game_positions(count: int, seed: int) -> list[tuple[Side, Side]]:
    """Positions after random plays of random long nardy games, from the mover's side."""
    rng = random.Random(seed)
    out: list[tuple[Side, Side]] = []
    while len(out) < count:
        mine, theirs = V.start().mine, V.start().theirs
        while len(out) < count:
            after = sorted(V.play_paths(mine, theirs, rng.randint(1, 6), rng.randint(1, 6)))
            played = rng.choice(after)
            out.append(played)
            if played[0][OFF] == CHECKERS:
                break
            theirs, mine = played
    return out


# -- the encoding ------------------------------------------------------------------------------


def test_start_position() -> None:
    start = V.start()
    x = encode_sides([(start.mine, start.theirs)])
    assert x.shape == (1, INPUTS) == (1, 2 * (24 * 4 + 1) + EXPERT)
    assert x.dtype == np.float32
    v = x[0]
    for side in (0, 1):
        units = v[side * RAW_PER_SIDE : side * RAW_PER_SIDE + POINTS_UNARY].reshape(24, 4)
        assert units[23].tolist() == [1, 1, 1, 6]  # the head: (15 - 3) / 2
        assert not units[:23].any()
        assert v[side * RAW_PER_SIDE + POINTS_UNARY] == 0  # none off
    e = v[2 * RAW_PER_SIDE :]
    assert e[:4].tolist() == pytest.approx([1.8, 1.8, 0, 0])  # 360 pips each, contact
    assert e[4:6].tolist() == [1, 1]  # full heads
    assert e[6:14].tolist() == [0, 0, 0, 1] * 2  # everything in the starting quarter
    # Each head stands in the other's way (my 24 is their 12), far from their last checker.
    assert e[14:18].tolist() == pytest.approx([1 / 6, 1 / 6, 0, 0])
    assert e[18:22].tolist() == pytest.approx([1 / 12, 1 / 12, 1, 1])
    assert e[22:26].tolist() == pytest.approx([2.7, 2.7, -1.8, -1.8])  # 270 pips to home


def test_a_block_and_the_front_of_the_opponents_last_checker() -> None:
    # RULES.md 3.5: my 20-16 is a run of five in front of the opponent's head (their 8-4).
    e = expert({24: 10, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}, {24: 15})
    assert e[14] == pytest.approx(5 / 6)  # my longest block
    assert e[15] == pytest.approx(1 / 6)  # their head on my 12
    assert e[16] == 0 and e[17] == 0  # their 23-18 (my 11-6) are open, and my 23-18
    # Once their last checker has passed my points, those no longer block it; their two
    # points on my 15 and 14 stand in front of my head.
    e = expert({24: 10, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}, {3: 14, 2: 1})
    assert e[14] == 0 and e[16] == 0
    assert e[15] == pytest.approx(2 / 6)


def test_front_counts_the_six_points_ahead() -> None:
    # Their last checker on their 24 (my 12): their 23-18 are my 11-6.
    e = expert({24: 9, 11: 1, 10: 1, 8: 1, 6: 1, 5: 1, 4: 1}, {24: 15})
    assert e[16] == pytest.approx(4 / 6)  # my 11, 10, 8, 6
    assert e[14] == pytest.approx(3 / 6)  # my 6-5-4 (their 18-16)


def test_race_mars_and_off() -> None:
    # A race: all my checkers home, all theirs in their home board (my 13-18).
    e = expert({0: 5, 1: 5, 2: 5}, {3: 15})
    assert e[3] == 1
    assert e[20:22].tolist() == [0, 1]  # they have borne off none: a mars threat
    assert e[22:24].tolist() == [0, 0]  # every checker home
    assert e[24] == pytest.approx((0 - 15) / 50) and e[25] == 0
    # In contact, far from home: their 10 checkers on their 20 (my 8) are 140 pips from home.
    e = expert({24: 5, 10: 10}, {20: 10, 19: 5})
    assert e[3] == 0
    assert e[22:24].tolist() == pytest.approx([(5 * 18 + 10 * 4) / 100, (10 * 14 + 5 * 13) / 100])
    my_pips, their_to_home = 5 * 24 + 10 * 10, 10 * 14 + 5 * 13
    assert e[24] == pytest.approx((their_to_home - my_pips) / 50)


def test_race_flag_is_the_rules_race() -> None:
    pairs = game_positions(400, seed=3)
    x = encode_sides(pairs)
    flags = x[:, 2 * RAW_PER_SIDE + 3]
    expected = [V.is_race(Position(V, m, t)) for m, t in pairs]
    assert flags.tolist() == [float(r) for r in expected]
    assert 0 < sum(expected) < len(expected)


def test_swapping_the_sides_swaps_the_inputs() -> None:
    pairs = game_positions(200, seed=5)
    x = encode_sides(pairs)
    y = encode_sides([(t, m) for m, t in pairs])
    assert np.array_equal(x[:, :RAW_PER_SIDE], y[:, RAW_PER_SIDE : 2 * RAW_PER_SIDE])
    ex, ey = x[:, 2 * RAW_PER_SIDE :], y[:, 2 * RAW_PER_SIDE :]
    assert np.allclose(ex[:, 2], -ey[:, 2]) and np.array_equal(ex[:, 3], ey[:, 3])
    pairs_of_columns = [(0, 1), (4, 5), (14, 15), (16, 17), (18, 19), (20, 21), (22, 23)]
    pairs_of_columns += [(24, 25)] + [(6 + q, 10 + q) for q in range(4)]
    for a, b in pairs_of_columns:
        assert np.allclose(ex[:, a], ey[:, b]) and np.allclose(ex[:, b], ey[:, a])


def test_batch_equals_row_by_row_and_numbering_is_a_half_turn() -> None:
    pairs = game_positions(60, seed=7)
    batch = encode_sides(pairs)
    rows = np.concatenate([encode_sides([p]) for p in pairs])
    assert np.array_equal(batch, rows)
    mine = sides_array(m for m, _ in pairs)
    assert np.array_equal(batch, encode(mine, sides_array(t for _, t in pairs)))
    for _, t in pairs[:10]:
        op = other_numbering(sides_array([t]))[0]
        assert bytes(op) == V.to_mine(t)[1:25]


# -- the trainer -------------------------------------------------------------------------------


def test_long_self_play_is_legal_and_scored_exactly() -> None:
    family = td.FAMILIES["long"]
    net = Net.random(INPUTS, 8, seed=2)
    for seed in range(3):
        trace: list[td.Turn] = []
        xs, ys, z, turns = td.self_play_game(net, random.Random(seed), family, trace)
        assert len(trace) == turns == len(xs) + 1 == len(ys) + 1
        assert trace[0][:2] == (V.start().mine, V.start().theirs)
        for turn, (mine, theirs, d1, d2, m1, t1) in enumerate(trace):
            assert (m1, t1) in V.play_paths(mine, theirs, d1, d2)
            if turn + 1 < len(trace):  # the opponent moves next, from its own side
                assert trace[turn + 1][:2] == (t1, m1)
        last = trace[-1]
        assert last[4][OFF] == CHECKERS and last[5][OFF] < CHECKERS
        mars = last[5][OFF] == 0
        assert z.tolist() == [1, float(mars), 0, 0, 0]
        assert np.array_equal(xs[-1], encode_sides([(trace[-2][4], trace[-2][5])])[0])
    mars_win = family.terminal_outputs(bytes([15] + [0] * 25), V.start().mine)
    oin_win = family.terminal_outputs(bytes([15] + [0] * 25), bytes([1, 14] + [0] * 24))
    assert mars_win.tolist() == [1, 1, 0, 0, 0] and oin_win.tolist() == [1, 0, 0, 0, 0]


def test_the_first_roll_of_long_nardy_may_be_a_double() -> None:
    # Backgammon skips opening doubles; long nardy's starting lot is not played, so the first
    # roll drawn is the first move, whatever it is.
    seed = next(s for s in range(100) if (r := random.Random(s)).randint(1, 6) == r.randint(1, 6))
    trace: list[td.Turn] = []
    net = Net.random(INPUTS, 4, seed=1)
    td.self_play_game(net, random.Random(seed), td.FAMILIES["long"], trace)
    first = random.Random(seed)
    assert trace[0][2:4] == (first.randint(1, 6), first.randint(1, 6))
    assert trace[0][2] == trace[0][3]


# -- the shipped weights -----------------------------------------------------------------------


def test_shipped_weights_load_and_beat_random() -> None:
    net = evaluator("long").net
    assert net.inputs == INPUTS
    assert int(net.meta["games"]) > 10_000 and float(net.meta["seconds"]) > 0
    assert net.meta["variant"] == "long"
    result = strength.duel("long", "net", "random", pairs=3, seed=1, jobs=1, check=True)
    assert result.win_rate == 1.0 and result.ppg >= 1.5
