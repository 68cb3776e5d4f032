"""The neural evaluator: features, the net, the shipped weights and the bot (issue "The bot
and analysis", first step)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import pos as make_position
from conftest import without_shipped_net

from nardy.core import CHECKERS, OFF, Position, variant
from nardy.core.dice import FixedDice, SeededDice
from nardy.core.game import Game
from nardy.core.settings import Settings
from nardy.engine import HeuristicBot, RandomBot, features_long, make_bot
from nardy.engine.analysis import analyze_game
from nardy.engine.bots import play_game, step
from nardy.engine.errors import EngineError
from nardy.engine.evaluator import ROLLS, consistent, evaluator, for_net
from nardy.engine.features import (
    BASE_INPUTS,
    INPUTS,
    RAW_PER_SIDE,
    encode,
    encode_sides,
    sides_array,
)
from nardy.engine.net import Net, equity, flip
from nardy.engine.neural import LEVELS, RESIGN_MARGIN, NeuralBot, game_probabilities
from nardy.engine.stakes import Stakes

BG = variant("backgammon")


def unary(vector: np.ndarray, side: int, point: int) -> list[float]:
    """The four truncated unary inputs of ``point`` of one side (0: the mover, 1: the other)."""
    start = side * RAW_PER_SIDE + 4 * (point - 1)
    return [float(x) for x in vector[start : start + 4]]


# -- features ---------------------------------------------------------------------------------


def test_start_position_features() -> None:
    start = BG.start()
    x = encode_sides([(start.mine, start.theirs)])
    assert x.shape == (1, INPUTS) and x.dtype == np.float32
    v = x[0]
    for side in (0, 1):
        assert unary(v, side, 24) == [1, 1, 0, 0]
        assert unary(v, side, 13) == [1, 1, 1, 1]  # five checkers: (5 - 3) / 2
        assert unary(v, side, 8) == [1, 1, 1, 0]
        assert unary(v, side, 6) == [1, 1, 1, 1]
        assert unary(v, side, 1) == [0, 0, 0, 0]
        assert v[side * RAW_PER_SIDE + 96] == 0  # the bar
        assert v[side * RAW_PER_SIDE + 97] == 0  # off
    expert = v[2 * RAW_PER_SIDE : BASE_INPUTS]
    assert len(expert) == 16
    assert expert[0] == pytest.approx(1.67) and expert[1] == pytest.approx(1.67)
    assert expert[2] == 0 and expert[3] == 0  # level pips; contact
    assert expert[4] == 0 and expert[5] == 0  # no blots
    assert expert[6] == pytest.approx(1 / 6) and expert[8] == pytest.approx(1 / 6)
    assert expert[10] == pytest.approx(2 / 5)  # the two back checkers
    assert expert[12] == 0 and expert[13] == 0  # no blot, no shot
    # From the 24-point, their points are 5, 7 and 12 pips ahead: 4-1, 3-2, 6-1, 5-2 and 4-3
    # (ten rolls) end on one, and 3-3, 4-4, 5-5 and 6-6 stop on one: 22 rolls play in full.
    assert expert[14] == pytest.approx(22 / 36) and expert[15] == pytest.approx(22 / 36)
    positional = v[BASE_INPUTS:]
    assert len(positional) == 12
    # Timing: 3 spares on 13 (12 pips each to the ace point), 1 on 8 (7), 3 on 6 (5).
    assert positional[2] == positional[3] == pytest.approx((36 + 7 + 15) / 100)
    # Mobility: 24, 13, 8 and 6 with each die, but 13-12, 24-19, 6-1 and 6-0 (off) are not
    # moves: 24 - 4 = 20.
    assert positional[4] == positional[5] == pytest.approx(20 / 60)
    # Backbone: the 24 and 13 points; the anchor on 24 is one point advanced.
    assert positional[6] == positional[7] == pytest.approx(2 / 6)
    assert positional[8] == positional[9] == pytest.approx(1 / 6)
    assert positional[10] == positional[11] == 0  # no blot


def positional(pos: Position) -> list[float]:
    """The positional inputs of a position, scaled back to counts: containment in rolls of
    36, timing in pips, mobility in moves, backbone in points, the forward anchor in points
    of advancement, pip loss in pips times 36 (mover, opponent for each)."""
    x = encode_sides([(pos.mine, pos.theirs)])[0][BASE_INPUTS:].astype(np.float64)
    scale = np.repeat([36, 100, 60, 6, 6, 864], 2)
    return [round(float(v), 4) for v in x * scale]


def test_positional_inputs_of_a_blocked_back_checker() -> None:
    # Mine: blots on 24 and 20, 13 on my 6. Theirs: three points on their 7-9 (my 18-16),
    # nine off.
    pos = Position.from_points(BG, {24: 1, 20: 1, 6: 13}, {7: 2, 8: 2, 9: 2, OFF: 9})
    contain, their_contain, timing, their_timing, mobility, their_mobility, *rest = positional(pos)
    # Containment: from my 24 (their points 6-8 pips ahead) 18 rolls play; the worst point
    # is my 22, with them 4-5-6 pips ahead: 14 non-doubles (no sum of 4-6, not both dice 4-6)
    # and no double. Their checkers have nothing of mine in front of them.
    assert (contain, their_contain) == (14, 36)
    assert encode_sides([(pos.mine, pos.theirs)])[0][2 * RAW_PER_SIDE + 14] == pytest.approx(
        18 / 36
    )
    # Timing: blots on 24 and 20 play 23 and 19 pips, 11 spares on 6 five each; their three
    # points of two have none.
    assert (timing, their_timing) == (23 + 19 + 55, 0)
    # Mobility: 24 with 1-5 (18 is theirs), 20 with 1, 5, 6 (18-16 theirs), 6 with 1-5 (6-0
    # bears off): 13. Theirs: 9, 8 and 7 each with 1-6 (my blots do not block): 18.
    assert (mobility, their_mobility) == (13, 18)
    backbone, their_backbone, anchor, their_anchor, pip_loss, their_pip_loss = rest
    assert (backbone, their_backbone, anchor, their_anchor) == (0, 0, 0, 0)
    # Pip loss: 28 rolls reach my 20 (2, 3 or 4 from their checkers: every roll but 1-5, 1-6,
    # 5-6, 5-5, 6-6) and cost 5 pips; of the other 8, 1-5, 1-6, 5-6 and 6-6 reach my 24 (6-8
    # away) and cost 1. A roll that hits both is counted at the costlier blot.
    assert (pip_loss, their_pip_loss) == (28 * 5 + 7 * 1, 0)


def test_positional_inputs_with_a_checker_on_the_bar() -> None:
    # Mine: one on the bar, points 21, 18, 14, 6 (six) and 4. Theirs: points on their 1 and 3
    # (my 24 and 22), a blot on their 5 (my 20), ten off.
    pos = Position.from_points(
        BG, {25: 1, 21: 2, 18: 2, 14: 2, 6: 6, 4: 2}, {OFF: 10, 1: 2, 3: 2, 5: 1}
    )
    values = positional(pos)
    # Containment: from the bar (their points 1 and 3 ahead) 26 non-doubles and 2-2, 4-4,
    # 5-5, 6-6 play; from 24 and 23 more do, and nothing blocks below 22. Their blot on 5 has
    # my 21 (their 4) one pip ahead: every roll but 1-1.
    assert values[0:2] == [30, 35]
    # Timing: the bar checker plays 24 pips, the four spares on 6 five each; their blot on 5
    # plays 4.
    assert values[2:4] == [24 + 20, 4]
    # Mobility: on the bar only entering counts: 2, 4, 5 and 6 (24 and 22 are theirs). Theirs:
    # 5 with 2-4 (4 is my point), 3 with 1-2, nothing from 1 but bearing off.
    assert values[4:6] == [4, 5]
    # Backbone: my 21, 18 and 14 are in their half; 21 is an anchor four points advanced.
    assert values[6:10] == [3, 0, 4, 0]
    # Pip loss: their blot on 5 has travelled 20 pips; my bar checker (5 away) and my 21
    # (their 4, 1 away) hit it with any 1 or 5 and 2-3: 22 rolls.
    assert values[10:12] == [0, 22 * 20]


def test_shots_count_direct_and_indirect_rolls() -> None:
    # My blot on 6, their checker 5 pips away (their 24, my 1): any 5, 4-1 and 3-2 hit.
    pos = Position.from_points(variant("backgammon"), {6: 1, 13: 14}, {24: 1, 1: 14})
    e = encode_sides([(pos.mine, pos.theirs)])[0][2 * RAW_PER_SIDE :]
    assert e[12] == pytest.approx(15 / 36)
    # Their blot on their 24 is 5 pips from my 6 and 12 from my 13 (6-6, 4-4, 3-3 too).
    assert e[13] == pytest.approx(18 / 36)
    # From the bar: a checker on their bar hits my blot on 3 with any 3, 2-1 and 1-1.
    bar = Position.from_points(variant("backgammon"), {3: 1, 13: 14}, {25: 1, 6: 14})
    b = encode_sides([(bar.mine, bar.theirs)])[0][2 * RAW_PER_SIDE :]
    assert b[12] == pytest.approx(14 / 36)


def test_escapes_of_a_trapped_checker() -> None:
    # My back checker on 24 behind their full prime on my 18-23 (their 2-7): only rolls that
    # jump it in one go would play, and none of 1-6 lands on an open point; 6-6 fails too.
    pos = Position.from_points(
        variant("backgammon"), {24: 1, 6: 14}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 3}
    )
    e = encode_sides([(pos.mine, pos.theirs)])[0][2 * RAW_PER_SIDE :]
    assert e[14] == 0


def test_bar_blots_race_and_off() -> None:
    # Mine: a blot on 6 (their checker on my 1 = their 24 is 5 away), one on 10 (9 away).
    pos = Position.from_points(variant("backgammon"), {6: 1, 10: 1, 13: 13}, {24: 1, 1: 14})
    e = encode_sides([(pos.mine, pos.theirs)])[0][2 * RAW_PER_SIDE :]
    assert e[4] == pytest.approx(1 / 5)  # my 6 is exposed, my 10 is not
    assert e[5] == pytest.approx(1 / 5)  # their 24 is 5 from my 6 (their 19)
    assert e[3] == 0
    race = Position.from_points(variant("backgammon"), {OFF: 5, 1: 10}, {OFF: 3, 2: 12})
    r = encode_sides([(race.mine, race.theirs)])[0]
    assert r[2 * RAW_PER_SIDE + 3] == 1
    assert r[RAW_PER_SIDE - 1] == pytest.approx(5 / 15)
    assert r[2 * RAW_PER_SIDE - 1] == pytest.approx(3 / 15)
    hit = Position.from_points(variant("backgammon"), {25: 2, 13: 13}, {1: 15})
    h = encode_sides([(hit.mine, hit.theirs)])[0]
    assert h[RAW_PER_SIDE - 2] == 1.0  # two on the bar, halved


def test_acey_deucey_waiting_checkers_count_as_on_the_bar() -> None:
    start = variant("acey-deucey").start()
    v = encode_sides([(start.mine, start.theirs)])[0]
    assert v[RAW_PER_SIDE - 2] == pytest.approx(7.5)
    assert v[2 * RAW_PER_SIDE] == pytest.approx(3.75)  # 15 x 25 pips, over 100
    assert v[BASE_INPUTS + 2] == pytest.approx(3.6)  # timing: 15 x 24 pips from the bar
    assert v[BASE_INPUTS + 4] == pytest.approx(6 / 60)  # mobility: entering with any die


def test_batch_rows_match_single_encodings() -> None:
    pos = BG.start()
    after = list(BG.play_paths(pos.mine, pos.theirs, 6, 4))
    batch = encode_sides(after)
    single = np.concatenate([encode_sides([a]) for a in after])
    assert batch.shape == (len(after), INPUTS)
    np.testing.assert_array_equal(batch, single)
    m, t = sides_array(a for a, _ in after), sides_array(b for _, b in after)
    np.testing.assert_array_equal(encode(m, t), batch)


# -- the net ----------------------------------------------------------------------------------


def test_forward_is_deterministic_and_in_range() -> None:
    net = Net.random(INPUTS, 16, seed=3)
    x = np.random.default_rng(0).random((7, INPUTS), dtype=np.float32)
    y1, y2 = net.forward(x), net.forward(x)
    assert y1.shape == (7, 5)
    np.testing.assert_array_equal(y1, y2)
    assert np.all((y1 > 0) & (y1 < 1))
    np.testing.assert_array_equal(Net.random(INPUTS, 16, seed=3).forward(x), y1)


def test_equity_and_flip() -> None:
    o = np.array([[1, 1, 1, 0, 0], [0, 0, 0, 1, 0], [0.5, 0.1, 0.0, 0.2, 0.0]], np.float32)
    np.testing.assert_allclose(equity(o), [3, -2, -0.1], atol=1e-6)
    np.testing.assert_allclose(equity(flip(o)), -equity(o), atol=1e-6)
    np.testing.assert_array_equal(flip(flip(o)), o)


def test_save_load_round_trip(tmp_path: Path) -> None:
    net = Net.random(INPUTS, 8, seed=1)
    net.meta["games"] = 12
    path = tmp_path / "net.npz"
    net.save(path)
    back = Net.load(path)
    for name in ("w1", "b1", "w2", "b2"):
        np.testing.assert_array_equal(getattr(back, name), getattr(net, name))
    assert back.meta == {"games": "12"}
    np.savez(tmp_path / "other.npz", w1=np.zeros(3))
    with pytest.raises(ValueError, match="not a"):
        Net.load(tmp_path / "other.npz")
    with pytest.raises(ValueError, match="shapes"):
        Net(
            np.zeros((3, 2), np.float32),
            np.zeros(2, np.float32),
            np.zeros((3, 5), np.float32),
            np.zeros(5, np.float32),
        )


def _start_plays_and_replies() -> list[tuple[bytes, bytes]]:
    """Every play of the 21 opening rolls and every 6-5 reply to each (4,208 positions)."""
    start = BG.start()
    pairs = []
    for d1, d2, _ in ROLLS:
        for mine, theirs in BG.play_paths(start.mine, start.theirs, d1, d2):
            pairs.append((mine, theirs))
            pairs.extend(BG.play_paths(theirs, mine, 6, 5))
    return pairs


def test_the_first_212_inputs_are_the_212_input_encoding() -> None:
    """Inputs are only appended: the prefix is bit for bit what the encoding gave before the
    positional inputs (the digest was taken from that code, on these positions)."""
    x = encode_sides(_start_plays_and_replies())
    assert x.shape == (4208, INPUTS) and BASE_INPUTS == 212
    digest = hashlib.sha256(np.ascontiguousarray(x[:, :BASE_INPUTS]).tobytes()).hexdigest()
    assert digest == "2030f6aece611537b520c0027304de228ee9fc31686d94ae09816c13d47f9207"


def test_a_212_input_net_reads_the_prefix_of_todays_encoding() -> None:
    """A net of 212 inputs (such as the backgammon net before version 4) gives the same
    outputs on today's wider rows as on their first 212 columns, in the evaluator too; rows
    as wide as a net are not copied."""
    net = Net.random(BASE_INPUTS, 16, seed=5, scale=0.3)
    ev = for_net(net, BG)
    assert net.inputs == BASE_INPUTS < INPUTS
    pairs = _start_plays_and_replies()[:300]
    x = encode_sides(pairs)
    prefix = np.ascontiguousarray(x[:, :BASE_INPUTS])
    np.testing.assert_array_equal(net.forward(x), net.forward(prefix))
    np.testing.assert_array_equal(ev.after(BG, pairs), consistent(net.forward(prefix)))
    assert net.columns(prefix) is prefix
    assert np.shares_memory(net.columns(x), x)
    with pytest.raises(ValueError, match="rows of 211 inputs for a net of 212"):
        net.forward(prefix[:, :-1])
    # Training steps read the prefix as well.
    grads, _ = net.gradients(x[:5], np.full((5, 5), 0.5, np.float32))
    assert grads[0].shape == net.w1.shape


def test_a_widened_net_is_the_same_function() -> None:
    net = Net.random(INPUTS - 4, 8, seed=4)
    wide = net.widened(INPUTS)
    x = np.random.default_rng(2).random((5, INPUTS), dtype=np.float32)
    np.testing.assert_allclose(wide.forward(x), net.forward(x[:, : INPUTS - 4]), rtol=1e-5)
    assert wide.meta["widened_from"] == INPUTS - 4
    with pytest.raises(ValueError, match="narrow"):
        wide.widened(INPUTS - 1)


def test_training_steps_move_toward_the_target() -> None:
    net = Net.random(INPUTS, 8, seed=2)
    x = np.random.default_rng(1).random((4, INPUTS), dtype=np.float32)
    target = np.tile(np.array([1, 0.5, 0, 0, 0], np.float32), (4, 1))
    first = net.train(x, target, 0.01)
    for _ in range(50):
        last = net.train(x, target, 0.01)
    assert last < first


# -- the shipped weights and the bot ----------------------------------------------------------


def test_shipped_weights_load() -> None:
    net = evaluator(BG).net
    assert BASE_INPUTS <= net.inputs <= INPUTS  # a net trained before inputs were appended
    assert int(net.meta["games"]) > 0
    assert make_bot("neural").name == "neural"
    assert isinstance(make_bot("neural"), NeuralBot)


@pytest.mark.parametrize("key", ["backgammon", "nackgammon", "acey-deucey"])
def test_neural_bot_always_plays_a_legal_play(key: str) -> None:
    v = variant(key)
    bot = NeuralBot()
    rng = random.Random(key)
    for _ in range(3):
        pos = v.start()
        for _ in range(400):
            if pos.outcome() is not None:
                break
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            plays = pos.legal_plays(d1, d2)
            play = bot.choose_play(pos, d1, d2)
            assert play in plays
            after = bot.choose(pos, d1, d2)
            assert after == (play.position.mine, play.position.theirs)
            pos = play.position.swap()


def test_an_evaluator_refuses_another_family() -> None:
    with pytest.raises(ValueError, match="not long"):
        evaluator(BG).rank(variant("long").start(), 6, 5)


def test_neural_bot_finishes_a_game_with_the_cube() -> None:
    game = Game(Settings(variant="backgammon"), SeededDice(5))
    result = play_game(game, (NeuralBot(), RandomBot(seed=5)))
    assert result.winner in (0, 1)


def test_neural_bot_beats_random() -> None:
    bot, wins, games = NeuralBot(), 0, 16
    for i in range(games):
        rng = random.Random(i)
        players = (bot, RandomBot(seed=i))
        seat = i % 2  # the neural bot moves first in even games
        pos = BG.start()
        turn = 0
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            mover = players[(turn + seat) % 2]
            after = mover.choose_play(pos, d1, d2).position
            if after.mine[OFF] == CHECKERS:
                wins += mover is bot
                break
            pos = after.swap()
            turn += 1
    assert wins >= 13


# -- the evaluator: lookahead and ranking ------------------------------------------------------


def random_positions(key: str, count: int, seed: int) -> list[Position]:
    """Positions of random games, each with the side on roll to play."""
    v, rng, found = variant(key), random.Random(seed), []
    pos = v.start()
    while len(found) < count:
        plays = pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        pos = rng.choice(plays).position.swap()
        if pos.outcome() is not None:
            pos = v.start()
            continue
        found.append(pos)
    return found


def test_rolls_are_the_36() -> None:
    assert len(ROLLS) == 21
    assert sum(w for _, _, w in ROLLS) == pytest.approx(1.0)


def test_one_ply_after_a_play_is_the_opponents_average_best_reply() -> None:
    ev = evaluator(BG)
    pos = random_positions("backgammon", 1, seed=8)[0]
    after = (pos.theirs, pos.mine)  # the opponent has just moved; "pos" is on roll
    total = np.zeros(5)
    for d1, d2, weight in ROLLS:
        best = ev.rank(pos, d1, d2, 0)[0]
        total += weight * best.outputs
    np.testing.assert_allclose(flip(ev.after(BG, [after], 1)), total[None, :], atol=1e-5)
    np.testing.assert_allclose(ev.on_roll(pos, 1), total, atol=1e-5)


def test_rank_is_best_first_and_keeps_every_play() -> None:
    ev = evaluator(BG)
    for pos in random_positions("backgammon", 6, seed=3):
        for ply in (0, 1, 2):
            ranked = ev.rank(pos, 5, 2, ply)
            reached = {(p.position.mine, p.position.theirs) for p in pos.legal_plays(5, 2)}
            assert {c.after for c in ranked} == (reached or {(pos.mine, pos.theirs)})
            keys = [(-c.ply, -c.equity) for c in ranked]
            assert keys == sorted(keys)
            assert ranked[0].ply == (ply if len(ranked) > 1 else 0)
            for c in ranked:
                assert c.equity == pytest.approx(float(equity(c.outputs[None, :])[0]))


def test_finished_games_are_valued_exactly() -> None:
    ev = evaluator(BG)
    # I bear off my last checker; theirs are all in my home board: a backgammon.
    pos = Position.from_points(variant("backgammon"), {OFF: 14, 1: 1}, {19: 15})
    best = ev.rank(pos, 6, 5, 2)[0]
    np.testing.assert_array_equal(best.outputs, [1, 1, 1, 0, 0])
    assert best.equity == 3.0
    won = Position.from_points(variant("backgammon"), {OFF: 15}, {OFF: 3, 6: 12})
    np.testing.assert_array_equal(ev.on_roll(won), [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(ev.on_roll(won.swap()), [0, 0, 0, 0, 0])


def test_outputs_are_made_consistent() -> None:
    raw = np.array([[0.24, 0.38, 0.5, 0.9, 0.95], [0.6, 0.2, 0.01, 0.1, 0.02]], np.float32)
    fixed = consistent(raw.copy())
    np.testing.assert_allclose(fixed[0], [0.24, 0.24, 0.24, 0.76, 0.76])
    np.testing.assert_allclose(fixed[1], raw[1])


def test_acey_deucey_has_its_net_and_without_it_the_heuristic_stands_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ad = variant("acey-deucey")
    ev = evaluator(ad)
    bot = NeuralBot("advanced")
    assert bot.stand_in(ad) is None and ev.variants == {"acey-deucey"}
    for pos in random_positions("acey-deucey", 5, seed=2):
        assert bot.choose(pos, 6, 1) == ev.rank(pos, 6, 1)[0].after
    after_1_2 = ad.start().apply("bar/24 bar/23", 1, 2)
    best = ev.named_double(ad, (after_1_2.mine, after_1_2.theirs), 0)[0]
    assert bot.choose_double(after_1_2) == best
    without_shipped_net(monkeypatch, "acey-deucey.npz")
    with pytest.raises(ValueError, match="no trained net for acey-deucey"):
        evaluator(ad)
    bot, heuristic = NeuralBot("world-class"), HeuristicBot()
    for pos in random_positions("acey-deucey", 5, seed=2):
        assert bot.choose_play(pos, 6, 1) == heuristic.choose_play(pos, 6, 1)
    assert bot.choose_double(ad.start()) == heuristic.choose_double(ad.start())
    game = Game(Settings(variant="acey-deucey"), SeededDice(3))
    assert play_game(game, (bot, RandomBot(seed=3))).winner in (0, 1)


def test_acey_deucey_values_a_1_2_by_the_double_named_after_it_and_the_roll_after() -> None:
    """RULES.md 2: a 1-2 played in full is followed by a double the mover names and, that
    played in full, by another roll; the bot, the hint and the analysis value plays so."""
    ad = variant("acey-deucey")
    ev = evaluator(ad)
    # Both sides bearing off, the opponent sure to finish next turn. The mover's 1, 1 and 4
    # checkers on the 1, 2 and 6 points: 2/off 1/off, then 6-6, wins at once.
    near = make_position("acey-deucey", {0: 9, 1: 1, 2: 1, 6: 4}, {0: 13, 1: 1, 2: 1})
    won = (1.0, 0.0, 0.0, 0.0, 0.0)
    both_off = near.apply("2/off 1/off", 1, 2)
    for ply in (0, 1, 2):
        ranked = ev.rank(near, 1, 2, ply)
        np.testing.assert_allclose(ranked[0].outputs, won, atol=1e-5)  # 6/5 2/off, 6-6 too
        it = next(c for c in ranked if c.after == (both_off.mine, both_off.theirs))
        np.testing.assert_allclose(it.outputs, won, atol=1e-5)
        assert ev.named_double(ad, it.after, ply)[0] == 6
    # As if the 1-2 ended the turn, the same play would lose: the opponent would finish.
    assert ev.after(ad, [it.after], 0)[0][0] < 0.5
    # A named double played in full: the mover rolls again, so each play is worth the
    # mover's chances on roll there; rolled, the same double ends the turn.
    middle = make_position("acey-deucey", {6: 4, 8: 3, 13: 4, 24: 4}, {6: 5, 8: 5, 13: 5})
    for chosen, seen_by in ((True, "mover"), (False, "opponent")):
        for c in ev.rank(middle, 3, 3, 0, chosen=chosen)[:5]:
            mine, theirs = c.after
            expected = (
                flip(ev.after(ad, [(theirs, mine)], 0))[0]
                if seen_by == "mover"
                else ev.after(ad, [c.after], 0)[0]
            )
            np.testing.assert_allclose(c.outputs, expected, atol=1e-6)
    # In a game: the bot plays the 1-2 for a double that wins, names it and wins (after
    # another roll, if need be); the analysis at the bot's ply finds no error in its plays.
    game = Game(Settings(variant="acey-deucey"), FixedDice([1, 2]), first_player=0, position=near)
    bots = (NeuralBot("advanced"), NeuralBot("advanced"))
    said = [step(game, bots) for _ in range(3)]
    assert said[0] == "rolls 1-2" and said[2].startswith("names ")
    while not game.over:
        step(game, bots)
    assert game.result is not None and game.result.winner == 0
    plays = analyze_game(game, ply=0).plays
    assert len(plays) >= 2 and all(p.player == 0 for p in plays)
    assert all(p.loss == 0.0 and p.played == p.best for p in plays)


def test_for_net_uses_the_given_net() -> None:
    net = Net.random(INPUTS, 8, seed=9)
    ev = for_net(net, "nackgammon")
    assert ev.net is net and "backgammon" in ev.variants
    with pytest.raises(ValueError, match="no trained net"):
        for_net(net, "chess")


def test_for_net_refuses_a_net_wider_than_the_variants_encoding() -> None:
    """A backgammon net (224 inputs) cannot judge long nardy (220): refused when the
    evaluator is made, saying so, not at its first position. A narrower net reads the
    encoding's first inputs (an older net's)."""
    net, long_net = Net.random(INPUTS, 8, seed=9), Net.random(features_long.INPUTS, 8, seed=9)
    with pytest.raises(EngineError, match="takes 224 inputs, but long's encoding has 220"):
        for_net(net, "long")
    with pytest.raises(EngineError, match="race net takes 224 inputs, but long's"):
        for_net(long_net, "long", net)
    assert for_net(long_net, "long").net is long_net


# -- levels -------------------------------------------------------------------------------------


def test_levels_weakest_first() -> None:
    names = list(LEVELS)
    assert names[0] == "beginner" and names[-1] == "world-class"
    noise = [LEVELS[n].noise for n in names]
    ply = [LEVELS[n].ply for n in names]
    assert noise == sorted(noise, reverse=True) and ply == sorted(ply)
    for name in names:
        assert make_bot(name).name == name
    with pytest.raises(ValueError, match="unknown level"):
        NeuralBot("grandmaster")


def test_noisy_levels_are_reproducible_and_differ_from_the_net() -> None:
    positions = random_positions("backgammon", 30, seed=4)

    def choices(bot: NeuralBot) -> list[tuple[bytes, bytes]]:
        return [bot.choose(p, 6, 2) for p in positions]

    assert choices(NeuralBot("beginner", seed=1)) == choices(NeuralBot("beginner", seed=1))
    assert choices(NeuralBot("beginner", seed=1)) != choices(NeuralBot("advanced"))


@pytest.mark.parametrize("name", ["expert", "world-class"])
def test_lookahead_levels_play_legal_plays(name: str) -> None:
    bot = NeuralBot(name)
    for pos in random_positions("backgammon", 3, seed=5):
        assert bot.choose_play(pos, 4, 4) in pos.legal_plays(4, 4)


def test_long_nardy_has_no_backgammon_chances() -> None:
    long = variant("long")
    ranked = evaluator(long).rank(long.start(), 6, 5, 1)
    assert all(c.outputs[2] == 0 and c.outputs[4] == 0 for c in ranked)
    assert evaluator(long).on_roll(long.start())[[2, 4]].tolist() == [0, 0]


# -- resigning hopeless positions (issue 12 item 5) -----------------------------------------


class _Declines(HeuristicBot):
    """Declines every resignation."""

    def accept_resignation(self, game: Game, player: int, level: int) -> bool:
        return False


def _lost_game(mine: dict[int, int], settings: Settings | None = None) -> Game:
    """Player 0 on roll with ``mine`` against one checker on the opponent's 1-point."""
    doomed = make_position("backgammon", mine, {1: 1})
    return Game(settings or Settings(), FixedDice([6, 5]), first_player=0, position=doomed)


