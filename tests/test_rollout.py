"""Rollouts (``nardy.engine.rollout``): exact where the result is certain, exactly the 1- and
2-ply evaluation where stratified dice cover every roll, reproducible by seed with any number
of processes, and unbiased by the luck-based variance reduction."""

from __future__ import annotations

import functools
import itertools
import math
import os
from collections.abc import Callable

import numpy as np
import pytest
from conftest import pos

import nardy
from nardy.core import Position
from nardy.engine import features_long
from nardy.engine.evaluator import evaluator, for_net
from nardy.engine.net import Net, equity, flip
from nardy.engine.rollout import (
    CHUNK,
    ROLL_WEIGHTS,
    SECOND_STRATUM,
    STRATUM,
    KeptPlays,
    RolloutInterrupted,
    _dice,
    _play_games,
    _Task,
    best_plays,
    difference,
    probabilities,
    processes,
    roll_index,
    rollout,
    rollout_processes,
    rollouts,
    unpaired_error,
)
from nardy.notation import position_from_id

START = nardy.BACKGAMMON.start()
CONTACT = position_from_id("mGs8Awiw8+CAQQ", "backgammon")  # a middle game, from self-play
RACE = pos("backgammon", {6: 3, 5: 3, 4: 2, 3: 2, 2: 1}, {6: 2, 5: 3, 4: 3, 2: 2, 1: 2})
CLOSED_OUT = position_from_id("27YdAAAA8P8DQA", "backgammon")
"""X on the bar against a closed board, the rest of his checkers on the midpoint: he loses,
nearly always a gammon (QA's case of a Win of -0.0% and an L(g) of 100.5%)."""


def possible(outputs: np.ndarray) -> bool:
    """Whether five mean probabilities are ones the game can have (to float32's precision):
    each at least 0, a backgammon within its gammon, a gammon within its win or loss."""
    win, wg, wbg, lg, lbg = (float(x) for x in outputs)
    ordered = [(0, wbg), (wbg, wg), (wg, win), (win, 1), (0, lbg), (lbg, lg), (lg, 1 - win)]
    return all(low <= high + 1e-6 for low, high in ordered)


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
    """Properties of any net: a seed is a rollout (whatever the processes), another seed
    other dice and so other games."""
    a = rollout(CONTACT, games=14, truncate=2, seed=11, jobs=1)
    b = rollout(CONTACT, games=14, truncate=2, seed=11, jobs=2)
    c = rollout(CONTACT, games=14, truncate=2, seed=12, jobs=1)
    # The same games, to the rounding of the matrix products (one BLAS thread per worker).
    np.testing.assert_allclose(a.outputs, b.outputs, atol=1e-6)
    np.testing.assert_allclose(a.equities, b.equities, atol=1e-6)
    assert a.equity_error == pytest.approx(b.equity_error, abs=1e-6)
    dice = [[list(itertools.islice(_dice(seed, i), 4)) for i in range(14)] for seed in (11, 12)]
    assert dice[0] != dice[1]
    assert not np.allclose(a.equities, c.equities, atol=1e-6)


@pytest.mark.parametrize(("ply", "reduce"), [(0, True), (1, True), (1, False)])
def test_a_game_played_on_what_the_earlier_games_worked_out_is_the_same_game(
    ply: int, reduce: bool
) -> None:
    """The first plays every game of a rollout shares are worked out once (``KeptPlays``):
    game by game, the results are those of each game played with nothing kept."""
    ev = evaluator("backgammon")
    task = _Task("backgammon", CONTACT.mine, CONTACT.theirs, False, 40, 3, 7, ply, reduce)
    games = 40 if ply == 0 else 6
    kept = KeptPlays()
    shared = _play_games(ev, task, 0, games, kept)
    alone = np.concatenate([_play_games(ev, task, i, i + 1, KeptPlays()) for i in range(games)])
    np.testing.assert_array_equal(shared, alone)
    if ply == 0:  # the first play's position met once, not once a game
        assert kept.positions < 2 * games


