"""Races valued by one-sided distributions of rolls and outcomes the position rules out
(issue 20, defects 1 and 2): what a serious player checks first in an analysis."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from conftest import pos
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import gnubg_oracle

from nardy.cli.engine import context_stakes, read_position
from nardy.core import BAR, CHECKERS, OFF, Position, variant
from nardy.core.position import Side
from nardy.engine import bearoff, race
from nardy.engine.analysis import BAD, evaluate, judgement, rank_of, rank_plays
from nardy.engine.evaluator import ROLLS, evaluator, no_contact
from nardy.engine.features import sides_array
from nardy.notation import parse_position
from nardy.notation.position_id import position_from_id

BEAR_OFF = "3+qCAQBPAAAAAA"
"""Issue 20: X to play 3-1 with four on the 1-point and one on the 3-point, O with two
checkers still on its 11-point and none off. 3/off and 3/off 1/off leave X two rolls from
home either way (one with a double): the same gammon chances."""
LOST = "DwAAoOxNgBoAAA"
"""Issue 20: X, on roll, 120 pips with nothing in O's home board and no contact; O four
checkers from the end. X loses, nearly always a gammon, never a backgammon."""
CLEARS = "tgEAgGHzxIEAAA:MIFyAAAAAAAE"
"""bench/gnubg_agreement.py, a 3-point match at 0-0: X to play 5-4, 124 pips from home with
a checker on O's 19-point (no contact); O six checkers from the end, two rolls at the
fewest. Whatever X plays, its next roll clears O's home board before O can finish: no
backgammon (gnubg: 0). X's bear-off is five rolls away at the fewest, so X cannot win but
by O needing six (a chance under a thousandth)."""
BEHIND = "XGID=---BCCC---B-B---------bbb-:0:0:1:52:0:0:0:0:10"
"""X to play 5-2, two checkers on its 12-point and two on its 10-point (20 pips from home),
no contact; O six checkers on its 1-3 points, three rolls at most from the end. X cannot
win, and saves the gammon in 8-21% by the play. The net gave 12/7 10/8 (63% gammons) where
the distributions, gnubg and the brute force agree on 12/5 (79%)."""
GAMMON_SAVED = "ttsDIALXBwAAAA:QQlnAAAAAAAE"
"""See test_a_race_whose_gammons_are_the_nets_is_judged_by_a_rollout."""
NOBODY = bytes([CHECKERS] + [0] * 25)


@functools.cache
def _saves_within(side: Side, rolls: int) -> float:
    """Brute force, every play of every roll: the best chance that ``side`` bears a checker
    off within ``rolls`` rolls."""
    if side[OFF]:
        return 1.0
    if rolls == 0:
        return 0.0
    total = 0.0
    for d1, d2, weight in ROLLS:
        reached = variant("backgammon").play_paths(side, NOBODY, d1, d2)
        total += weight * max(_saves_within(mine, rolls - 1) for mine, _ in reached)
    return total


def test_the_gammon_of_the_bear_off_is_the_brute_force_one() -> None:
    position = position_from_id(BEAR_OFF)
    # X finishes in one roll with a double, else in two; O rolls first each time.
    exact = 1.0 - (
        _saves_within(position.theirs, 1) / 6 + 5 * _saves_within(position.theirs, 2) / 6
    )
    for play in position.legal_plays(3, 1):
        chances = race.outputs(play.position.mine, play.position.theirs)
        assert chances is not None
        assert chances.tolist() == pytest.approx([1.0, exact, 0.0, 0.0, 0.0], abs=1e-6)


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_plays_with_the_same_outcomes_are_worth_the_same_at_every_ply(ply: int) -> None:
    ranked = rank_plays(position_from_id(BEAR_OFF), 3, 1, ply)
    assert len(ranked) == 2 and {r.ply for r in ranked} == {ply}
    assert abs(ranked[0].equity - ranked[1].equity) < 0.01


def test_the_bear_off_agrees_with_gnubg() -> None:
    gnubg = gnubg_oracle()
    position = position_from_id(BEAR_OFF)
    for play in position.legal_plays(3, 1):
        after = play.position  # the mover's side first; gnubg's board: (not on roll, on roll)
        theirs = evaluate(after.swap(), 1)  # O on roll
        board = (tuple(after.mine[1:]), tuple(after.theirs[1:]))
        win, gammon, backgammon, lose_gammon, lose_backgammon, _ = gnubg.evaluate(board)
        assert theirs[0] == pytest.approx(win, abs=0.005)
        assert theirs[3] == pytest.approx(lose_gammon, abs=0.015)
        assert (
            (theirs[1], theirs[2], theirs[4]) == (gammon, backgammon, lose_backgammon) == (0, 0, 0)
        )


def test_a_loser_twenty_pips_from_home_is_valued_by_its_distributions() -> None:
    """race.MAX_OUTSIDE: the gammon of every play within 0.02 of gnubg's (its one-sided
    database and race net; the racer's play here costs 0-1% against the brute force's
    best), and the best play gnubg's."""
    gnubg = gnubg_oracle()
    position = parse_position(BEHIND, "backgammon")
    plays = position.legal_plays(5, 2)
    gammons = []
    for play in plays:
        after = play.position
        chances = race.outputs(after.mine, after.theirs)
        assert chances is not None and not np.isnan(chances).any(), play
        theirs = gnubg.evaluate((tuple(after.mine[1:]), tuple(after.theirs[1:])))
        assert chances[0] == 0 and chances[3] == pytest.approx(theirs[1], abs=0.02), play
        gammons.append(float(chances[3]))
    assert str(plays[gammons.index(min(gammons))]) == "12/5"
    assert str(rank_plays(position, 5, 2, 0)[0].play) == "12/5"