def test_the_bot_resigns_the_lowest_level_that_is_certain() -> None:
    bots = (NeuralBot(), NeuralBot())
    # Past gammon and unable to win: a single, which the net's bot accepts.
    game = _lost_game({23: 2})
    assert step(game, bots) == "resigns a single"
    assert step(game, bots) == "accepts the resignation"
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 1)
    # Gammoned for sure without the Jacoby rule: the bot offers the lowest level the
    # opponent is right to accept, and only if it gives away no more than playing on.
    for mine in ({13: 15}, {7: 15}, {23: 15}, {6: 14, 23: 1}):
        game = _lost_game(mine, Settings(jacoby=False))
        bot = NeuralBot()
        stakes = Stakes.of(game, 0)
        probs = game_probabilities(bot.evaluator(game.turn_start), game, 0, 1)
        play_on = -stakes.decision(probs, game.turn_start).equity
        fair = [level for level in (1, 2, 3) if level >= play_on - RESIGN_MARGIN]
        level = bot.resign_level(game, 0)
        if fair and fair[0] <= play_on + RESIGN_MARGIN:
            assert level == fair[0], mine
        else:
            assert level == 0, mine
    # With the Jacoby rule and the cube centred any resignation counts single (RULES.md
    # 1.5), and so does playing on, the opponent cashing with a double: a single.
    game = _lost_game({13: 15})
    assert step(game, bots) == "resigns a single"


def test_the_bot_plays_on_where_it_can_win_and_offers_once_a_turn() -> None:
    bot = NeuralBot()
    game = Game(Settings(), SeededDice(3))
    game.roll_opening()
    game.play(game.turn, game.legal_plays()[0])
    assert bot.resign_level(game, game.turn) == 0
    game = _lost_game({23: 2})
    bots = (bot, _Declines())
    assert step(game, bots) == "resigns a single"
    assert step(game, bots) == "declines the resignation"
    assert step(game, bots).startswith("rolls ")  # declined: it plays the turn out
