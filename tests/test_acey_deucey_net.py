"""The acey-deucey net: the trainer's acey-deucey self-play (train/td.py --variant
acey-deucey), its family in the evaluator, and the shipped weights (weights/acey-deucey.npz)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from nardy.core import ACEY_DEUCEY, CHECKERS, OFF
from nardy.engine import features
from nardy.engine.evaluator import ACEY_DEUCEY_FAMILY, evaluator, family, race_input
from nardy.engine.features import INPUTS, RACE_INPUT, encode_sides
from nardy.engine.net import Net

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "train"))
sys.path.insert(0, str(ROOT / "bench"))

import strength  # noqa: E402
import td  # noqa: E402

V = ACEY_DEUCEY


def test_the_family_is_backgammons_encoding_with_a_net_of_its_own() -> None:
    variants, encode, weights = family("acey-deucey")
    assert variants == ACEY_DEUCEY_FAMILY and weights == "acey-deucey.npz"
    assert encode is features.encode  # waiting checkers count as on the bar (test_neural)
    assert race_input("acey-deucey") == RACE_INPUT
    assert td.FAMILIES["acey-deucey"].inputs == INPUTS


def test_self_play_follows_the_1_2_with_a_named_double_and_another_roll() -> None:
    """RULES.md 2 in the trainer: after a 1-2 played in full the same side plays the double
    it names (and, that in full, rolls again); it learns only from the position that ends each
    turn, with the opponent to roll."""
    net = Net.random(INPUTS, 8, seed=3)
    sequences = 0
    for seed in range(4):
        trace: list[td.Turn] = []
        xs, ys, z, turns = td.self_play_game(
            net, random.Random(seed), td.FAMILIES["acey-deucey"], trace
        )
        assert len(xs) == len(ys) == turns - 1
        assert trace[0][:2] == (V.start().mine, V.start().theirs)
        ends = 0  # the plays that end a turn
        named = False  # the play before was a 1-2 in full, so this one is its named double
        for i, (mine, theirs, d1, d2, m1, t1) in enumerate(trace):
            moves = V.play_paths(mine, theirs, d1, d2)[(m1, t1)]
            if named:
                assert d1 == d2 and trace[i - 1][2:4] in ((1, 2), (2, 1))
            goes_on = V.after_play(d1, d2, len(moves), chosen=named)
            named = goes_on == "name"
            if i + 1 == len(trace):
                assert m1[OFF] == CHECKERS
            elif goes_on is None:  # the turn passes: the opponent moves next, from its side
                assert trace[i + 1][:2] == (t1, m1)
                np.testing.assert_array_equal(xs[ends], encode_sides([(m1, t1)])[0])
                ends += 1
            else:  # the same side goes on from where it stands
                assert trace[i + 1][:2] == (m1, t1)
                sequences += 1
        assert ends == len(xs)
        assert z.tolist()[0] == 1 and z.tolist()[3:] == [0, 0]
    assert sequences > 0  # the games above do meet 1-2s played in full


def test_training_resumes_a_net_of_fewer_inputs_widened(tmp_path: Path) -> None:
    """``td.py --resume`` a net from before the positional inputs (212): it is widened to the
    family's inputs, the same function; a net of more inputs is refused."""
    old = Net.random(features.BASE_INPUTS, 8, seed=5)
    old.save(tmp_path / "old.npz")
    net = td.starting_net(td.FAMILIES["acey-deucey"], tmp_path / "old.npz", 96, 1)
    assert (net.inputs, net.meta["widened_from"]) == (INPUTS, 212)
    x = encode_sides([(V.start().mine, V.start().theirs)])
    np.testing.assert_allclose(net.forward(x), old.forward(x), rtol=1e-6)
    Net.random(INPUTS + 1, 8).save(tmp_path / "wide.npz")
    with pytest.raises(SystemExit, match="has 225 inputs"):
        td.starting_net(td.FAMILIES["acey-deucey"], tmp_path / "wide.npz", 96, 1)
    assert td.starting_net(td.FAMILIES["long"], None, 8, 1).inputs == td.FAMILIES["long"].inputs


# -- the shipped weights -----------------------------------------------------------------------


def test_shipped_weights_load_and_beat_random() -> None:
    net = evaluator("acey-deucey").net
    assert net.inputs <= INPUTS and net.meta["variant"] == "acey-deucey"
    assert int(net.meta["games"]) > 10_000 and float(net.meta["seconds"]) > 0
    result = strength.duel("acey-deucey", "net", "random", pairs=3, seed=1, jobs=1, check=True)
    assert result.win_rate == 1.0 and result.ppg >= 1.5