@pytest.mark.parametrize("ply", [0, 1, 2])
def test_no_backgammon_where_none_is_possible(ply: int) -> None:
    chances = evaluate(position_from_id(LOST), ply)
    assert chances[0] == 0 and chances[4] == 0  # gnubg: 0 too
    assert chances[3] > 0.95


@pytest.mark.parametrize("ply", [0, 1])
def test_a_race_all_but_over_settles_what_it_can(ply: int) -> None:
    """The win is all but settled (X's fewest rolls against O's distribution), so the race's
    other questions are asked: the backgammon, which X saves whatever it plays, is none for
    every play, where the net gave 13/9 13/8, which leaves the checker back, a 3.6%
    backgammon and a loss of 0.09 (gnubg: the best play). The gammon stays the net's."""
    position = parse_position(CLEARS, "backgammon")
    stakes = context_stakes(read_position(CLEARS, variant("backgammon")))
    ranked = rank_plays(position, 5, 4, ply, stakes=stakes)
    for r in ranked:
        assert r.outputs[0] < race.SETTLED and r.outputs[4] == 0, r.play
        assert r.outputs[3] > 0.9
    left = position.parse_play("13/9 13/8", 5, 4).position
    chances = race.outputs(left.mine, left.theirs)
    assert chances is not None and np.isnan(chances[3]) and chances[4] == 0
    best = ranked[0].equity
    assert next(best - r.equity for r in ranked if r.play.position == left) < 0.02


def _random_position(name: str, seed: int, turns: int) -> Position:
    """Where ``turns`` random plays from the start lead (or the last position before the
    game ended)."""
    rng = random.Random(seed)
    position = variant(name).start()
    for _ in range(turns):
        plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        after = rng.choice(plays).position.swap() if plays else position.swap()
        if after.outcome() is not None:
            break
        position = after
    return position


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["backgammon", "nackgammon", "acey-deucey", "long"]),
    st.integers(0, 2**32),
    st.integers(1, 160),
    st.integers(0, 1),
)
def test_what_a_position_rules_out_is_never_given_a_chance(
    name: str, seed: int, turns: int, ply: int
) -> None:
    position = _random_position(name, seed, turns)
    mine, theirs = position.theirs, position.mine  # the side that has just played
    out = evaluator(name).after(position.variant, [(mine, theirs)], ply)[0].astype(np.float64)
    assert ((out >= 0) & (out <= 1)).all()
    assert out[1] <= out[0] and out[2] <= out[1]
    assert out[3] <= 1 - out[0] + 1e-6 and out[4] <= out[3]
    if theirs[OFF]:
        assert out[1] == out[2] == 0
    if mine[OFF]:
        assert out[3] == out[4] == 0
    if not position.variant.has_backgammons:
        assert out[2] == out[4] == 0  # long nardy: oin and mars only
    elif no_contact(sides_array([mine]), sides_array([theirs]))[0]:
        assert position.is_race()
        if not any(theirs[19 : BAR + 1]):
            assert out[2] == 0
        if not any(mine[19 : BAR + 1]):
            assert out[4] == 0


