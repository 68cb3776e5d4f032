"""Rollouts (``nardy.engine.rollout``): exact where the result is certain, exactly the 1- and
2-ply evaluation where stratified dice cover every roll, reproducible by seed with any number
of processes, and unbiased by the luck-based variance reduction."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import pos

import nardy
from nardy.core import Position
from nardy.engine import features_long
from nardy.engine.evaluator import evaluator, for_net
from nardy.engine.net import Net, equity, flip
from nardy.engine.rollout import (
    ROLL_WEIGHTS,
    SECOND_STRATUM,
    STRATUM,
    _dice,
    best_plays,
    roll_index,
    rollout,
    rollouts,
)
from nardy.notation import position_from_id

START = nardy.BACKGAMMON.start()
CONTACT = position_from_id("mGs8Awiw8+CAQQ", "backgammon")  # a middle game, from self-play
RACE = pos("backgammon", {6: 3, 5: 3, 4: 2, 3: 2, 2: 1}, {6: 2, 5: 3, 4: 3, 2: 2, 1: 2})


def test_a_certain_gammon_is_exact() -> None:
    # Two checkers on the ace point: every roll bears them off, the opponent has none off.
    sure = pos("backgammon", {1: 2}, {6: 15})
    for reduce in (True, False):
        r = rollout(sure, games=40, seed=3, jobs=1, reduce_variance=reduce)
        assert r.outputs.tolist() == [1, 1, 0, 0, 0]
        assert (r.equity, r.equity_error) == (2.0, 0.0)
        assert r.errors.tolist() == [0] * 5
    # The same position just reached by the opponent's play: the mover loses the gammon.
    after = rollout(sure.swap(), games=12, jobs=1, after_play=True)
    assert after.outputs.tolist() == [0, 0, 0, 1, 0] and after.equity == -2.0


def test_a_finished_game_is_its_result() -> None:
    won = pos("backgammon", {}, {1: 1})  # the side on roll has borne everything off
    assert rollout(won, games=2, jobs=1).outputs.tolist() == [1, 0, 0, 0, 0]


@pytest.mark.parametrize("position", [START, RACE], ids=["start", "race"])
def test_one_play_over_36_stratified_games_is_the_one_ply_evaluation(position: Position) -> None:
    one_ply = evaluator("backgammon").on_roll(position, 1)
    for reduce in (True, False):
        r = rollout(position, games=36, truncate=1, jobs=1, reduce_variance=reduce)
        np.testing.assert_allclose(r.outputs, one_ply, atol=1e-5)
        assert r.equity == pytest.approx(float(equity(one_ply[None, :])[0]), abs=1e-5)
    # With the luck taken out every game is worth the same.
    assert rollout(position, games=36, truncate=1, jobs=1).equity_error < 1e-5


def test_the_first_two_rolls_are_stratified() -> None:
    games = [list(itertools.islice(_dice(4, i), 3)) for i in range(SECOND_STRATUM + STRATUM)]
    block = games[:SECOND_STRATUM]
    for lo in range(0, SECOND_STRATUM, STRATUM):  # each first roll once per 36 games
        assert len({tuple(g[0]) for g in block[lo : lo + STRATUM]}) == STRATUM
    # every first roll meets every second roll once per 1296 games
    assert len({(tuple(g[0]), tuple(g[1])) for g in block}) == SECOND_STRATUM
    assert games[:STRATUM] != games[SECOND_STRATUM:]  # the next block is shuffled afresh
    thirds = np.array([g[2] for g in games])
    assert 3.3 < thirds.mean() < 3.7  # the rest are random


def test_after_a_play_is_the_opponents_rollout_flipped() -> None:
    mine = rollout(RACE, games=12, truncate=3, seed=5, jobs=1)
    theirs = rollout(RACE.swap(), games=12, truncate=3, seed=5, jobs=1, after_play=True)
    np.testing.assert_allclose(theirs.outputs, flip(mine.outputs[None, :])[0], atol=1e-6)
    assert theirs.equity == pytest.approx(-mine.equity)


def test_seeds_reproduce_and_processes_do_not_matter() -> None:
    a = rollout(CONTACT, games=14, truncate=2, seed=11, jobs=1)
    b = rollout(CONTACT, games=14, truncate=2, seed=11, jobs=2)
    c = rollout(CONTACT, games=14, truncate=2, seed=12, jobs=1)
    assert np.array_equal(a.outputs, b.outputs)
    assert a.equity == b.equity and a.equity_error == b.equity_error
    assert a.equity != c.equity


def test_rollouts_share_their_dice() -> None:
    same = rollouts([RACE, RACE], games=6, truncate=3, seed=2, jobs=1)
    assert same[0].equity == same[1].equity


def test_truncated_rollouts_are_close_to_the_one_ply_evaluation() -> None:
    ev = evaluator("backgammon")
    done = []
    for position in (START, RACE):
        one_ply = float(equity(ev.on_roll(position, 1)[None, :])[0])
        reduced = rollout(position, games=36, truncate=2, seed=1, jobs=1)
        plain = rollout(position, games=36, truncate=2, seed=1, jobs=1, reduce_variance=False)
        # Both estimate the same mean; the reduced one far more precisely.
        both = np.hypot(reduced.equity_error, plain.equity_error)
        assert abs(reduced.equity - plain.equity) < 4 * both
        assert reduced.equity_error < plain.equity_error
        # The net is not perfectly consistent with itself two plays on: a small margin.
        assert abs(reduced.equity - one_ply) < 4 * reduced.equity_error + 0.06
        done.append(position)
    assert len(done) == 2


def test_the_luck_of_each_roll_averages_to_zero() -> None:
    _, rows = best_plays(evaluator("backgammon"), CONTACT)
    values = equity(rows).astype(np.float64)
    assert ROLL_WEIGHTS.sum() == pytest.approx(1.0)
    assert ROLL_WEIGHTS @ (values - ROLL_WEIGHTS @ values) == pytest.approx(0.0, abs=1e-9)
    assert roll_index(5, 3) == roll_index(3, 5)


def test_long_nardy_rolls_out_through_its_own_net() -> None:
    # A random net of the long-nardy shape: the shipped one may not be trained yet.
    ev = for_net(Net.random(features_long.INPUTS, 16, seed=1), "long")
    start = nardy.LONG_NARDY.start()
    r = rollout(start, games=36, truncate=1, jobs=1, ev=ev)
    np.testing.assert_allclose(r.outputs, ev.on_roll(start, 1), atol=1e-5)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        rollout(START, games=0, jobs=1)
    with pytest.raises(ValueError, match="truncate"):
        rollout(START, games=1, truncate=-1, jobs=1)
    with pytest.raises(ValueError, match="long"):
        rollout(nardy.LONG_NARDY.start(), games=1, jobs=1, ev=evaluator("backgammon"))