def test_a_longer_rollout_on_the_plays_a_shorter_one_kept_is_the_same() -> None:
    """Rollouts of the same positions and seed play their games' first plays alike: a
    longer one told what a shorter one kept (``kept=``) plays only the rest of each game,
    and comes out as it would alone."""
    plays = [p.position for p in CONTACT.legal_plays(5, 2)[:2]]
    kept = KeptPlays(4)
    short = rollouts(plays, games=STRATUM, truncate=4, after_play=True, jobs=1, kept=kept)
    held = kept.positions
    longer = rollouts(plays, games=STRATUM, truncate=8, after_play=True, jobs=1, kept=kept)
    alone = rollouts(plays, games=STRATUM, truncate=8, after_play=True, jobs=1)
    for a, b in zip(longer, alone, strict=True):
        np.testing.assert_array_equal(a.equities, b.equities)
    assert held > 0 and kept.positions == held  # nothing new in the first four plays: all met
    assert not np.array_equal(short[0].equities, alone[0].equities)


def test_one_keeper_serves_rollouts_at_different_plies_as_each_alone() -> None:
    """A play chosen at one ply is never handed to a rollout at another: a keeper told of a
    0-ply rollout first gives the 1-ply rollout of the same position and seed its own plays."""
    kept = KeptPlays(3)
    plain = functools.partial(rollouts, games=4, truncate=3, reduce_variance=False, jobs=1)
    plain([CONTACT], ply=0, kept=kept)
    held = kept.positions
    deeper = plain([CONTACT], ply=1, kept=kept)
    alone = plain([CONTACT], ply=1)
    np.testing.assert_array_equal(deeper[0].equities, alone[0].equities)
    assert kept.positions > held


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


def test_mean_probabilities_are_clipped_to_possible_ones() -> None:
    # The luck correction can push a mean past a bound: clipped, in the net's order.
    clipped = probabilities(np.array([-0.001, 0.002, 0.0, 1.005, 0.3]))
    assert clipped.tolist() == pytest.approx([0, 0, 0, 1, 0.3])
    clipped = probabilities(np.array([0.6, 0.7, 0.8, 0.5, 0.6]))
    assert clipped.tolist() == pytest.approx([0.6, 0.6, 0.6, 0.4, 0.4])
    for games in (1, 4):
        r = rollout(CLOSED_OUT, games=games, truncate=10, jobs=1)
        assert possible(r.outputs)
        # The equity stays the plain mean of the games' equities, unclipped.
        assert r.equity == pytest.approx(float(r.equities.mean()))


def test_a_single_game_has_no_error() -> None:
    r = rollout(RACE, games=1, truncate=2, jobs=1)
    assert math.isnan(r.equity_error) and np.isnan(r.errors).all()
    assert math.isnan(difference(r, r)[1])


def test_processes_are_no_more_than_the_cores_or_the_tasks() -> None:
    cores = os.cpu_count() or 1
    assert processes(None, 1000) == cores
    assert processes(1000, 1000) == cores
    assert processes(3, 2) == min(2, cores)
    assert processes(4, 0) == 1
    # Two games are one task of CHUNK games: one process, however many are asked for.
    assert rollout_processes(64, 1, CHUNK) == 1
    assert rollout_processes(64, 3, 1) == min(3, cores)


def test_progress_after_every_game_with_the_running_means() -> None:
    seen: list[tuple[int, list[float]]] = []
    results = rollouts(
        [RACE, RACE.swap()],
        games=3,
        truncate=2,
        jobs=1,
        progress=lambda done, means: seen.append((done, means)),
    )
    assert [done for done, _ in seen] == [1, 2, 3, 4, 5, 6]
    assert math.isnan(seen[0][1][1])  # the second rollout has no game yet
    assert seen[0][1][0] == pytest.approx(float(results[0].equities[0]))
    assert seen[-1][1] == pytest.approx([r.equity for r in results])