def test_an_answer_depends_on_the_side_alone() -> None:
    """Whatever was asked before in the process (one analysis process or several)."""
    saver = position_from_id(BEAR_OFF).theirs
    alone = race.rolls("first", saver)
    for cache in (race._answers, race._values, race._choices_known):
        cache.clear()
    for d1, d2, _ in ROLLS:  # the positions it leads to, asked first
        for reached, _ in variant("backgammon").play_paths(saver, NOBODY, d1, d2):
            race.rolls("first", reached)
    after = race.rolls("first", saver)
    assert alone is not None and after is not None
    assert after.tolist() == alone.tolist()


def test_a_race_too_long_to_work_out_is_left_to_the_net() -> None:
    far = pos("backgammon", {6: 3, 8: 4, 11: 4, 12: 4}, {6: 3, 8: 4, 11: 4, 12: 4})
    assert far.is_race() and race.outputs(far.mine, far.theirs) is None
    assert race.rolls("off", far.mine) is None
    # 142 pips and 27 dice (two for each checker beyond the 6-point): seven doubles at least
    bound = race.done_within("off", far.mine)
    assert not bound[:7].any() and 0 < bound[7] < (1 / 6) ** 7


@st.composite
def _goal_and_side(draw: st.DrawFn) -> tuple[race.Goal, Side]:
    """A question and a side whose distribution is mostly in reach: for ``off`` up to ten
    checkers left near home, for ``first`` none off and a few outside, for ``clear`` any
    race."""
    goal = draw(st.sampled_from(["off", "first", "clear"]))
    if goal == "off":
        points = draw(st.lists(st.integers(1, 9), max_size=bearoff.ENDGAME_CHECKERS))
    elif goal == "first":
        outside = draw(st.lists(st.integers(7, 16), max_size=3))
        points = outside + draw(
            st.lists(
                st.integers(1, 6),
                min_size=CHECKERS - len(outside),
                max_size=CHECKERS - len(outside),
            )
        )
    else:
        points = draw(st.lists(st.integers(1, 24), max_size=CHECKERS))
    counts = [0] * (BAR + 1)
    counts[OFF] = CHECKERS - len(points)
    for point in points:
        counts[point] += 1
    return goal, bytes(counts)


@settings(max_examples=60, deadline=None)
@given(_goal_and_side())
def test_the_bound_of_a_side_out_of_reach_holds_where_its_distribution_is_known(
    question: tuple[race.Goal, Side],
) -> None:
    """race.done_within bounds the chance of being done within k rolls from above (what a
    race that is all but over is settled by): checked against every distribution in
    reach."""
    goal, side = question
    distribution = race.rolls(goal, side)
    assume(distribution is not None)
    assert distribution is not None
    bound = race.done_within(goal, side)
    assert (np.cumsum(distribution) <= bound + 1e-12).all()
    assert (np.diff(bound) >= -1e-12).all() and bound[-1] == pytest.approx(1.0)


def test_a_race_whose_gammons_are_the_nets_is_judged_by_a_rollout() -> None:
    """bench/gnubg_agreement.py, a 3-point match at 0-0, O's cube at 2 (a gammon wins X the
    match): X to play 6-1 with nine checkers left, O with two checkers 25 pips from home.
    X wins whatever it plays (settled by O's bound, race.done_within: O needs twenty dice),
    but O's first checker off is beyond the distributions in reach, so the gammons are the
    net's, which put 3/2 3/off 0.11 behind 3/off 1/off (gnubg 2-ply: 0.006, with 46.2% and
    45.6% gammons). The analysis rolls that play out, and finds no error in it."""
    position = parse_position(GAMMON_SAVED, "backgammon")
    for play in position.legal_plays(6, 1):
        chances = race.outputs(play.position.mine, play.position.theirs)
        assert chances is not None and chances[0] > 1 - race.SETTLED, play
        assert np.isnan(chances[1]) and chances[3] == 0, play
    stakes = context_stakes(read_position(GAMMON_SAVED, variant("backgammon")))
    made = position.parse_play("3/2 3/off", 6, 1).position
    reached = (made.mine, made.theirs)
    judged = judgement(position, 6, 1, reached, stakes=stakes)
    mine = rank_of(judged, reached)
    assert judged[mine].rollout and judged[0].equity - judged[mine].equity < BAD