def test_the_paired_difference_and_when_pairing_helps() -> None:
    # The same position twice: the same dice give the same games, so the paired difference
    # is exactly 0 with no error, while independent games would leave an error.
    same = rollouts([RACE, RACE], games=6, truncate=3, seed=2, jobs=1)
    assert difference(same[0], same[1]) == (0.0, 0.0)
    assert unpaired_error(same[0], same[1]) > 0
    # Two different plays: the error is the spread of the game-by-game differences.
    a, b = rollouts([RACE, CONTACT], games=8, truncate=2, seed=3, jobs=1)
    gap, error = difference(a, b)
    diffs = a.equities - b.equities
    assert gap == pytest.approx(a.equity - b.equity)
    assert error == pytest.approx(float(diffs.std(ddof=1)) / math.sqrt(8))


def test_an_interrupted_rollout_keeps_the_games_finished_by_every_rollout() -> None:
    # Issue 9 defect 5: Ctrl-C stops a rollout with its partial result, still paired.
    ev = evaluator("backgammon")
    start = position_from_id("4HPwATDgc/ABMA")
    plays = [p.position for p in start.legal_plays(4, 3)[:2]]
    games = 12

    def stop_after(n: int) -> Callable[[int, list[float]], None]:
        def progress(done: int, _: list[float]) -> None:
            if done >= n:
                raise KeyboardInterrupt

        return progress

    def run(n: int) -> RolloutInterrupted:
        with pytest.raises(RolloutInterrupted) as stopped:
            rollouts(
                plays,
                games=games,
                truncate=2,
                after_play=True,
                jobs=1,
                ev=ev,
                progress=stop_after(n),
            )
        return stopped.value

    full = rollouts(plays, games=games, truncate=2, after_play=True, jobs=1, ev=ev)
    # In one process the rollouts take turns, game by game: stopped after the first game
    # of the first, no game is finished by both rollouts and there is no result to show.
    early = run(1)
    assert (early.finished, early.total, early.results) == (1, 2 * games, None)
    # Stopped after 7 games in all (the first has 4, the second 3), both keep their first
    # 3 games, paired.
    late = run(7)
    assert (late.finished, late.total) == (7, 2 * games)
    assert late.results is not None
    for partial, whole in zip(late.results, full, strict=True):
        assert partial.games == 3
        assert partial.equities == pytest.approx(whole.equities[:3])
        assert partial.equity == pytest.approx(float(whole.equities[:3].mean()))


@pytest.mark.parametrize("jobs", [1, 2])
def test_enough_stops_the_rollouts_after_a_block_of_36_games(jobs: int) -> None:
    """``enough`` is asked after each block of 36 games finished by every rollout, with
    their games so far; where it says so the results are those games', paired, the same
    as a rollout of that many games (whatever the processes)."""
    plays = [p.position for p in START.legal_plays(4, 3)[:2]]
    asked: list[list[int]] = []

    def enough(games: list[np.ndarray]) -> bool:
        asked.append([len(g) for g in games])
        return len(games[0]) >= 2 * STRATUM

    results = rollouts(
        plays, games=4 * STRATUM, truncate=1, after_play=True, jobs=jobs, enough=enough
    )
    # Whole blocks, paired, each asked once (in a pool the games finish in any order, and
    # a late one may finish two blocks or more at once), until it was enough.
    stop = asked[-1][0]
    assert stop == 2 * STRATUM if jobs == 1 else stop >= 2 * STRATUM
    assert all(a == b and a % STRATUM == 0 for a, b in asked)
    assert [a for a, _ in asked] == sorted({a for a, _ in asked})
    assert all(a < 2 * STRATUM for a, _ in asked[:-1])
    short = rollouts(plays, games=stop, truncate=1, after_play=True, jobs=1)
    for stopped, whole in zip(results, short, strict=True):
        assert stopped.games == stop
        np.testing.assert_allclose(stopped.equities, whole.equities, atol=1e-6)
        np.testing.assert_allclose(stopped.outputs, whole.outputs, atol=1e-6)
    # Never enough: asked after every block, the last included, and every game played.
    asked.clear()

    def never(games: list[np.ndarray]) -> bool:
        asked.append([len(g) for g in games])
        return False

    played = rollouts(plays, games=2 * STRATUM, truncate=1, after_play=True, jobs=1, enough=never)
    assert asked == [[STRATUM, STRATUM], [2 * STRATUM, 2 * STRATUM]]
    assert [r.games for r in played] == [2 * STRATUM, 2 * STRATUM]
